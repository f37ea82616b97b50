import request from 'supertest';
import type TestAgent from 'supertest/lib/agent';
import type { CreatedOrganization } from '../../src/organizations/organizations.service';
import { newTenant, TestApp } from './app';

/** The dashboard's app: per-address sign-in limits need the client address, sent as X-Forwarded-For. */
export const DASHBOARD_ENV = { TRUST_PROXY: '1' };

let addresses = 0;
/** A client address of its own (10.x.y.z), so parallel tests never share a sign-in limit. */
export function freshIp(): string {
  addresses += 1;
  const n = (process.pid % 200) * 50_000 + addresses;
  return `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
}

/** An attribute value as the browser reads it (Handlebars escapes `=`, `&`, quotes). */
export const unescapeHtml = (s: string): string =>
  s
    .replace(/&#x3D;/g, '=')
    .replace(/&#x27;/g, "'")
    .replace(/&#x60;/g, '`')
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

/** The href of the link with rel="next" / "prev", decoded. */
export const relLink = (html: string, rel: 'next' | 'prev'): string | undefined => {
  const m = new RegExp(`href="([^"]+)" rel="${rel}"`).exec(html);
  return m ? unescapeHtml(m[1]) : undefined;
};

export const csrfOf = (html: string): string => {
  const m = /name="_csrf" value="([^"]+)"/.exec(html);
  if (!m) throw new Error('no CSRF field on the page');
  return m[1];
};

/** A browser on the dashboard: its cookies, its address, and the CSRF token of its last page. */
export class DashboardBrowser {
  readonly agent: TestAgent;
  csrf = '';

  constructor(
    readonly t: TestApp,
    readonly ip = freshIp(),
    readonly language = 'en',
  ) {
    this.agent = request.agent(t.app.getHttpServer());
  }

  async get(path: string) {
    const res = await this.agent
      .get(path)
      .set('x-forwarded-for', this.ip)
      .set('accept-language', this.language);
    const m = /name="_csrf" value="([^"]+)"/.exec(res.text ?? '');
    if (m) this.csrf = m[1];
    return res;
  }

  /** A form post; with the CSRF token of the last page unless `_csrf` is given (null: none). */
  async post(path: string, form: Record<string, string | string[] | null> = {}) {
    const body: Record<string, string | string[]> = {};
    if (!('_csrf' in form)) body._csrf = this.csrf;
    for (const [k, v] of Object.entries(form)) if (v !== null) body[k] = v;
    const res = await this.agent
      .post(path)
      .type('form')
      .set('x-forwarded-for', this.ip)
      .set('accept-language', this.language)
      .send(
        new URLSearchParams(
          Object.entries(body).flatMap(([k, v]) =>
            (Array.isArray(v) ? v : [v]).map((x): [string, string] => [k, x]),
          ),
        ).toString(),
      );
    const m = /name="_csrf" value="([^"]+)"/.exec(res.text ?? '');
    if (m) this.csrf = m[1];
    return res;
  }

  async signIn(email: string, password: string) {
    await this.get('/dashboard/login');
    const res = await this.post('/dashboard/login', { email, password });
    if (res.status !== 303) throw new Error(`sign-in failed: ${res.status} ${res.text.slice(0, 200)}`);
    await this.get('/dashboard/account');
    return res;
  }
}

/** A new organization (newTenant) and a browser signed in as its owner. */
export async function signedInOwner(
  t: TestApp,
  name = 'Dashboard Merchant',
): Promise<{ org: CreatedOrganization; browser: DashboardBrowser }> {
  const org = await newTenant(t, name);
  const browser = new DashboardBrowser(t);
  await browser.signIn(org.email, org.password);
  return { org, browser };
}

/** The ids a route list is filled with. */
export interface RouteIds {
  keyId: string;
  endpointId: string;
  deliveryId: string;
  invitationId: string;
  userId: string;
  invitationToken: string;
  productId: string;
  priceId: string;
  customerId: string;
  subscriptionId: string;
}

/**
 * A sandbox product with a price, a customer and a subscription to it (billed at once: one pending
 * invoice), through the API: what the billing forms act on.
 */
export async function billingData(t: TestApp, org: CreatedOrganization) {
  const sk = org.sandbox.secretKey;
  const post = async (path: string, body: object) => {
    const res = await t.http.post(`/api/v1${path}`).set('Authorization', sk).send(body);
    if (res.status !== 200) throw new Error(`POST ${path}: ${res.status} ${res.text}`);
    return res.body.data as { id: string };
  };
  const product = await post('/products', { name: 'Plan' });
  const price = await post('/prices', { productId: product.id, amount: 1500, interval: 'monthly' });
  const customer = await post('/customers', {
    externalUserId: `user-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`,
    phone: '22123456',
  });
  const subscription = await post('/subscriptions', { customerId: customer.id, priceId: price.id });
  const [invoice] = await t.query<{ id: string }>('SELECT id FROM invoices WHERE subscription_id = $1', [
    subscription.id,
  ]);
  return {
    productId: product.id,
    priceId: price.id,
    customerId: customer.id,
    subscriptionId: subscription.id,
    invoiceId: invoice.id,
  };
}

/** Every form of the dashboard that changes something, with a plausible body. */
export function stateChangingForms(ids: RouteIds): [string, Record<string, string | string[]>][] {
  return [
    ['/dashboard/keys', { type: 'secret', name: 'k' }],
    [`/dashboard/keys/${ids.keyId}/revoke`, {}],
    [`/dashboard/keys/${ids.keyId}/roll`, { delay: '0' }],
    ['/dashboard/webhooks', { url: 'https://example.com/hook', events: ['payment-created'] }],
    [
      `/dashboard/webhooks/${ids.endpointId}`,
      { url: 'https://example.com/edited', events: ['payment-created'] },
    ],
    [`/dashboard/webhooks/${ids.endpointId}/disable`, {}],
    [`/dashboard/webhooks/${ids.endpointId}/enable`, {}],
    [`/dashboard/webhooks/${ids.endpointId}/rotate-secret`, {}],
    [`/dashboard/webhooks/${ids.endpointId}/test`, { event: 'payment-request-created' }],
    [`/dashboard/webhooks/deliveries/${ids.deliveryId}/replay`, {}],
    [`/dashboard/webhooks/${ids.endpointId}/delete`, {}],
    ['/dashboard/team/invitations', { email: `someone-${Date.now()}@test.khoums`, role: 'viewer' }],
    [`/dashboard/team/invitations/${ids.invitationId}/revoke`, {}],
    [`/dashboard/team/users/${ids.userId}/role`, { role: 'viewer' }],
    [`/dashboard/team/users/${ids.userId}/remove`, {}],
    ['/dashboard/team/public-contact', { phoneNumber: '22112233', website: 'https://shop.example.mr' }],
    ['/dashboard/products', { name: 'A product' }],
    [`/dashboard/products/${ids.productId}`, { name: 'Renamed', description: '' }],
    [`/dashboard/products/${ids.productId}/prices`, { amount: '900', interval: 'weekly' }],
    [`/dashboard/prices/${ids.priceId}`, { amount: '2500', interval: 'monthly' }],
    [`/dashboard/prices/${ids.priceId}`, { amount: '2600', interval: 'yearly', replaceExisting: 'true' }],
    [`/dashboard/prices/${ids.priceId}/archive`, {}],
    [`/dashboard/products/${ids.productId}/archive`, {}],
    ['/dashboard/customers', { externalUserId: `customer-${Date.now()}`, phone: '22334455' }],
    [`/dashboard/customers/${ids.customerId}`, { externalUserId: 'renamed-customer', phone: '' }],
    [`/dashboard/subscriptions/${ids.subscriptionId}/pause`, {}],
    [`/dashboard/subscriptions/${ids.subscriptionId}/resume`, {}],
    [`/dashboard/subscriptions/${ids.subscriptionId}/cancel`, { atPeriodEnd: 'true' }],
    [`/dashboard/subscriptions/${ids.subscriptionId}/cancel`, { atPeriodEnd: 'false' }],
  ];
}

/** The forms a signed-in user posts about their own session (a viewer may use them too). */
export const ownSessionForms: [string, Record<string, string>][] = [
  ['/dashboard/environment', { environment: 'production', return: '/dashboard' }],
  ['/dashboard/account/password', { currentPassword: 'x', newPassword: 'y', confirmPassword: 'y' }],
  ['/dashboard/logout', {}],
];

/** The owner invites someone with `role` through the team page; they accept and sign in. Their browser. */
export async function invitedMember(
  t: TestApp,
  owner: DashboardBrowser,
  role: 'owner' | 'developer' | 'viewer',
): Promise<{ email: string; password: string; browser: DashboardBrowser; link: string }> {
  const email = `${role}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@test.khoums`;
  await owner.get('/dashboard/team');
  const res = await owner.post('/dashboard/team/invitations', { email, role });
  const link = /data-testid="invitation-link">([^<]+)</.exec(res.text)?.[1];
  if (res.status !== 200 || !link)
    throw new Error(`invitation failed: ${res.status} ${res.text.slice(0, 300)}`);
  const path = new URL(link).pathname;
  const browser = new DashboardBrowser(t);
  await browser.get(path);
  const password = 'member password';
  const accepted = await browser.post(path, { password });
  if (accepted.status !== 303) throw new Error(`accepting failed: ${accepted.status}`);
  await browser.get('/dashboard');
  return { email, password, browser, link: path };
}
