import type { PaymentLinkJson } from '../../src/payment-links/payment-link';
import type { TestApp } from './app';

/** Creates a payment link through the API; its record. */
export async function createLink(
  t: TestApp,
  key: string,
  body: Record<string, unknown> = {},
): Promise<PaymentLinkJson> {
  const res = await t.http
    .post('/api/v1/payment-links')
    .set('Authorization', key)
    .send({ name: 'Thiéboudienne', amount: 1500, ...body });
  if (res.status !== 200) throw new Error(`create payment link: ${res.status} ${res.text}`);
  return res.body.data as PaymentLinkJson;
}

/** A link page's form as a browser holds it: its cookie, CSRF token and form key. */
export interface LinkForm {
  cookie: string;
  csrf: string;
  formKey: string;
}

/** GETs the link's page (200 expected) and reads its form. */
export async function openLinkForm(t: TestApp, code: string, lang = 'fr'): Promise<LinkForm> {
  const res = await t.http.get(`/l/${code}`).set('accept-language', lang);
  if (res.status !== 200) throw new Error(`GET /l/${code}: ${res.status}`);
  const cookies = ([] as string[]).concat(res.headers['set-cookie'] ?? []);
  const cookie = cookies.map((c) => c.split(';')[0]).join('; ');
  const field = (name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(res.text)?.[1] ?? '';
  return { cookie, csrf: field('_csrf'), formKey: field('formKey') };
}

/** POSTs the link's form (url-encoded, as a browser without JavaScript sends it). */
export function submitLinkForm(
  t: TestApp,
  code: string,
  form: LinkForm,
  fields: Record<string, string>,
  lang = 'fr',
) {
  return t.http
    .post(`/l/${code}`)
    .set('cookie', form.cookie)
    .set('accept-language', lang)
    .type('form')
    .send({ _csrf: form.csrf, formKey: form.formKey, ...fields });
}

/** The checkout session id a started payment was sent to (the 303's Location). */
export function sessionIdOf(res: { status: number; headers: Record<string, string> }): string {
  if (res.status !== 303) throw new Error(`expected 303, got ${res.status}`);
  const m = /^\/checkout\/([0-9a-f-]{36})\?lang=/.exec(res.headers.location);
  if (!m) throw new Error(`unexpected Location ${res.headers.location}`);
  return m[1];
}

/** Starts a payment through the link with a fresh form: the checkout session's id. */
export async function startLinkPayment(
  t: TestApp,
  code: string,
  fields: Record<string, string> = { phoneNumber: '22123456' },
): Promise<string> {
  const form = await openLinkForm(t, code);
  return sessionIdOf(await submitLinkForm(t, code, form, fields));
}
