import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { Messages } from '../../src/common/errors/messages';
import type { CreatedOrganization } from '../../src/organizations/organizations.service';
import { MOOSYL_MODELS } from '../fixtures/moosyl-models';
import { newTenant, startTestApp, TestApp } from '../helpers/app';
import { createCustomer, createPrice, createProduct } from '../helpers/billing';
import { createSession, makeOverdue, txId } from '../helpers/checkout';
import { DASHBOARD_ENV, DashboardBrowser, unescapeHtml } from '../helpers/dashboard';
import { expectText } from '../helpers/http';

/**
 * Moosyl's generated clients (Python, TypeScript, Dart, Java) against Khoums with only the base
 * URL changed (docs/moosyl.md): every addition beside SPEC's shapes, each answer read through the
 * model Moosyl's document declares for it, and the public checkout JSON API.
 */

let t: TestApp;
let org: CreatedOrganization;
let other: CreatedOrganization;
let sk: string;
let pk: string;
let methods: Record<'bankily' | 'masrivi' | 'sedad', string>;

const ajv = new Ajv({ strict: false, allErrors: true });
addFormats(ajv);

/** Asserts that `body` is what Moosyl's client reads as `model`. */
function expectMoosyl(model: keyof typeof MOOSYL_MODELS, body: unknown): void {
  const validate = ajv.compile(MOOSYL_MODELS[model]);
  const ok = validate(body);
  expect({ model, errors: ok ? [] : validate.errors }).toEqual({ model, errors: [] });
}

beforeAll(async () => {
  t = await startTestApp({ ...DASHBOARD_ENV, SANDBOX_BANK_TIMEOUT_MS: '300' });
  org = await newTenant(t);
  other = await newTenant(t);
  sk = org.sandbox.secretKey;
  pk = org.sandbox.publishableKey;
  const res = await t.http.get('/api/v1/configuration').set('Authorization', sk).expect(200);
  methods = Object.fromEntries(
    (res.body.data as { type: string; id: string }[]).map((m) => [m.type, m.id]),
  ) as never;
});
afterAll(() => t.close());

const get = (path: string, key = sk) => t.http.get(`/api/v1${path}`).set('Authorization', key);
const post = (path: string, body: object = {}, key = sk) =>
  t.http.post(`/api/v1${path}`).set('Authorization', key).send(body);
const patch = (path: string, key = sk) => t.http.patch(`/api/v1${path}`).set('Authorization', key).send({});
const publicPost = (path: string, body: object = {}) =>
  t.http.post(`/api/v1/checkout-session/public${path}`).send(body);
const publicGet = (path: string) => t.http.get(`/api/v1/checkout-session/public${path}`);

/** Every string and number of a JSON body, as strings. */
function scalars(body: unknown): string[] {
  if (body === null || typeof body !== 'object') return [String(body)];
  return Object.values(body).flatMap(scalars);
}

async function newRequest(body: object = {}, key = sk) {
  const res = await post('/payment-request', { transactionId: txId(), amount: 1500, ...body }, key).expect(
    200,
  );
  return res.body.data as { id: string; transactionId: string; amount: number };
}

const payBody = (transactionId: string, phoneNumber = '22222222', method = methods.sedad) => ({
  transactionId,
  phoneNumber,
  configurationId: method,
});

async function session(body: object = {}, key = sk) {
  const created = await createSession(t, key, {
    transactionId: txId(),
    amount: 1200,
    successUrl: 'https://shop.example/ok',
    ...body,
  });
  expectMoosyl('checkoutSession.create', created);
  return created;
}

describe('payment request record', () => {
  it('shows totalAmount = amount and retryCount 0 when fresh, in the shape of paymentRequest.get', async () => {
    const res = await post('/payment-request', { transactionId: txId(), amount: 2300 }).expect(200);
    expect(res.body.data).toMatchObject({ amount: 2300, totalAmount: 2300, retryCount: 0 });
    expectMoosyl('paymentRequest.get', res.body);
    const byId = await get(`/payment-request/${res.body.data.id}`).expect(200);
    expectMoosyl('paymentRequest.get', byId.body);
    const byTx = await get(`/payment-request/by-transaction/${res.body.data.transactionId}`).expect(200);
    expect(byTx.body.data).toMatchObject({ totalAmount: 2300, retryCount: 0 });
  });

  it('counts the payments made after the first as retryCount', async () => {
    const pr = await newRequest();
    await post('/payment', payBody(pr.transactionId, '22229001'), pk).expect(502);
    expect((await get(`/payment-request/${pr.id}`).expect(200)).body.data.retryCount).toBe(0);
    await post('/payment', payBody(pr.transactionId, '22229001'), pk).expect(502);
    expect((await get(`/payment-request/${pr.id}`).expect(200)).body.data.retryCount).toBe(1);
    await post('/payment', payBody(pr.transactionId), pk).expect(200);
    const after = await get(`/payment-request/${pr.id}`).expect(200);
    expect(after.body.data).toMatchObject({ status: 'paid', retryCount: 2 });
    // The event of the request's payment shows the same count.
    const [event] = await t.query<{ data: { retryCount: number } }>(
      `SELECT data FROM events WHERE kind = 'payment-request-updated' AND data->>'id' = $1`,
      [pr.id],
    );
    expect(event.data.retryCount).toBe(2);
  });
});

describe('payment methods', () => {
  it('carry organizationId and isTestingMode (true in Sandbox, false in Production), in configuration.list', async () => {
    for (const key of [sk, pk]) {
      const res = await get('/configuration', key).expect(200);
      expectMoosyl('configuration.list', res.body);
      for (const m of res.body.data)
        expect(m).toMatchObject({ organizationId: org.organizationId, isTestingMode: true });
      const alias = await get('/payment-methods', key).expect(200);
      expect(alias.body).toEqual(res.body);
    }
    const prod = await get('/configuration', org.production.secretKey).expect(200);
    expect(prod.body.data.map((m: { isTestingMode: boolean }) => m.isTestingMode)).toEqual([
      false,
      false,
      false,
    ]);
  });

  it('GET /configuration/:id answers one method with createdAt and updatedAt, with either key', async () => {
    for (const key of [sk, pk]) {
      const res = await get(`/configuration/${methods.bankily}`, key).expect(200);
      expectMoosyl('configuration.get', res.body);
      expect(res.body.data).toMatchObject({
        id: methods.bankily,
        type: 'bankily',
        organizationId: org.organizationId,
        isTestingMode: true,
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      });
    }
  });

  it("GET /configuration/:id of another environment's or organization's method, or an unknown one, is 404", async () => {
    expectText(
      await get(`/configuration/${methods.bankily}`, org.production.secretKey),
      404,
      Messages.paymentMethodNotFound,
    );
    expectText(
      await get(`/configuration/${methods.bankily}`, other.sandbox.secretKey),
      404,
      Messages.paymentMethodNotFound,
    );
    expectText(
      await get('/configuration/00000000-0000-4000-8000-000000000000'),
      404,
      Messages.paymentMethodNotFound,
    );
  });
});

describe('payments', () => {
  it('POST /payment answers data with top-level id, status, referenceId and metadata null; the record has null passCode, metadata, lastSeenAt, claimExpiresAt', async () => {
    const pr = await newRequest();
    const res = await post(
      '/payment',
      { ...payBody(pr.transactionId, '22222222', methods.bankily), passCode: '1234' },
      pk,
    ).expect(200);
    expectMoosyl('postPayment.200', res.body);
    expect(res.body).toMatchObject({
      id: res.body.data.id,
      status: res.body.data.status,
      referenceId: res.body.data.referenceId,
      metadata: null,
    });
    expect(res.body.data).toMatchObject({
      passCode: null,
      metadata: null,
      lastSeenAt: null,
      claimExpiresAt: null,
    });
    const one = await get(`/payment/${res.body.data.id}`).expect(200);
    expectMoosyl('payment.get', one.body);
    // Looked for as a value: the digits may well appear inside an id (the transactionId has the pid).
    expect(scalars(one.body)).not.toContain('1234');
  });

  it('GET /payment/:id/status answers { data: { id, status, referenceId, claimExpiresAt }, ...the same }; 404 from another environment', async () => {
    const pr = await newRequest();
    const paid = await post('/payment', payBody(pr.transactionId), pk).expect(200);
    const res = await get(`/payment/${paid.body.data.id}/status`).expect(200);
    const status = {
      id: paid.body.data.id,
      status: 'completed',
      referenceId: paid.body.data.referenceId,
      claimExpiresAt: null,
    };
    expect(res.body).toEqual({ data: status, ...status });
    expectText(
      await get(`/payment/${paid.body.data.id}/status`, org.production.secretKey),
      404,
      Messages.paymentNotFound,
    );
    expectText(
      await get(`/payment/${paid.body.data.id}/status`, other.sandbox.secretKey),
      404,
      Messages.paymentNotFound,
    );
  });

  it('simulate-transfer says matched when it completes, unmatched when it fails, skipped when already so', async () => {
    const a = await newRequest();
    const pendingA = await post('/payment', payBody(a.transactionId, '22229003'), pk).expect(200);
    const matched = await post(`/payment/${pendingA.body.data.id}/simulate-transfer`).expect(200);
    expect(matched.body).toMatchObject({ outcome: 'matched', data: { status: 'completed' } });
    const again = await post(`/payment/${pendingA.body.data.id}/simulate-transfer`).expect(200);
    expect(again.body).toMatchObject({ outcome: 'skipped', data: { status: 'completed' } });

    const b = await newRequest();
    const pendingB = await post('/payment', payBody(b.transactionId, '22229003'), pk).expect(200);
    const unmatched = await post(`/payment/${pendingB.body.data.id}/simulate-transfer`, {
      outcome: 'failed',
    }).expect(200);
    expect(unmatched.body).toMatchObject({ outcome: 'unmatched', data: { status: 'failed' } });
  });

  it('refresh-status answers bankingApiResponses: [] with nothing pending, one item per pending payment asked', async () => {
    const idle = await newRequest();
    const none = await patch(`/payment-request/${idle.transactionId}/refresh-status`).expect(200);
    expect(none.body.bankingApiResponses).toEqual([]);
    expectMoosyl('paymentRequest.refreshStatus', none.body);

    const pr = await newRequest();
    await post('/payment', payBody(pr.transactionId, '22229003', methods.masrivi), pk).expect(200);
    const res = await patch(`/payment-request/${pr.transactionId}/refresh-status`).expect(200);
    expectMoosyl('paymentRequest.refreshStatus', res.body);
    expect(res.body.bankingApiResponses).toEqual([
      {
        transactionId: pr.transactionId,
        configurationId: methods.masrivi,
        configurationType: 'masrivi',
        outcome: 'pending',
        body: expect.any(String),
      },
    ]);
    const body = res.body.bankingApiResponses[0].body as string;
    expect(body.length).toBeLessThanOrEqual(2048);
    expect(JSON.parse(body)).toMatchObject({ status: 'pending' });
  });
});

describe('archive', () => {
  it('PATCH /products/:id/archive and /prices/:id/archive answer success: true beside data', async () => {
    const product = await createProduct(t, sk);
    const price = await createPrice(t, sk, product.id);
    const p = await patch(`/prices/${price.id}/archive`).expect(200);
    expect(p.body).toMatchObject({ success: true, data: { id: price.id } });
    expectMoosyl('success', p.body);
    expectMoosyl('price.get', p.body);
    const pr = await patch(`/products/${product.id}/archive`).expect(200);
    expect(pr.body).toMatchObject({ success: true, data: { id: product.id } });
    expectMoosyl('success', pr.body);
  });
});

describe('organization', () => {
  it("GET /organization/:id answers the key's own organization as GET /organization, with phoneNumber '' and website null until set", async () => {
    const own = await get('/organization').expect(200);
    const res = await get(`/organization/${org.organizationId}`).expect(200);
    expect(res.body).toEqual(own.body);
    expect(res.body.data).toMatchObject({ id: org.organizationId, phoneNumber: '', website: null });
    expectMoosyl('organization.get', res.body);
  });

  it("another organization's id, or an unknown one, is 404; a publishable key is 403", async () => {
    expectText(await get(`/organization/${other.organizationId}`), 404, Messages.organizationNotFound);
    expectText(await get('/organization/not-an-id'), 404, Messages.organizationNotFound);
    expectText(await get(`/organization/${org.organizationId}`, pk), 403, Messages.unauthorizedAccess);
  });
});

describe('public contact', () => {
  it('the owner sets a support phone and website in the dashboard: in organization, the public view and the hosted page', async () => {
    const merchant = await newTenant(t, 'Contact Merchant');
    const browser = new DashboardBrowser(t);
    await browser.signIn(merchant.email, merchant.password);
    const team = await browser.get('/dashboard/team');
    expect(team.text).toContain('data-testid="public-contact"');

    const bad = await browser.post('/dashboard/team/public-contact', { phoneNumber: '123', website: '' });
    expect(bad.status).toBe(200);
    expect(unescapeHtml(bad.text)).toContain('Invalid number: 8 digits starting with 2, 3 or 4.');
    const badUrl = await browser.post('/dashboard/team/public-contact', {
      phoneNumber: '',
      website: 'ftp://x',
    });
    expect(unescapeHtml(badUrl.text)).toContain('Enter an absolute http or https URL.');
    expect((await get('/organization', merchant.sandbox.secretKey)).body.data).toMatchObject({
      phoneNumber: '',
      website: null,
    });

    const saved = await browser.post('/dashboard/team/public-contact', {
      phoneNumber: '+222 45 11 22 33',
      website: 'https://shop.example.mr',
    });
    expect({ status: saved.status, location: saved.headers.location }).toEqual({
      status: 303,
      location: '/dashboard/team?notice=publicContactSaved',
    });
    const contact = { phoneNumber: '45112233', website: 'https://shop.example.mr' };
    const org2 = await get(`/organization/${merchant.organizationId}`, merchant.production.secretKey).expect(
      200,
    );
    expect(org2.body.data).toMatchObject(contact);
    const s = await session({}, merchant.sandbox.secretKey);
    const view = await publicGet(`/${s.data.id}`).expect(200);
    expect(view.body.organization).toEqual({
      id: merchant.organizationId,
      name: 'Contact Merchant',
      ...contact,
    });
    const page = await t.http.get(`/checkout/${s.data.id}`).expect(200);
    expect(page.text).toContain('href="tel:+22245112233"');
    expect(page.text).toContain('href="https://shop.example.mr"');

    // Emptied: none again.
    await browser.get('/dashboard/team');
    await browser.post('/dashboard/team/public-contact', { phoneNumber: '', website: '' });
    expect((await get('/organization', merchant.sandbox.secretKey)).body.data).toMatchObject({
      phoneNumber: '',
      website: null,
    });
  });
});

describe('public session view', () => {
  it('adds organization, paymentRequest, configurations, environment and latestPayment beside data', async () => {
    const s = await session();
    const before = await publicGet(`/${s.data.id}`).expect(200);
    expectMoosyl('checkoutSession.get', before.body);
    expect(before.body.latestPayment).toBeUndefined();
    expect(before.body).toMatchObject({
      data: { ...s.data, amount: 1200, currency: 'MRU', livemode: false },
      organization: { id: org.organizationId, name: expect.any(String), phoneNumber: '', website: null },
      paymentRequest: { id: s.data.paymentRequestId, totalAmount: 1200, retryCount: 0 },
      environment: { type: 'sandbox' },
    });
    expect(before.body.configurations.map((m: { id: string }) => m.id)).toEqual([
      methods.bankily,
      methods.masrivi,
      methods.sedad,
    ]);

    const paid = await publicPost(`/${s.data.id}/pay`, {
      configurationId: methods.sedad,
      phoneNumber: '22229003',
    }).expect(200);
    const after = await publicGet(`/${s.data.id}`).expect(200);
    expectMoosyl('checkoutSession.get', after.body);
    expect(after.body.latestPayment).toEqual({
      id: paid.body.paymentId,
      amount: 1200,
      status: 'pending',
      referenceId: paid.body.referenceId,
      phoneNumber: '••••••03', // masked: the session's id is all this route asks for
      claimExpiresAt: null,
    });
    expect(after.body.data.selectedConfigurationId).toBe(methods.sedad);
  });

  it('shows environment production for a Production session', async () => {
    const s = await session({}, org.production.secretKey);
    const res = await publicGet(`/${s.data.id}`).expect(200);
    expect(res.body).toMatchObject({
      environment: { type: 'production' },
      data: { livemode: true },
    });
    expect(res.body.configurations.every((m: { isTestingMode: boolean }) => !m.isTestingMode)).toBe(true);
  });
});

describe('public payment-status', () => {
  it('is pending while open with no payment, then the payment status; successUrl once completed', async () => {
    const s = await session();
    const idle = await publicGet(`/${s.data.id}/payment-status`).expect(200);
    expect(idle.body).toMatchObject({
      status: 'pending',
      claimExpiresAt: null,
      successUrl: null,
      data: { status: 'open' },
    });

    const paid = await publicPost(`/${s.data.id}/pay`, {
      configurationId: methods.sedad,
      phoneNumber: '22222222',
    }).expect(200);
    const done = await publicGet(`/${s.data.id}/payment-status?paymentId=${paid.body.paymentId}`).expect(200);
    expect(done.body).toMatchObject({
      status: 'completed',
      claimExpiresAt: null,
      successUrl: 'https://shop.example/ok',
      data: { status: 'completed', paymentStatus: 'completed' },
    });
  });

  it("with no payment, a closed session's status; a paymentId not of this session is 404", async () => {
    const s = await session();
    await makeOverdue(t, s.data.id);
    const expired = await publicGet(`/${s.data.id}/payment-status`).expect(200);
    expect(expired.body).toMatchObject({ status: 'expired', successUrl: null });

    const a = await session();
    const b = await session();
    const paidB = await publicPost(`/${b.data.id}/pay`, {
      configurationId: methods.sedad,
      phoneNumber: '22229003',
    }).expect(200);
    expectText(
      await publicGet(`/${a.data.id}/payment-status?paymentId=${paidB.body.paymentId}`),
      404,
      Messages.paymentNotFound,
    );
    expectText(await publicGet(`/${a.data.id}/payment-status?paymentId=nope`), 404, Messages.paymentNotFound);
  });
});

describe('public pay', () => {
  it("pays with the body's phone or the request's, completes the session and answers the pay shape", async () => {
    const s = await session({ phoneNumber: '22222222' });
    const res = await publicPost(`/${s.data.id}/pay`, { paymentMethodId: methods.sedad }).expect(200);
    expectMoosyl('checkoutSession.pay.200', res.body);
    expect(res.body).toMatchObject({
      data: { id: res.body.paymentId, status: 'completed', phoneNumber: '••••••22', passCode: null },
      status: 'completed',
      paymentId: expect.any(String),
      referenceId: res.body.data.referenceId,
      provider: 'sedad',
      successUrl: 'https://shop.example/ok',
      instructions: null,
    });
    const sessionNow = await get(`/checkout-session/${s.data.id}`).expect(200);
    expect(sessionNow.body.data.status).toBe('completed');
    const [created] = await t.query(
      `SELECT count(*)::int AS n FROM events WHERE kind = 'payment-created' AND data->>'id' = $1`,
      [res.body.paymentId],
    );
    expect(created).toEqual({ n: 1 });
  });

  it('a pending payment answers status pending and successUrl null', async () => {
    const s = await session();
    const res = await publicPost(`/${s.data.id}/pay`, {
      configurationId: methods.masrivi,
      phoneNumber: '22229003',
    }).expect(200);
    expect(res.body).toMatchObject({
      status: 'pending',
      successUrl: null,
      provider: 'masrivi',
      data: { status: 'pending' },
    });
  });

  it("refuses with pay's statuses and messages", async () => {
    const s = await session();
    const id = s.data.id;
    expectText(
      await publicPost(`/${id}/pay`, { configurationId: methods.sedad }),
      400,
      Messages.phoneNumberRequired,
    );
    expectText(
      await publicPost(`/${id}/pay`, { configurationId: methods.sedad, phoneNumber: '123' }),
      400,
      Messages.invalidPhoneNumber,
    );
    expectText(
      await publicPost(`/${id}/pay`, { configurationId: methods.bankily, phoneNumber: '22222222' }),
      400,
      Messages.passCodeRequiredForBankily,
    );
    expectText(
      await publicPost(`/${id}/pay`, {
        configurationId: '00000000-0000-4000-8000-000000000000',
        phoneNumber: '22222222',
      }),
      404,
      Messages.paymentMethodNotFound,
    );
    const otherMethod = (await get('/configuration', other.sandbox.secretKey).expect(200)).body.data[2].id;
    expectText(
      await publicPost(`/${id}/pay`, { configurationId: otherMethod, phoneNumber: '22222222' }),
      404,
      Messages.paymentMethodNotFound,
    );
    expectText(
      await publicPost(`/${id}/pay`, { configurationId: methods.sedad, phoneNumber: '22229001' }),
      502,
      Messages.bankFailure,
    );
    await publicPost(`/${id}/pay`, { configurationId: methods.sedad, phoneNumber: '22229003' }).expect(200);
    expectText(
      await publicPost(`/${id}/pay`, { configurationId: methods.sedad, phoneNumber: '22222222' }),
      409,
      Messages.paymentInProgress,
    );
    expectText(
      await publicPost('/00000000-0000-4000-8000-000000000000/pay', {
        configurationId: methods.sedad,
        phoneNumber: '22222222',
      }),
      404,
      Messages.checkoutSessionNotFound,
    );
  });

  it('a session that is not open (completed, expired, cancelled) is 409 on pay, switch-method and simulate-transfer', async () => {
    const completed = await session();
    await publicPost(`/${completed.data.id}/pay`, {
      configurationId: methods.sedad,
      phoneNumber: '22222222',
    }).expect(200);
    const expired = await session();
    await makeOverdue(t, expired.data.id);
    const cancelled = await session();
    await t.query(`UPDATE checkout_sessions SET status = 'cancelled' WHERE id = $1`, [cancelled.data.id]);
    for (const s of [completed, expired, cancelled]) {
      expectText(
        await publicPost(`/${s.data.id}/pay`, { configurationId: methods.sedad, phoneNumber: '22222222' }),
        409,
        Messages.checkoutSessionNotOpen,
      );
      expectText(
        await publicPost(`/${s.data.id}/switch-method`, { configurationId: methods.sedad }),
        409,
        Messages.checkoutSessionNotOpen,
      );
      expectText(
        await publicPost(`/${s.data.id}/simulate-transfer`, {
          paymentId: '00000000-0000-4000-8000-000000000000',
        }),
        409,
        Messages.checkoutSessionNotOpen,
      );
    }
  });

  it('at most 5 failed payments per request and phone, then 429; another phone still pays', async () => {
    const s = await session();
    for (let i = 0; i < 5; i += 1)
      await publicPost(`/${s.data.id}/pay`, {
        configurationId: methods.sedad,
        phoneNumber: '22229001',
      }).expect(502);
    const limited = await publicPost(`/${s.data.id}/pay`, {
      configurationId: methods.sedad,
      phoneNumber: '22229001',
    });
    expectText(limited, 429, Messages.tooManyRequests);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    await publicPost(`/${s.data.id}/pay`, { configurationId: methods.sedad, phoneNumber: '22222222' }).expect(
      200,
    );
  });

  it("an Idempotency-Key retry gets the first payment; the key lives in the session's namespace", async () => {
    const s = await session();
    const body = { configurationId: methods.masrivi, phoneNumber: '22229003' };
    const first = await publicPost(`/${s.data.id}/pay`, body).set('Idempotency-Key', 'k-1').expect(200);
    const retry = await publicPost(`/${s.data.id}/pay`, body).set('Idempotency-Key', 'k-1').expect(200);
    expect(retry.body.paymentId).toBe(first.body.paymentId);
    expectText(
      await publicPost(`/${s.data.id}/pay`, { ...body, phoneNumber: '33333333' }).set(
        'Idempotency-Key',
        'k-1',
      ),
      400,
      Messages.idempotencyKeyReused,
    );
    // The merchant's server's namespace is another: the same key pays its own request.
    const pr = await newRequest();
    await post('/payment', payBody(pr.transactionId), sk).set('Idempotency-Key', 'k-1').expect(200);
    const [{ n }] = await t.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM payments p JOIN checkout_sessions s ON s.payment_request_id = p.payment_request_id WHERE s.id = $1`,
      [s.data.id],
    );
    expect(n).toBe(1);
  });

  it('an empty, over-long or unprintable Idempotency-Key is 400 on every public route, and nothing runs', async () => {
    const s = await session();
    const routes: [string, object][] = [
      [`/${s.data.id}/pay`, { configurationId: methods.masrivi, phoneNumber: '22229003' }],
      [`/${s.data.id}/switch-method`, { configurationId: methods.sedad }],
      [`/${s.data.id}/simulate-transfer`, { paymentId: '00000000-0000-4000-8000-000000000000' }],
    ];
    for (const [path, body] of routes) {
      for (const key of ['', 'k'.repeat(256), 'clé-é']) {
        expectText(
          await publicPost(path, body).set('Idempotency-Key', key),
          400,
          Messages.idempotencyKeyInvalid,
        );
      }
    }
    const [{ n }] = await t.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM payments p JOIN checkout_sessions s ON s.payment_request_id = p.payment_request_id WHERE s.id = $1`,
      [s.data.id],
    );
    expect(n).toBe(0);
    // A key of 255 printable characters is accepted.
    await publicPost(`/${s.data.id}/pay`, routes[0][1]).set('Idempotency-Key', 'k'.repeat(255)).expect(200);
  });
});

describe('public switch-method', () => {
  it('records the chosen method and answers the session view', async () => {
    const s = await session();
    const res = await publicPost(`/${s.data.id}/switch-method`, { configurationId: methods.masrivi }).expect(
      200,
    );
    expectMoosyl('checkoutSession.switchMethod', res.body);
    expect(res.body.data.selectedConfigurationId).toBe(methods.masrivi);
    expectText(
      await publicPost(`/${s.data.id}/switch-method`, {
        configurationId: '00000000-0000-4000-8000-000000000000',
      }),
      404,
      Messages.paymentMethodNotFound,
    );
    expectText(
      await publicPost('/00000000-0000-4000-8000-000000000000/switch-method', {
        configurationId: methods.sedad,
      }),
      404,
      Messages.checkoutSessionNotFound,
    );
  });

  it('is 409 while the newest payment is pending, and never cancels it', async () => {
    const s = await session();
    const paid = await publicPost(`/${s.data.id}/pay`, {
      configurationId: methods.sedad,
      phoneNumber: '22229003',
    }).expect(200);
    expectText(
      await publicPost(`/${s.data.id}/switch-method`, { configurationId: methods.masrivi }),
      409,
      Messages.paymentInProgress,
    );
    const payment = await get(`/payment/${paid.body.paymentId}`).expect(200);
    expect(payment.body.data.status).toBe('pending');
    const view = await publicGet(`/${s.data.id}`).expect(200);
    expect(view.body.data.selectedConfigurationId).toBe(methods.sedad);
  });
});

describe('public simulate-transfer', () => {
  it('Sandbox: completes a pending payment of the session (and the session), answering like payment-status', async () => {
    const s = await session();
    const paid = await publicPost(`/${s.data.id}/pay`, {
      configurationId: methods.sedad,
      phoneNumber: '22229003',
    }).expect(200);
    const res = await publicPost(`/${s.data.id}/simulate-transfer`, {
      paymentId: paid.body.paymentId,
    }).expect(200);
    expect(res.body).toMatchObject({
      status: 'completed',
      successUrl: 'https://shop.example/ok',
      claimExpiresAt: null,
      data: { status: 'completed', paymentStatus: 'completed' },
    });
    const [event] = await t.query(
      `SELECT count(*)::int AS n FROM events WHERE kind = 'checkout-session-completed' AND data->>'id' = $1`,
      [s.data.id],
    );
    expect(event).toEqual({ n: 1 });
  });

  it('a payment not of this session is 404; Production is 400', async () => {
    const a = await session();
    const b = await session();
    const paidB = await publicPost(`/${b.data.id}/pay`, {
      configurationId: methods.sedad,
      phoneNumber: '22229003',
    }).expect(200);
    expectText(
      await publicPost(`/${a.data.id}/simulate-transfer`, { paymentId: paidB.body.paymentId }),
      404,
      Messages.paymentNotFound,
    );
    const prod = await session({}, org.production.secretKey);
    expectText(
      await publicPost(`/${prod.data.id}/simulate-transfer`, { paymentId: paidB.body.paymentId }),
      400,
      Messages.simulatedTransfersSandboxOnly,
    );
  });
});

describe('the billing objects, as Moosyl reads them', () => {
  it('products, prices, customers, subscriptions and invoices read through their models', async () => {
    const product = await post('/products', { name: 'Moosyl plan', description: null }).expect(200);
    expectMoosyl('product.get', product.body);
    const price = await post('/prices', {
      productId: product.body.data.id,
      amount: 1500,
      interval: 'monthly',
    }).expect(200);
    expectMoosyl('price.get', price.body);
    expectMoosyl('product.getWithPrices', (await get(`/products/${product.body.data.id}`).expect(200)).body);
    expectMoosyl('product.list', (await get('/products').expect(200)).body);
    const customer = await post('/customers', { externalUserId: txId('user'), phone: '22123456' }).expect(
      200,
    );
    expectMoosyl('customer.get', customer.body);
    expectMoosyl('customer.list', (await get('/customers').expect(200)).body);
    const started = new Date(Date.now() - 40 * 86_400_000).toISOString();
    const sub = await post('/subscriptions', {
      customerId: customer.body.data.id,
      priceId: price.body.data.id,
      startedAt: started,
    }).expect(200);
    expectMoosyl('subscription.get', sub.body);
    expectMoosyl('subscription.get', (await get(`/subscriptions/${sub.body.data.id}`).expect(200)).body);
    expectMoosyl('subscription.list', (await get('/subscriptions').expect(200)).body);
    const invoices = await get(`/invoices?subscriptionId=${sub.body.data.id}`).expect(200);
    expect(invoices.body.data.length).toBeGreaterThan(0);
    expectMoosyl('invoice.list', invoices.body);
  });
});

describe('dates and paths', () => {
  it('trialEnd, startedAt and expiresAt take a date alone, as 00:00 UTC', async () => {
    const product = await createProduct(t, sk);
    const price = await createPrice(t, sk, product.id);
    const customer = await createCustomer(t, sk);
    const start = new Date(Date.now() - 3 * 86_400_000).toISOString().slice(0, 10);
    const end = new Date(Date.now() + 40 * 86_400_000).toISOString().slice(0, 10);
    const expires = new Date(Date.now() + 400 * 86_400_000).toISOString().slice(0, 10);
    const res = await post('/subscriptions', {
      customerId: customer.id,
      priceId: price.id,
      trial: true,
      trialEnd: end,
      startedAt: start,
      expiresAt: expires,
    }).expect(200);
    expect(res.body.data).toMatchObject({
      startedAt: `${start}T00:00:00.000Z`,
      trialEnd: `${end}T00:00:00.000Z`,
      expiresAt: `${expires}T00:00:00.000Z`,
    });
  });

  it('paths with a trailing slash are the same routes', async () => {
    const product = await createProduct(t, sk);
    const list = await get('/products/').expect(200);
    expect(list.body.data.map((p: { id: string }) => p.id)).toContain(product.id);
    const price = await post('/prices/', { productId: product.id, amount: 900, interval: 'monthly' }).expect(
      200,
    );
    expectMoosyl('price.get', price.body);
    await get('/customers/').expect(200);
    await get('/subscriptions/').expect(200);
    await get('/invoices/').expect(200);
    await get(`/configuration/${methods.sedad}/`).expect(200);
  });
});

describe("the hosted page's pay rules, through the JSON door", () => {
  const paymentsOf = (paymentRequestId: string) =>
    t.query<{ status: string }>('SELECT status FROM payments WHERE payment_request_id = $1', [
      paymentRequestId,
    ]);
  const payJson = (id: string, body: object) => publicPost(`/${id}/pay`, body);

  it('a session past its deadline or cancelled is 409 and records no payment', async () => {
    const expired = await session();
    await makeOverdue(t, expired.data.id);
    const cancelled = await session();
    await t.http
      .post(`/api/v1/checkout-session/${cancelled.data.id}/expire`)
      .set('Authorization', sk)
      .expect(200);
    for (const s of [expired, cancelled]) {
      expectText(
        await payJson(s.data.id, { configurationId: methods.sedad, phoneNumber: '22222222' }),
        409,
        Messages.checkoutSessionNotOpen,
      );
      expect(await paymentsOf(s.data.paymentRequestId)).toEqual([]);
    }
  });

  it('Bankily without a pass code is 400 and the session stays open; with one it pays and records the method', async () => {
    const s = await session();
    expectText(
      await payJson(s.data.id, { configurationId: methods.bankily, phoneNumber: '22222222' }),
      400,
      Messages.passCodeRequiredForBankily,
    );
    expect((await get(`/checkout-session/${s.data.id}`).expect(200)).body.data.status).toBe('open');
    await payJson(s.data.id, {
      configurationId: methods.bankily,
      phoneNumber: '22222222',
      passCode: '4321',
    }).expect(200);
    expect((await get(`/checkout-session/${s.data.id}`).expect(200)).body.data).toMatchObject({
      status: 'completed',
      selectedConfigurationId: methods.bankily,
    });
  });

  it('a pending payment holds the session: not expired past its deadline, and the hosted page waits with it', async () => {
    const s = await session();
    await payJson(s.data.id, { configurationId: methods.sedad, phoneNumber: '22229003' }).expect(200);
    await makeOverdue(t, s.data.id);
    const view = await publicGet(`/${s.data.id}`).expect(200);
    expect(view.body.data.status).toBe('open');
    expect(view.body.latestPayment.status).toBe('pending');
    const page = await t.http.get(`/checkout/${s.data.id}`).expect(200);
    expect(page.text).not.toContain('data-testid="cancel"');
  });

  it('concurrent pays of one session: one payment, the others 409, the session completes once', async () => {
    const s = await session();
    const answers = await Promise.all(
      ['22222222', '33333333', '44444444', '22223333'].map((phoneNumber) =>
        payJson(s.data.id, { configurationId: methods.sedad, phoneNumber }),
      ),
    );
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses.filter((x) => x === 200)).toHaveLength(1);
    for (const a of answers.filter((x) => x.status !== 200)) expect([409]).toContain(a.status);
    expect((await paymentsOf(s.data.paymentRequestId)).map((p) => p.status)).toEqual(['completed']);
    const [{ n }] = await t.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM events WHERE kind = 'checkout-session-completed' AND data->>'id' = $1`,
      [s.data.id],
    );
    expect(n).toBe(1);
  });
});
