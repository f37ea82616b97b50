import { startTestApp, TestApp } from '../helpers/app';
import {
  billingData,
  DASHBOARD_ENV,
  DashboardBrowser,
  invitedMember,
  signedInOwner,
  stateChangingForms,
} from '../helpers/dashboard';

/** Roles: an owner does everything, a developer all but the team, a viewer only reads. Invitations. */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp(DASHBOARD_ENV);
});
afterAll(() => t.close());

/** An organization with one of everything a form acts on, and its owner's browser. */
async function organizationWithData() {
  const { org, browser: owner } = await signedInOwner(t, 'Roles Merchant');
  const sk = org.sandbox.secretKey;
  const endpoint = await t.http
    .post('/api/v1/webhook-endpoints')
    .set('Authorization', sk)
    .send({ url: 'http://127.0.0.1:9/hook' });
  await t.http
    .post('/api/v1/payment-request')
    .set('Authorization', sk)
    .send({ transactionId: 'r-1', amount: 100 });
  // Disabled, so that no test app's webhook worker changes its deliveries while a test compares them.
  await t.http
    .patch(`/api/v1/webhook-endpoints/${endpoint.body.data.id}`)
    .set('Authorization', sk)
    .send({ enabled: false });
  const [delivery] = await t.query('SELECT id FROM webhook_deliveries WHERE endpoint_id = $1', [
    endpoint.body.data.id,
  ]);
  const [key] = await t.query(`SELECT id FROM api_keys WHERE environment_id = $1 AND kind = 'publishable'`, [
    org.sandbox.environmentId,
  ]);
  await owner.get('/dashboard/team');
  await owner.post('/dashboard/team/invitations', {
    email: `pending-${Date.now()}@test.khoums`,
    role: 'viewer',
  });
  const [invitation] = await t.query(
    'SELECT id FROM dashboard_invitations WHERE organization_id = $1 AND accepted_at IS NULL',
    [org.organizationId],
  );
  const billing = await billingData(t, org);
  return {
    org,
    owner,
    billing,
    ids: {
      ...billing,
      keyId: key.id as string,
      endpointId: endpoint.body.data.id as string,
      deliveryId: delivery.id as string,
      invitationId: invitation.id as string,
      userId: '',
      invitationToken: '',
    },
  };
}

/** What the forms could change, to compare before and after. */
const snapshot = (organizationId: string) =>
  t.query(
    `SELECT (SELECT json_agg(k ORDER BY k.id) FROM (SELECT id, revoked_at, expires_at FROM api_keys WHERE organization_id = $1) k) AS keys,
            (SELECT json_agg(e ORDER BY e.id) FROM (SELECT id, url, enabled, secret, events FROM webhook_endpoints WHERE organization_id = $1) e) AS endpoints,
            (SELECT json_agg(d ORDER BY d.id) FROM (SELECT d.id, d.status, d.next_attempt_at, d.retry_index FROM webhook_deliveries d
               JOIN webhook_endpoints e ON e.id = d.endpoint_id WHERE e.organization_id = $1) d) AS deliveries,
            (SELECT json_agg(u ORDER BY u.id) FROM (SELECT id, role FROM users WHERE organization_id = $1) u) AS users,
            (SELECT json_agg(i ORDER BY i.id) FROM (SELECT id, revoked_at FROM dashboard_invitations WHERE organization_id = $1) i) AS invitations,
            (SELECT json_agg(p ORDER BY p.id) FROM (SELECT id, name, description, active FROM products WHERE organization_id = $1) p) AS products,
            (SELECT json_agg(p ORDER BY p.id) FROM (SELECT id, amount, interval, active FROM prices WHERE organization_id = $1) p) AS prices,
            (SELECT json_agg(c ORDER BY c.id) FROM (SELECT id, external_user_id, phone FROM customers WHERE organization_id = $1) c) AS customers,
            (SELECT json_agg(s ORDER BY s.id) FROM (SELECT id, status, paused_at, cancelled_at FROM subscriptions WHERE organization_id = $1) s) AS subscriptions,
            (SELECT json_agg(i ORDER BY i.id) FROM (SELECT id, status FROM invoices WHERE organization_id = $1) i) AS invoices,
            (SELECT count(*) FROM events WHERE organization_id = $1) AS events`,
    [organizationId],
  );

describe('a viewer', () => {
  it('reads every page', async () => {
    const { owner, billing } = await organizationWithData();
    const { browser } = await invitedMember(t, owner, 'viewer');
    for (const path of [
      '/dashboard/products',
      `/dashboard/products/${billing.productId}`,
      '/dashboard/customers',
      `/dashboard/customers/${billing.customerId}`,
      '/dashboard/subscriptions',
      `/dashboard/subscriptions/${billing.subscriptionId}`,
      '/dashboard/invoices',
      `/dashboard/invoices/${billing.invoiceId}`,
      '/dashboard',
      '/dashboard/payment-requests',
      '/dashboard/payments',
      '/dashboard/keys',
      '/dashboard/webhooks',
      '/dashboard/webhooks/deliveries',
      '/dashboard/payment-methods',
      '/dashboard/team',
      '/dashboard/account',
    ]) {
      const res = await browser.get(path);
      expect({ path, status: res.status }).toEqual({ path, status: 200 });
      expect(res.text).toContain('Read only: your role does not allow changes.');
    }
    // No form that would be refused is offered.
    expect((await browser.get('/dashboard/keys')).text).not.toContain('/revoke');
    expect((await browser.get('/dashboard/webhooks/deliveries')).text).not.toContain('/replay');
    expect((await browser.get('/dashboard/products')).text).not.toContain(
      'method="post" action="/dashboard/products"',
    );
    expect((await browser.get(`/dashboard/products/${billing.productId}`)).text).not.toMatch(
      /\/archive|\/prices"/,
    );
    expect((await browser.get('/dashboard/customers')).text).not.toContain(
      'method="post" action="/dashboard/customers"',
    );
    expect((await browser.get(`/dashboard/customers/${billing.customerId}`)).text).not.toContain(
      'method="post" action="/dashboard/customers/',
    );
    const subscription = await browser.get(`/dashboard/subscriptions/${billing.subscriptionId}`);
    expect(subscription.text).not.toMatch(/\/(pause|resume|cancel)"/);
  });

  it('is refused every state-changing form with 403, and nothing changes', async () => {
    const { org, owner, ids } = await organizationWithData();
    const { browser } = await invitedMember(t, owner, 'viewer');
    const [ownerRow] = await t.query(`SELECT id FROM users WHERE organization_id = $1 AND role = 'owner'`, [
      org.organizationId,
    ]);
    const before = await snapshot(org.organizationId);
    await browser.get('/dashboard');
    for (const [path, form] of stateChangingForms({ ...ids, userId: ownerRow.id })) {
      const res = await browser.post(path, form);
      expect({ path, status: res.status }).toEqual({ path, status: 403 });
      expect(res.text).toContain('Your role does not allow this action.');
    }
    expect(await snapshot(org.organizationId)).toEqual(before);
  });

  it('still switches environment, changes their own password and signs out', async () => {
    const { owner } = await organizationWithData();
    const viewer = await invitedMember(t, owner, 'viewer');
    const b = viewer.browser;
    const env = await b.post('/dashboard/environment', {
      environment: 'production',
      return: '/dashboard/keys',
    });
    expect({ status: env.status, location: env.headers.location }).toEqual({
      status: 303,
      location: '/dashboard/keys',
    });
    expect((await b.get('/dashboard/keys')).text).toContain('data-environment="production"');
    await b.get('/dashboard/account');
    const pw = await b.post('/dashboard/account/password', {
      currentPassword: viewer.password,
      newPassword: 'viewer new password',
      confirmPassword: 'viewer new password',
    });
    expect(pw.text).toContain('Password changed.');
    expect((await b.post('/dashboard/logout')).status).toBe(303);
  });
});

describe('a developer', () => {
  it('manages keys, webhooks and billing but not the team', async () => {
    const { org, owner, ids } = await organizationWithData();
    const { browser } = await invitedMember(t, owner, 'developer');
    await browser.get('/dashboard/keys');
    expect((await browser.post('/dashboard/keys', { type: 'secret' })).status).toBe(200);
    expect((await browser.post(`/dashboard/webhooks/${ids.endpointId}/disable`)).status).toBe(303);
    expect((await browser.post('/dashboard/products', { name: 'By a developer' })).status).toBe(303);
    expect(
      (await browser.post(`/dashboard/prices/${ids.priceId}`, { amount: '99', interval: 'weekly' })).status,
    ).toBe(303);
    expect((await browser.post(`/dashboard/subscriptions/${ids.subscriptionId}/pause`)).status).toBe(303);
    expect(
      (await t.query('SELECT status FROM subscriptions WHERE id = $1', [ids.subscriptionId]))[0].status,
    ).toBe('paused');
    const [ownerRow] = await t.query(`SELECT id FROM users WHERE organization_id = $1 AND role = 'owner'`, [
      org.organizationId,
    ]);
    for (const [path, form] of stateChangingForms({ ...ids, userId: ownerRow.id }).filter(([p]) =>
      p.startsWith('/dashboard/team'),
    ))
      expect({ path, status: (await browser.post(path, form)).status }).toEqual({ path, status: 403 });
    const team = await browser.get('/dashboard/team');
    expect(team.text).not.toContain('/dashboard/team/invitations"');
  });
});

describe('an owner', () => {
  it('invites through a one-time link: the invited user gets the role, and the link never works again', async () => {
    const { org, owner } = await organizationWithData();
    const member = await invitedMember(t, owner, 'developer');
    const [row] = await t.query('SELECT role, organization_id FROM users WHERE email = $1', [member.email]);
    expect(row).toEqual({ role: 'developer', organization_id: org.organizationId });
    const again = new DashboardBrowser(t);
    const res = await again.get(member.link);
    expect(res.status).toBe(404);
    expect(res.text).toContain('This invitation link no longer works');
    await again.get('/dashboard/login'); // a CSRF token for the post
    expect((await again.post(member.link, { password: 'another password' })).status).toBe(404);
    // The token is in no log line, and only its hash is stored.
    expect(t.logs.filter((l) => l.includes(member.link.split('/').pop()!))).toEqual([]);
    expect(t.logs.some((l) => l.includes('/dashboard/invite/[redacted]'))).toBe(true);
    const token = member.link.split('/').pop()!;
    expect(
      JSON.stringify(
        await t.query('SELECT * FROM dashboard_invitations WHERE organization_id = $1', [org.organizationId]),
      ),
    ).not.toContain(token);
  });

  it('refuses an expired or revoked invitation, and an email that already has an account', async () => {
    const { org, owner } = await organizationWithData();
    await owner.get('/dashboard/team');
    const taken = await owner.post('/dashboard/team/invitations', { email: org.email, role: 'viewer' });
    expect(taken.text).toContain('An account with this email address already exists.');

    const expired = await owner.post('/dashboard/team/invitations', {
      email: `exp-${Date.now()}@test.khoums`,
      role: 'viewer',
    });
    const expiredLink = new URL(/data-testid="invitation-link">([^<]+)</.exec(expired.text)![1]).pathname;
    await t.query(
      `UPDATE dashboard_invitations SET expires_at = now() - interval '1 second', created_at = now() - interval '8 days'
        WHERE organization_id = $1 AND accepted_at IS NULL AND revoked_at IS NULL`,
      [org.organizationId],
    );
    expect((await new DashboardBrowser(t).get(expiredLink)).status).toBe(404);

    await owner.get('/dashboard/team');
    const revoked = await owner.post('/dashboard/team/invitations', {
      email: `rev-${Date.now()}@test.khoums`,
      role: 'viewer',
    });
    const revokedLink = new URL(/data-testid="invitation-link">([^<]+)</.exec(revoked.text)![1]).pathname;
    const [inv] = await t.query(
      `SELECT id FROM dashboard_invitations
        WHERE organization_id = $1 AND accepted_at IS NULL AND revoked_at IS NULL AND expires_at > now()`,
      [org.organizationId],
    );
    await owner.get('/dashboard/team');
    expect((await owner.post(`/dashboard/team/invitations/${inv.id}/revoke`)).status).toBe(303);
    const b = new DashboardBrowser(t);
    expect((await b.get(revokedLink)).status).toBe(404);
  });

  it('changes roles, which apply from the next request, and keeps at least one owner', async () => {
    const { org, owner } = await organizationWithData();
    const member = await invitedMember(t, owner, 'developer');
    const [memberRow] = await t.query('SELECT id FROM users WHERE email = $1', [member.email]);
    await owner.get('/dashboard/team');
    expect((await owner.post(`/dashboard/team/users/${memberRow.id}/role`, { role: 'viewer' })).status).toBe(
      303,
    );
    await member.browser.get('/dashboard/keys');
    expect((await member.browser.post('/dashboard/keys', { type: 'secret' })).status).toBe(403);

    const [ownerRow] = await t.query('SELECT id FROM users WHERE email = $1', [org.email]);
    await owner.get('/dashboard/team');
    const demote = await owner.post(`/dashboard/team/users/${ownerRow.id}/role`, { role: 'developer' });
    expect(demote.status).toBe(200);
    expect(demote.text).toContain('The organization must keep at least one owner.');
    const remove = await owner.post(`/dashboard/team/users/${ownerRow.id}/remove`);
    expect(remove.text).toContain('The organization must keep at least one owner.');
    expect((await t.query('SELECT role FROM users WHERE id = $1', [ownerRow.id]))[0].role).toBe('owner');
  });

  it('removes a member, whose sessions end at once', async () => {
    const { owner } = await organizationWithData();
    const member = await invitedMember(t, owner, 'viewer');
    const [memberRow] = await t.query('SELECT id FROM users WHERE email = $1', [member.email]);
    await owner.get('/dashboard/team');
    expect((await owner.post(`/dashboard/team/users/${memberRow.id}/remove`)).status).toBe(303);
    expect((await member.browser.get('/dashboard')).status).toBe(303);
    expect(await t.query('SELECT 1 FROM users WHERE id = $1', [memberRow.id])).toEqual([]);
  });
});

it('answered every page once: nothing in the log says a reply was sent twice, nor any error of the dashboard', () => {
  expect(t.logs.filter((l) => /FST_ERR_REP_ALREADY_SENT|DashboardErrorFilter/.test(l))).toEqual([]);
});
