import type { CreatedOrganization } from '../../src/organizations/organizations.service';
import { startTestApp, TestApp } from '../helpers/app';
import {
  billingData,
  DASHBOARD_ENV,
  DashboardBrowser,
  invitedMember,
  signedInOwner,
  stateChangingForms,
} from '../helpers/dashboard';

/**
 * Tenancy: no page or form of the dashboard reaches another organization's data by id (404, and
 * nothing changes), nor the other environment's, and no list or filter shows it.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp(DASHBOARD_ENV);
});
afterAll(() => t.close());

/** An organization with a payment request (paid, with a checkout session), an endpoint and its deliveries, a member and an invitation. */
async function victim() {
  const { org, browser: owner } = await signedInOwner(t, 'Victim Merchant');
  const sk = org.sandbox.secretKey;
  const endpoint = (
    await t.http
      .post('/api/v1/webhook-endpoints')
      .set('Authorization', sk)
      .send({ url: 'http://127.0.0.1:9/victim-hook' })
  ).body.data;
  const session = await t.http
    .post('/api/v1/checkout-session')
    .set('Authorization', sk)
    .send({ transactionId: 'victim-order', amount: 4321, phoneNumber: '33445566' });
  const paymentRequestId = session.body.data.paymentRequestId as string;
  const methods = (await t.http.get('/api/v1/payment-methods').set('Authorization', sk)).body.data;
  const masrivi = methods.find((m: { type: string }) => m.type === 'masrivi');
  const paid = await t.http
    .post('/api/v1/payment')
    .set('Authorization', org.sandbox.publishableKey)
    .send({ transactionId: 'victim-order', phoneNumber: '33445566', configurationId: masrivi.id });
  expect(paid.body.data.status).toBe('completed');
  // Disabled, so that no test app's webhook worker changes its deliveries while a test compares them.
  await t.http
    .patch(`/api/v1/webhook-endpoints/${endpoint.id}`)
    .set('Authorization', sk)
    .send({ enabled: false });
  const [delivery] = await t.query('SELECT id FROM webhook_deliveries WHERE endpoint_id = $1 LIMIT 1', [
    endpoint.id,
  ]);
  const [key] = await t.query('SELECT id FROM api_keys WHERE environment_id = $1 LIMIT 1', [
    org.sandbox.environmentId,
  ]);
  const member = await invitedMember(t, owner, 'developer');
  const [user] = await t.query('SELECT id FROM users WHERE email = $1', [member.email]);
  await owner.get('/dashboard/team');
  await owner.post('/dashboard/team/invitations', {
    email: `victim-invite-${Date.now()}@test.khoums`,
    role: 'owner',
  });
  const [invitation] = await t.query(
    'SELECT id FROM dashboard_invitations WHERE organization_id = $1 AND accepted_at IS NULL',
    [org.organizationId],
  );
  const billing = await billingData(t, org);
  const [customer] = await t.query('SELECT external_user_id FROM customers WHERE id = $1', [
    billing.customerId,
  ]);
  return {
    org,
    billing,
    externalUserId: customer.external_user_id as string,
    paymentRequestId,
    paymentId: paid.body.data.id as string,
    methodId: masrivi.id as string,
    endpointUrl: endpoint.url as string,
    ids: {
      keyId: key.id as string,
      endpointId: endpoint.id as string,
      deliveryId: delivery.id as string,
      invitationId: invitation.id as string,
      userId: user.id as string,
      invitationToken: '',
      ...billing,
    },
  };
}

const snapshot = (org: CreatedOrganization) =>
  t.query(
    `SELECT (SELECT json_agg(k ORDER BY k.id) FROM (SELECT id, revoked_at, expires_at FROM api_keys WHERE organization_id = $1) k) AS keys,
            (SELECT json_agg(e ORDER BY e.id) FROM (SELECT id, url, enabled, secret, previous_secret, events FROM webhook_endpoints WHERE organization_id = $1) e) AS endpoints,
            (SELECT json_agg(d ORDER BY d.id) FROM (SELECT d.id, d.status, d.next_attempt_at, d.retry_index FROM webhook_deliveries d
               JOIN webhook_endpoints e ON e.id = d.endpoint_id WHERE e.organization_id = $1) d) AS deliveries,
            (SELECT json_agg(u ORDER BY u.id) FROM (SELECT id, role FROM users WHERE organization_id = $1) u) AS users,
            (SELECT json_agg(i ORDER BY i.id) FROM (SELECT id, revoked_at FROM dashboard_invitations WHERE organization_id = $1) i) AS invitations,
            (SELECT json_agg(p ORDER BY p.id) FROM (SELECT id, name, description, active, environment_id FROM products WHERE organization_id = $1) p) AS products,
            (SELECT json_agg(p ORDER BY p.id) FROM (SELECT id, amount, interval, active FROM prices WHERE organization_id = $1) p) AS prices,
            (SELECT json_agg(c ORDER BY c.id) FROM (SELECT id, external_user_id, phone FROM customers WHERE organization_id = $1) c) AS customers,
            (SELECT json_agg(s ORDER BY s.id) FROM (SELECT id, status, paused_at, cancelled_at FROM subscriptions WHERE organization_id = $1) s) AS subscriptions,
            (SELECT json_agg(i ORDER BY i.id) FROM (SELECT id, status FROM invoices WHERE organization_id = $1) i) AS invoices,
            (SELECT count(*) FROM events WHERE organization_id = $1) AS events`,
    [org.organizationId],
  );

it("answers every page with another organization's id with 404, showing none of it", async () => {
  const v = await victim();
  const { browser } = await signedInOwner(t, 'Attacker');
  for (const path of [
    `/dashboard/payment-requests/${v.paymentRequestId}`,
    `/dashboard/webhooks/${v.ids.endpointId}`,
    `/dashboard/webhooks/deliveries/${v.ids.deliveryId}`,
    `/dashboard/products/${v.billing.productId}`,
    `/dashboard/customers/${v.billing.customerId}`,
    `/dashboard/subscriptions/${v.billing.subscriptionId}`,
    `/dashboard/invoices/${v.billing.invoiceId}`,
  ]) {
    const res = await browser.get(path);
    expect({ path, status: res.status }).toEqual({ path, status: 404 });
    expect(res.text).toContain('Page not found');
    expect(res.text).not.toContain('victim');
  }
});

it("refuses every form aimed at another organization's ids with 404, and nothing of it changes", async () => {
  const v = await victim();
  const { browser } = await signedInOwner(t, 'Attacker');
  const before = await snapshot(v.org);
  const forms = stateChangingForms(v.ids).filter(([path]) => /[0-9a-f]{8}-/.test(path));
  expect(forms.length).toBeGreaterThanOrEqual(12);
  for (const [path, form] of forms) {
    await browser.get('/dashboard');
    const res = await browser.post(path, form);
    expect({ path, status: res.status }).toEqual({ path, status: 404 });
  }
  expect(await snapshot(v.org)).toEqual(before);
  // The victim's key still works.
  expect(
    (await t.http.get('/api/v1/payment-request').set('Authorization', v.org.sandbox.secretKey)).status,
  ).toBe(200);
});

it('finds nothing of another organization through searches and filters', async () => {
  const v = await victim();
  const { browser } = await signedInOwner(t, 'Attacker');
  for (const path of [
    '/dashboard/payment-requests?q=victim-order',
    `/dashboard/payment-requests?q=${v.paymentRequestId}`,
    '/dashboard/payment-requests?q=33445566',
    '/dashboard/payment-requests?phone=33445566',
    '/dashboard/payment-requests?transactionId=victim-order',
    `/dashboard/payments?q=${v.paymentId}`,
    `/dashboard/payments?q=victim-order`,
    `/dashboard/payments?method=${v.methodId}`,
    `/dashboard/webhooks/deliveries?endpointId=${v.ids.endpointId}`,
    '/dashboard/webhooks',
    '/dashboard/team',
    '/dashboard/keys',
    '/dashboard',
    '/dashboard/products',
    '/dashboard/customers',
    `/dashboard/customers?q=${encodeURIComponent(v.externalUserId)}`,
    '/dashboard/customers?q=22123456',
    '/dashboard/subscriptions',
    '/dashboard/subscriptions?status=active',
    '/dashboard/invoices',
    `/dashboard/invoices?customer=${encodeURIComponent(v.externalUserId)}`,
    `/dashboard/invoices?subscriptionId=${v.billing.subscriptionId}`,
  ]) {
    const res = await browser.get(path);
    expect({ path, status: res.status }).toEqual({ path, status: 200 });
    // What the page shows besides the echo of the query (the filter form, the language links).
    const shown = res.text
      .replace(/<form method="get"[\s\S]*?<\/form>/g, '')
      .replace(/<footer>[\s\S]*<\/footer>/, '');
    for (const secret of [
      'victim-order',
      v.paymentRequestId,
      v.paymentId,
      v.endpointUrl,
      v.ids.endpointId,
      v.ids.userId,
      v.externalUserId,
      v.billing.productId,
      v.billing.customerId,
      v.billing.subscriptionId,
      v.billing.invoiceId,
    ])
      expect({ path, secret, leaked: shown.includes(secret) }).toEqual({ path, secret, leaked: false });
  }
});

it("keeps the environments apart: in Production, the Sandbox's request, key and endpoint are 404", async () => {
  const v = await victim();
  // The organization's own Sandbox objects, seen from its Production.
  const b = new DashboardBrowser(t);
  await b.signIn(v.org.email, v.org.password);
  await b.post('/dashboard/environment', { environment: 'production', return: '/dashboard' });
  for (const path of [
    `/dashboard/payment-requests/${v.paymentRequestId}`,
    `/dashboard/webhooks/${v.ids.endpointId}`,
    `/dashboard/webhooks/deliveries/${v.ids.deliveryId}`,
  ])
    expect({ path, status: (await b.get(path)).status }).toEqual({ path, status: 404 });
  // Products, subscriptions and invoices are the environment's; customers the organization's.
  for (const path of [
    `/dashboard/products/${v.billing.productId}`,
    `/dashboard/subscriptions/${v.billing.subscriptionId}`,
    `/dashboard/invoices/${v.billing.invoiceId}`,
  ])
    expect({ path, status: (await b.get(path)).status }).toEqual({ path, status: 404 });
  expect((await b.get(`/dashboard/customers/${v.billing.customerId}`)).status).toBe(200);
  const before = await snapshot(v.org);
  for (const [path, form] of stateChangingForms(v.ids).filter(([path]) =>
    /\/dashboard\/(products|prices|subscriptions)\/[0-9a-f]{8}-/.test(path),
  ))
    expect({ path, status: (await b.post(path, form)).status }).toEqual({ path, status: 404 });
  expect(await snapshot(v.org)).toEqual(before);
  for (const list of ['/dashboard/products', '/dashboard/subscriptions', '/dashboard/invoices'])
    expect((await b.get(list)).text).not.toContain(v.externalUserId);
  await b.get('/dashboard/keys');
  expect((await b.post(`/dashboard/keys/${v.ids.keyId}/revoke`)).status).toBe(404);
  expect((await b.post(`/dashboard/keys/${v.ids.keyId}/roll`, { delay: '0' })).status).toBe(404);
  expect((await b.get('/dashboard/payment-requests?q=victim-order')).text).not.toContain(
    'data-testid="payment-request"',
  );
});

it('answered every page once: nothing in the log says a reply was sent twice, nor any error of the dashboard', () => {
  expect(t.logs.filter((l) => /FST_ERR_REP_ALREADY_SENT|DashboardErrorFilter/.test(l))).toEqual([]);
});
