import { EXCEPTION_FILTERS_METADATA, GUARDS_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { ModulesContainer } from '@nestjs/core';
import request from 'supertest';
import { csrfToken } from '../../src/common/http/csrf';
import { PageErrorFilter } from '../../src/common/pages/page.filter';
import { PageGuard } from '../../src/common/pages/page.guard';
import { newTenant, startTestApp, TestApp } from '../helpers/app';
import { createSession, txId } from '../helpers/checkout';
import { createLink, openLinkForm, submitLinkForm } from '../helpers/payment-links';
import { DASHBOARD_ENV } from '../helpers/dashboard';

/**
 * The page surfaces' kit (docs/architecture.md "Server-rendered pages"): every page controller
 * runs behind its one guard and filter, and that guard refuses a form posted without its page's
 * CSRF token on every surface before any handler acts.
 */

/**
 * The paths of the surfaces on the kit: their pages, never their API (`api/v1/portal-sessions`).
 */
const SURFACES = ['dashboard', 'admin', 'portal', 'checkout', 'l'];
/**
 * Out of the API's document but no page: the invoice page's polling (JSON), the metrics (text),
 * the banks' signed transfer notifications (JSON, docs/bank-gateway.md).
 */
const NOT_PAGES = ['InvoicePaymentStatusController', 'MetricsController', 'BankNotificationsController'];

/** @nestjs/swagger's mark of `ApiExcludeController()` (its constants are not exported). */
const API_EXCLUDED = 'swagger/apiExcludeController';

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp(DASHBOARD_ENV);
});
afterAll(() => t?.close());

const agent = () => request.agent(t.app.getHttpServer());
const tokenOf = (html: string): string => /name="_csrf" value="([^"]+)"/.exec(html)?.[1] ?? '';

function controllers(): {
  name: string;
  path: string;
  guards: unknown[];
  filters: unknown[];
  excluded: boolean;
}[] {
  const all = [...t.app.get(ModulesContainer).values()].flatMap((m) => [...m.controllers.values()]);
  return all.map((c) => {
    const type = c.metatype as object;
    return {
      name: c.name,
      path: String(Reflect.getMetadata(PATH_METADATA, type) ?? ''),
      guards: (Reflect.getMetadata(GUARDS_METADATA, type) as unknown[] | undefined) ?? [],
      filters: (Reflect.getMetadata(EXCEPTION_FILTERS_METADATA, type) as unknown[] | undefined) ?? [],
      excluded: Reflect.getMetadata(API_EXCLUDED, type) !== undefined,
    };
  });
}

it("runs every page controller of the app behind the kit's guard and filter, out of the API's document", () => {
  const pages = controllers().filter(
    (c) => !NOT_PAGES.includes(c.name) && SURFACES.some((s) => c.path === s || c.path.startsWith(`${s}/`)),
  );
  // The dashboard's many controllers, the console's, the portal's and the hosted pages'.
  expect(pages.length).toBeGreaterThan(20);
  for (const surface of SURFACES) expect(pages.some((c) => c.path.startsWith(surface))).toBe(true);
  const off = pages.filter(
    (c) =>
      !c.guards.includes(PageGuard) ||
      !c.filters.some((f) => (f as { prototype?: unknown }).prototype instanceof PageErrorFilter) ||
      !c.excluded,
  );
  expect(off.map((c) => c.name)).toEqual([]);
  // And no page controller elsewhere: every controller out of the API's document is one of theirs.
  const elsewhere = controllers().filter(
    (c) => c.excluded && !NOT_PAGES.includes(c.name) && !pages.some((p) => p.name === c.name),
  );
  expect(elsewhere.map((c) => c.name)).toEqual([]);
});

describe('a form posted without its page’s CSRF token is refused (403) before the handler acts', () => {
  it('on the dashboard (sign-up: no organization made)', async () => {
    const a = agent();
    const form = await a.get('/dashboard/signup?lang=en').expect(200);
    const email = `kit-${Date.now()}@test.khoums`;
    const fields = { organizationName: 'Kit', email, password: 'a long enough password' };
    for (const _csrf of [undefined, 'forged', csrfToken('another key', 'x'.repeat(43), 'anonymous')]) {
      const res = await a
        .post('/dashboard/signup')
        .type('form')
        .send(_csrf === undefined ? fields : { ...fields, _csrf });
      expect(res.status).toBe(403);
      expect(res.text).toContain('The form’s security check failed.');
    }
    expect(await t.query('SELECT 1 FROM users WHERE email = $1', [email])).toEqual([]);
    expect(tokenOf(form.text)).not.toBe('');
  });

  it('on the operators’ console (sign-in), where the dashboard’s token is not one', async () => {
    const a = agent();
    await a.get('/admin/login?lang=en').expect(200);
    const email = `kit-operator-${Date.now()}@test.khoums`;
    const res = await a
      .post('/admin/login')
      .type('form')
      .send({ email, password: 'x', code: '000000', _csrf: 'forged' });
    expect(res.status).toBe(403);
    expect(res.text).toContain('Security check failed');
    // A token of the dashboard's forms is not one of the console's.
    const dashboard = tokenOf((await a.get('/dashboard/login').expect(200)).text);
    const other = await a
      .post('/admin/login')
      .type('form')
      .send({ email, password: 'x', code: '0', _csrf: dashboard });
    expect(other.status).toBe(403);
  });

  it('on the customer portal (the phone form: no code made)', async () => {
    const org = await newTenant(t);
    const a = agent();
    const home = `/portal/${org.organizationId}`;
    const form = await a.get(`${home}?environment=sandbox&lang=en`).expect(200);
    const res = await a
      .post(`${home}/code`)
      .type('form')
      .send({ phone: '22123456', environment: 'sandbox', _csrf: 'forged' });
    expect(res.status).toBe(403);
    expect(res.text).toContain('The security check failed.');
    expect(
      await t.query('SELECT 1 FROM portal_codes WHERE environment_id = $1', [org.sandbox.environmentId]),
    ).toEqual([]);
    // The page's own token is accepted: the refusal was the token's.
    const ok = await a
      .post(`${home}/code`)
      .type('form')
      .send({ phone: '22123456', environment: 'sandbox', _csrf: tokenOf(form.text) });
    expect(ok.status).toBe(200);
  });

  it('on the hosted checkout (cancel: the session stays open)', async () => {
    const org = await newTenant(t);
    const { data } = await createSession(t, org.sandbox.secretKey, { transactionId: txId(), amount: 1500 });
    const a = agent();
    const page = await a.get(`/checkout/${data.id}?lang=en`).expect(200);
    const res = await a.post(`/checkout/${data.id}/cancel`).type('form').send({ _csrf: 'forged' });
    expect(res.status).toBe(403);
    expect(res.text).toContain('The security check failed.');
    // A token of another page (scoped to another id) is not this one's.
    const other = await createSession(t, org.sandbox.secretKey, { transactionId: txId(), amount: 1500 });
    const otherToken = tokenOf((await a.get(`/checkout/${other.data.id}`).expect(200)).text);
    const moved = await a.post(`/checkout/${data.id}/cancel`).type('form').send({ _csrf: otherToken });
    expect(moved.status).toBe(403);
    expect(await t.query('SELECT status FROM checkout_sessions WHERE id = $1', [data.id])).toEqual([
      { status: 'open' },
    ]);
    const ok = await a
      .post(`/checkout/${data.id}/cancel`)
      .type('form')
      .send({ _csrf: tokenOf(page.text) });
    expect(ok.status).toBe(303);
  });

  it('on a payment link’s page (no payment request made)', async () => {
    const org = await newTenant(t);
    const link = await createLink(t, org.sandbox.secretKey);
    const form = await openLinkForm(t, link.code, 'en');
    const res = await submitLinkForm(
      t,
      link.code,
      { ...form, csrf: 'forged' },
      { phoneNumber: '22123456' },
      'en',
    );
    expect(res.status).toBe(403);
    expect(res.text).toContain('The security check failed.');
    const made = await t.http
      .get(`/api/v1/payment-request?paymentLinkId=${link.id}`)
      .set('Authorization', org.sandbox.secretKey)
      .expect(200);
    expect(made.body.data).toEqual([]);
  });
});
