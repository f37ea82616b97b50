import { Messages } from '../../src/common/errors/messages';
import { ApiKeysService } from '../../src/organizations/api-keys.service';
import type { CreatedOrganization } from '../../src/organizations/organizations.service';
import { newTenant, startTestApp, TestApp } from '../helpers/app';
import { expect422, expectText } from '../helpers/http';
import { connectAccount, newPlatform } from '../helpers/platforms';
import { baseUrlOf, client } from '../sdk/helpers';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const api = (path: string) => `/api/v1${path}`;

describe('connected accounts', () => {
  let platform: CreatedOrganization;
  beforeAll(async () => {
    platform = await newPlatform(t);
  });

  it('a platform creates a full organization: unverified, both environments, its owner, connected to the platform', async () => {
    const email = `Owner-${Date.now()}@Boutique.mr`;
    const res = await t.http
      .post(api('/accounts'))
      .set('Authorization', platform.sandbox.secretKey)
      .send({ name: 'Boutique Nour', email });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: 'Boutique Nour',
      email: email.toLowerCase(),
      verification: { status: 'unverified', submittedAt: null, decidedAt: null, reason: null },
      createdAt: expect.any(String),
    });
    const id = res.body.data.id as string;
    const environments = await t.query(
      'SELECT kind FROM environments WHERE organization_id = $1 ORDER BY kind',
      [id],
    );
    expect(environments.map((e) => e.kind)).toEqual(['production', 'sandbox']);
    const [org] = await t.query(
      'SELECT platform_id, platform, verification_status FROM organizations WHERE id = $1',
      [id],
    );
    expect(org).toEqual({
      platform_id: platform.organizationId,
      platform: false,
      verification_status: 'unverified',
    });
    const [owner] = await t.query('SELECT role FROM users WHERE organization_id = $1', [id]);
    expect(owner.role).toBe('owner');
    // Each environment is set up like any other (the default bank apps).
    const methods = await t.query(
      'SELECT count(*)::int AS n FROM payment_methods m JOIN environments e ON e.id = m.environment_id WHERE e.organization_id = $1',
      [id],
    );
    expect(methods[0].n).toBeGreaterThan(0);
  });

  it('lists and reads the platform’s accounts, newest first; the Production key sees the same accounts', async () => {
    const p = await newPlatform(t);
    const first = await connectAccount(t, p, 'First');
    const second = await connectAccount(t, p, 'Second');
    const list = await t.http.get(api('/accounts')).set('Authorization', p.production.secretKey);
    expect(list.status).toBe(200);
    expect(list.body).toEqual({
      data: [second, first],
      pagination: { page: 1, limit: 20, total: 2, totalPages: 1 },
    });
    const paged = await t.http.get(api('/accounts?limit=1&page=2')).set('Authorization', p.sandbox.secretKey);
    expect(paged.body.data).toEqual([first]);
    const one = await t.http.get(api(`/accounts/${first.id}`)).set('Authorization', p.sandbox.secretKey);
    expect(one.body).toEqual({ data: first });
  });

  it('a non-platform gets 403 Only platforms can connect accounts on every accounts route', async () => {
    const merchant = await newTenant(t);
    const account = await connectAccount(t, platform);
    const sk = merchant.sandbox.secretKey;
    expectText(
      await t.http
        .post(api('/accounts'))
        .set('Authorization', sk)
        .send({ name: 'X', email: 'x@example.com' }),
      403,
      Messages.onlyPlatformsConnectAccounts,
    );
    expectText(
      await t.http.get(api('/accounts')).set('Authorization', sk),
      403,
      Messages.onlyPlatformsConnectAccounts,
    );
    expectText(
      await t.http.get(api(`/accounts/${account.id}`)).set('Authorization', sk),
      403,
      Messages.onlyPlatformsConnectAccounts,
    );
    expectText(
      await t.http
        .post(api(`/accounts/${account.id}/onboarding-link`))
        .set('Authorization', sk)
        .send({ returnUrl: 'https://p.example/return', refreshUrl: 'https://p.example/refresh' }),
      403,
      Messages.onlyPlatformsConnectAccounts,
    );
    // Nothing was created.
    const [count] = await t.query("SELECT count(*)::int AS n FROM organizations WHERE name = 'X'");
    expect(count.n).toBe(0);
  });

  it('an organization whose platform flag an operator removed can no longer connect accounts', async () => {
    const p = await newPlatform(t);
    await t.query('UPDATE organizations SET platform = false WHERE id = $1', [p.organizationId]);
    expectText(
      await t.http.get(api('/accounts')).set('Authorization', p.sandbox.secretKey),
      403,
      Messages.onlyPlatformsConnectAccounts,
    );
  });

  it("another platform's account, or an unknown id, is 403 Account is not connected to this platform", async () => {
    const other = await newPlatform(t);
    const theirs = await connectAccount(t, other);
    const sk = platform.sandbox.secretKey;
    for (const id of [theirs.id, '00000000-0000-4000-8000-000000000000', platform.organizationId]) {
      expectText(
        await t.http.get(api(`/accounts/${id}`)).set('Authorization', sk),
        403,
        Messages.accountNotConnected,
      );
      expectText(
        await t.http
          .post(api(`/accounts/${id}/onboarding-link`))
          .set('Authorization', sk)
          .send({ returnUrl: 'https://p.example/return', refreshUrl: 'https://p.example/refresh' }),
        403,
        Messages.accountNotConnected,
      );
    }
    expect422(await t.http.get(api('/accounts/not-a-uuid')).set('Authorization', sk), 'params', '/id');
    // Another platform's list never shows them.
    const list = await t.http.get(api('/accounts')).set('Authorization', sk);
    expect(list.body.data.map((a: { id: string }) => a.id)).not.toContain(theirs.id);
  });

  it('validates the new account: 422 for shapes, 400 Invalid email address, 409 for a taken email', async () => {
    const sk = platform.sandbox.secretKey;
    expect422(
      await t.http.post(api('/accounts')).set('Authorization', sk).send({ email: 'a@b.mr' }),
      'body',
      '/name',
    );
    expect422(
      await t.http
        .post(api('/accounts'))
        .set('Authorization', sk)
        .send({ name: 'x'.repeat(201), email: 'a@b.mr' }),
      'body',
      '/name',
    );
    expect422(
      await t.http.post(api('/accounts')).set('Authorization', sk).send({ name: 'N', email: 5 }),
      'body',
      '/email',
    );
    expectText(
      await t.http.post(api('/accounts')).set('Authorization', sk).send({ name: 'N', email: 'not-an-email' }),
      400,
      Messages.invalidEmail,
    );
    const taken = await connectAccount(t, platform);
    const again = await t.http
      .post(api('/accounts'))
      .set('Authorization', sk)
      .send({ name: 'N', email: taken.email });
    expectText(again, 409, Messages.accountEmailTaken(taken.email));
  });

  it('needs a secret key: a publishable key gets 403 Unauthorized access', async () => {
    expectText(
      await t.http.get(api('/accounts')).set('Authorization', platform.sandbox.publishableKey),
      403,
      Messages.unauthorizedAccess,
    );
  });

  it('makes onboarding links: a dashboard URL valid one hour; 422 for URLs that are not http(s)', async () => {
    const account = await connectAccount(t, platform);
    const before = Date.now();
    const res = await t.http
      .post(api(`/accounts/${account.id}/onboarding-link`))
      .set('Authorization', platform.sandbox.secretKey)
      .send({ returnUrl: 'https://p.example/return', refreshUrl: 'https://p.example/refresh' });
    expect(res.status).toBe(200);
    expect(res.body.data.url).toMatch(/\/dashboard\/onboarding\/[A-Za-z0-9_-]{43}$/);
    const expiresAt = Date.parse(res.body.data.expiresAt);
    expect(expiresAt).toBeGreaterThanOrEqual(before + 3600_000 - 1000);
    expect(expiresAt).toBeLessThanOrEqual(Date.now() + 3600_000);
    expect422(
      await t.http
        .post(api(`/accounts/${account.id}/onboarding-link`))
        .set('Authorization', platform.sandbox.secretKey)
        .send({ returnUrl: 'javascript:alert(1)', refreshUrl: 'https://p.example/refresh' }),
      'body',
      '/returnUrl',
    );
    expect422(
      await t.http
        .post(api(`/accounts/${account.id}/onboarding-link`))
        .set('Authorization', platform.sandbox.secretKey)
        .send({ returnUrl: 'https://p.example/return' }),
      'body',
      '/refreshUrl',
    );
  });
});

describe('acting for a connected account (Khoums-Account)', () => {
  let platform: CreatedOrganization;
  let account: { id: string };
  let accountKeys: { secret: string; publishable: string };
  beforeAll(async () => {
    platform = await newPlatform(t);
    account = await connectAccount(t, platform);
    // The merchant's own keys, as its owner would create them on the keys page.
    const [env] = await t.query(
      "SELECT id FROM environments WHERE organization_id = $1 AND kind = 'sandbox'",
      [account.id],
    );
    const keys = t.app.get(ApiKeysService);
    accountKeys = {
      secret: (await keys.issue(account.id, { id: env.id, kind: 'sandbox' }, 'secret')).key,
      publishable: (await keys.issue(account.id, { id: env.id, kind: 'sandbox' }, 'publishable')).key,
    };
  });

  it("runs as the account's key of the same environment: what it creates is the account's, not the platform's", async () => {
    const created = await t.http
      .post(api('/payment-request'))
      .set('Authorization', platform.sandbox.secretKey)
      .set('Khoums-Account', account.id)
      .send({ transactionId: 'acting-1', amount: 1200 });
    expect(created.status).toBe(200);
    const [env] = await t.query(
      "SELECT id FROM environments WHERE organization_id = $1 AND kind = 'sandbox'",
      [account.id],
    );
    expect(created.body.data.environmentId).toBe(env.id);
    // The account's own key sees it; the platform without the header does not.
    const own = await t.http
      .get(api(`/payment-request/${created.body.data.id}`))
      .set('Authorization', accountKeys.secret);
    expect(own.body.data).toEqual(created.body.data);
    expectText(
      await t.http
        .get(api(`/payment-request/${created.body.data.id}`))
        .set('Authorization', platform.sandbox.secretKey),
      404,
      Messages.paymentRequestNotFound,
    );
    // The transactionId is the account's: the platform may use the same one for itself.
    const platformOwn = await t.http
      .post(api('/payment-request'))
      .set('Authorization', platform.sandbox.secretKey)
      .send({ transactionId: 'acting-1', amount: 1200 });
    expect(platformOwn.status).toBe(200);
    expect(platformOwn.body.data.environmentId).toBe(platform.sandbox.environmentId);
  });

  it("a publishable key acts as the account's publishable key (same kind)", async () => {
    await t.http
      .post(api('/payment-request'))
      .set('Authorization', accountKeys.secret)
      .send({ transactionId: 'acting-pk', amount: 700 });
    const pk = await t.http
      .get(api('/payment-request/by-transaction/acting-pk'))
      .set('Authorization', platform.sandbox.publishableKey)
      .set('Khoums-Account', account.id);
    expect(pk.status).toBe(200);
    expect(Object.keys(pk.body.data).sort()).toEqual(['amount', 'id', 'phoneNumber']);
    // Still a publishable key: secret-only routes refuse it.
    expectText(
      await t.http
        .get(api('/payment-request'))
        .set('Authorization', platform.sandbox.publishableKey)
        .set('Khoums-Account', account.id),
      403,
      Messages.unauthorizedAccess,
    );
  });

  it('a Production key acts in the account’s Production environment, gated by the account’s verification', async () => {
    const res = await t.http
      .post(api('/payment-request'))
      .set('Authorization', platform.production.secretKey)
      .set('Khoums-Account', account.id)
      .send({ transactionId: 'acting-live', amount: 1000 });
    expectText(res, 403, Messages.organizationNotVerified);
    const org = await t.http
      .get(api('/organization'))
      .set('Authorization', platform.production.secretKey)
      .set('Khoums-Account', account.id);
    expect(org.body.data).toMatchObject({
      id: account.id,
      platform: false,
      verification: { status: 'unverified' },
    });
  });

  it('GET /organization/:id answers the connected account with Khoums-Account, the platform without it, and 404 across', async () => {
    const get = (id: string, acting?: string) => {
      const req = t.http.get(api(`/organization/${id}`)).set('Authorization', platform.sandbox.secretKey);
      return acting ? req.set('Khoums-Account', acting) : req;
    };
    const asAccount = await get(account.id, account.id);
    expect(asAccount.status).toBe(200);
    expect(asAccount.body.data).toMatchObject({ id: account.id, platform: false });
    const asPlatform = await get(platform.organizationId);
    expect(asPlatform.body.data).toMatchObject({ id: platform.organizationId, platform: true });
    expectText(await get(account.id), 404, Messages.organizationNotFound);
    expectText(await get(platform.organizationId, account.id), 404, Messages.organizationNotFound);
  });

  it('403 Account is not connected to this platform: another platform’s account, a sibling organization, an unknown or malformed id, a non-platform’s key', async () => {
    const other = await newPlatform(t);
    const theirs = await connectAccount(t, other);
    const merchant = await newTenant(t);
    const cases: [string, string][] = [
      [platform.sandbox.secretKey, theirs.id],
      [platform.sandbox.secretKey, merchant.organizationId],
      [platform.sandbox.secretKey, platform.organizationId],
      [platform.sandbox.secretKey, '00000000-0000-4000-8000-000000000000'],
      [platform.sandbox.secretKey, 'not-an-id'],
      [platform.sandbox.secretKey, ''],
      [merchant.sandbox.secretKey, account.id],
      [accountKeys.secret, account.id],
    ];
    for (const [key, id] of cases) {
      expectText(
        await t.http.get(api('/payment-request')).set('Authorization', key).set('Khoums-Account', id),
        403,
        Messages.accountNotConnected,
      );
      expectText(
        await t.http
          .post(api('/payment-request'))
          .set('Authorization', key)
          .set('Khoums-Account', id)
          .send({ transactionId: `refused-${Math.random()}`, amount: 5 }),
        403,
        Messages.accountNotConnected,
      );
    }
    // A publishable key too, on the routes it may call.
    expectText(
      await t.http
        .get(api('/payment-methods'))
        .set('Authorization', platform.sandbox.publishableKey)
        .set('Khoums-Account', theirs.id),
      403,
      Messages.accountNotConnected,
    );
    // A key still has to be valid first.
    expectText(
      await t.http
        .get(api('/payment-request'))
        .set('Authorization', 'sk_test_nope')
        .set('Khoums-Account', account.id),
      401,
      Messages.invalidApiKey,
    );
  });

  it('stops at once when the operator removes the platform flag', async () => {
    const p = await newPlatform(t);
    const a = await connectAccount(t, p);
    const ok = await t.http
      .get(api('/payment-request'))
      .set('Authorization', p.sandbox.secretKey)
      .set('Khoums-Account', a.id);
    expect(ok.status).toBe(200);
    await t.query('UPDATE organizations SET platform = false WHERE id = $1', [p.organizationId]);
    expectText(
      await t.http
        .get(api('/payment-request'))
        .set('Authorization', p.sandbox.secretKey)
        .set('Khoums-Account', a.id),
      403,
      Messages.accountNotConnected,
    );
  });

  it('an account cannot connect accounts itself (acting for it, the key is the account’s)', async () => {
    expectText(
      await t.http
        .get(api('/accounts'))
        .set('Authorization', platform.sandbox.secretKey)
        .set('Khoums-Account', account.id),
      403,
      Messages.onlyPlatformsConnectAccounts,
    );
  });

  it('scopes Idempotency-Keys to the account: the same key for the platform and for the account are two requests', async () => {
    const send = (acting: boolean, transactionId: string) => {
      const r = t.http
        .post(api('/payment-request'))
        .set('Authorization', platform.sandbox.secretKey)
        .set('Idempotency-Key', 'same-key-for-both');
      return (acting ? r.set('Khoums-Account', account.id) : r).send({ transactionId, amount: 300 });
    };
    const forAccount = await send(true, 'idem-1');
    const forPlatform = await send(false, 'idem-1');
    expect(forAccount.status).toBe(200);
    expect(forPlatform.status).toBe(200);
    expect(forPlatform.headers['idempotent-replayed']).toBeUndefined();
    expect(forPlatform.body.data.id).not.toBe(forAccount.body.data.id);
    const replay = await send(true, 'idem-1');
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body).toEqual(forAccount.body);
    // The account's own key shares the account's scope.
    const ownKey = await t.http
      .post(api('/payment-request'))
      .set('Authorization', accountKeys.secret)
      .set('Idempotency-Key', 'same-key-for-both')
      .send({ transactionId: 'idem-1', amount: 300 });
    expect(ownKey.headers['idempotent-replayed']).toBe('true');
  });
});

describe('rate limits while acting', () => {
  let limited: TestApp;
  beforeAll(async () => {
    limited = await startTestApp({ RATE_LIMIT_PER_KEY: '1' });
  });
  afterAll(() => limited.close());

  it("count on the platform's key, whichever account it acts for", async () => {
    const p = await newPlatform(limited);
    // Connected with the Production key, so that the Sandbox key's bucket is full.
    const a = await connectAccount(limited, p, 'A', p.production.secretKey);
    const b = await connectAccount(limited, p, 'B', p.production.secretKey);
    const sk = p.sandbox.secretKey;
    const statuses: number[] = [];
    for (const account of [a.id, b.id, a.id, b.id, undefined]) {
      const r = limited.http.get(api('/payment-request')).set('Authorization', sk);
      statuses.push((await (account ? r.set('Khoums-Account', account) : r)).status);
    }
    // A burst of twice the rate, then 429 however the requests are spread over the accounts.
    expect(statuses.slice(0, 2)).toEqual([200, 200]);
    expect(statuses.slice(2)).toContain(429);
  });
});

describe('the SDK', () => {
  it('acts for an account per client or per call (Khoums-Account), and lists the accounts', async () => {
    const p = await newPlatform(t);
    const a = await connectAccount(t, p, 'SDK A');
    const b = await connectAccount(t, p, 'SDK B');
    const base = baseUrlOf(t);
    const forA = client(base, p.sandbox.secretKey, { account: a.id });
    const created = await forA.paymentRequests.create({
      transactionId: 'sdk-1',
      amount: 800,
      applicationFee: 80,
    });
    expect(created.applicationFee).toBe(80);
    const [envA] = await t.query(
      "SELECT id FROM environments WHERE organization_id = $1 AND kind = 'sandbox'",
      [a.id],
    );
    expect(created.environmentId).toBe(envA.id);
    // A call's own account wins over the client's.
    const forB = await forA.paymentRequests.create(
      { transactionId: 'sdk-1', amount: 900 },
      { account: b.id },
    );
    expect(forB.environmentId).not.toBe(envA.id);
    const platformClient = client(base, p.sandbox.secretKey);
    const listed = await platformClient.accounts.list();
    expect(listed.data.map((x) => x.id)).toEqual([b.id, a.id]);
    await expect(platformClient.accounts.get(a.id, { account: a.id })).rejects.toMatchObject({
      status: 403,
      message: Messages.onlyPlatformsConnectAccounts,
    });
  });
});
