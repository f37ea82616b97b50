import { Messages } from '../../src/common/errors/messages';
import { CheckoutSessionsRepository } from '../../src/checkout/checkout-sessions.repository';
import { newTenant, startTestApp, TestApp, validationBody } from '../helpers/app';
import { createSession, eventsFor, makeOverdue, txId } from '../helpers/checkout';
import type { CreatedOrganization } from '../../src/organizations/organizations.service';

describe('checkout sessions API', () => {
  let t: TestApp;
  let org: CreatedOrganization;
  let sk: string;
  const post = (body: unknown, key = sk) =>
    t.http
      .post('/api/v1/checkout-session')
      .set('Authorization', key)
      .send(body as object);

  beforeAll(async () => {
    t = await startTestApp({ PUBLIC_URL: 'https://pay.example.mr' });
    org = await newTenant(t, 'Boutique Tevragh Zeina');
    sk = org.sandbox.secretKey;
  });
  afterAll(() => t.close());

  it('creates a payment request and an open session for a new transactionId, with checkoutUrl on PUBLIC_URL', async () => {
    const transactionId = txId();
    const res = await post({
      transactionId,
      amount: 1500,
      phoneNumber: '+222 22 12 34 56',
      successUrl: 'https://shop.example.mr/ok?order=1',
      cancelUrl: 'https://shop.example.mr/cancel',
      expiresInMinutes: 10,
    });
    expect(res.status).toBe(200);
    const { data, checkoutUrl } = res.body;
    expect(checkoutUrl).toBe(`https://pay.example.mr/checkout/${data.id}`);
    expect(data).toMatchObject({
      status: 'open',
      successUrl: 'https://shop.example.mr/ok?order=1',
      cancelUrl: 'https://shop.example.mr/cancel',
      environmentId: org.sandbox.environmentId,
      selectedConfigurationId: null,
      completedAt: null,
    });
    const minutes = (Date.parse(data.expiresAt) - Date.parse(data.createdAt)) / 60_000;
    expect(minutes).toBeCloseTo(10, 3);

    const pr = await t.http.get(`/api/v1/payment-request/${data.paymentRequestId}`).set('Authorization', sk);
    expect(pr.body.data).toMatchObject({
      transactionId,
      amount: 1500,
      phoneNumber: '22123456',
      status: 'pending',
    });
    const created = await t.query(
      `SELECT 1 FROM events WHERE kind = 'payment-request-created' AND data->>'id' = $1`,
      [data.paymentRequestId],
    );
    expect(created).toHaveLength(1);
  });

  it('defaults expiresInMinutes to 30 and the URLs to null', async () => {
    const { data } = await createSession(t, sk, { transactionId: txId(), amount: 100 });
    expect((Date.parse(data.expiresAt) - Date.parse(data.createdAt)) / 60_000).toBeCloseTo(30, 3);
    expect(data.successUrl).toBeNull();
    expect(data.cancelUrl).toBeNull();
  });

  it('uses the existing payment request of a known transactionId and ignores amount (rule 1)', async () => {
    const transactionId = txId();
    const pr = await t.http
      .post('/api/v1/payment-request')
      .set('Authorization', sk)
      .send({ transactionId, amount: 700 });
    const { data } = await createSession(t, sk, { transactionId, amount: 999999 });
    expect(data.paymentRequestId).toBe(pr.body.data.id);
    const again = await t.http.get(`/api/v1/payment-request/${pr.body.data.id}`).set('Authorization', sk);
    expect(again.body.data.amount).toBe(700);
  });

  it('uses an existing payment request by paymentRequestId, ignoring the other payment fields', async () => {
    const pr = await t.http
      .post('/api/v1/payment-request')
      .set('Authorization', sk)
      .send({ transactionId: txId(), amount: 50 });
    const { data } = await createSession(t, sk, {
      paymentRequestId: pr.body.data.id,
      transactionId: txId(),
      phoneNumber: 'nope',
    });
    expect(data.paymentRequestId).toBe(pr.body.data.id);
  });

  it('returns 400 when transactionId is new and amount is missing (rule 2)', async () => {
    const res = await post({ transactionId: txId() });
    expect(res.status).toBe(400);
    expect(res.text).toBe(Messages.amountRequiredForNewTransaction);
  });

  it('returns 400 for amounts out of range on a new transactionId', async () => {
    expect((await post({ transactionId: txId(), amount: 0 })).text).toBe(Messages.amountNotPositive);
    expect((await post({ transactionId: txId(), amount: -5 })).status).toBe(400);
    const tooLarge = await post({ transactionId: txId(), amount: 100_000_001 });
    expect([tooLarge.status, tooLarge.text]).toEqual([400, Messages.amountTooLarge]);
  });

  it('returns 400 when neither paymentRequestId nor transactionId is given', async () => {
    const res = await post({ amount: 100 });
    expect([res.status, res.text]).toEqual([400, Messages.eitherPaymentRequestOrTransaction]);
  });

  it('returns 400 Invalid phone number for a bad phone number', async () => {
    const res = await post({ transactionId: txId(), amount: 100, phoneNumber: '12345678' });
    expect([res.status, res.text]).toEqual([400, Messages.invalidPhoneNumber]);
  });

  it('returns the existing open session instead of a new one (rules 3 and 6)', async () => {
    const transactionId = txId();
    const first = await createSession(t, sk, { transactionId, amount: 100 });
    const second = await createSession(t, sk, { transactionId, amount: 100 });
    expect(second.data.id).toBe(first.data.id);
    const byId = await createSession(t, sk, { paymentRequestId: first.data.paymentRequestId });
    expect(byId.data.id).toBe(first.data.id);
  });

  it('gives concurrent creates for one transactionId one payment request and one session', async () => {
    const transactionId = txId();
    const results = await Promise.all(Array.from({ length: 6 }, () => post({ transactionId, amount: 300 })));
    expect(results.map((r) => r.status)).toEqual(Array(6).fill(200));
    expect(new Set(results.map((r) => r.body.data.id)).size).toBe(1);
    const requests = await t.query(`SELECT id FROM payment_requests WHERE transaction_id = $1`, [
      transactionId,
    ]);
    expect(requests).toHaveLength(1);
  });

  it('returns 409 when the payment request is already paid (rule 4)', async () => {
    const transactionId = txId();
    const { data } = await createSession(t, sk, { transactionId, amount: 100 });
    await t.query(`UPDATE payment_requests SET status = 'paid', paid_at = now() WHERE id = $1`, [
      data.paymentRequestId,
    ]);
    const res = await post({ transactionId });
    expect([res.status, res.text]).toEqual([409, Messages.paymentRequestAlreadyPaid]);
    const byId = await post({ paymentRequestId: data.paymentRequestId });
    expect(byId.status).toBe(409);
  });

  it('returns 403 for a publishable key (rule 5)', async () => {
    const res = await post({ transactionId: txId(), amount: 100 }, org.sandbox.publishableKey);
    expect([res.status, res.text]).toEqual([403, Messages.checkoutNeedsSecretKey]);
  });

  it('returns 404 for an unknown paymentRequestId, or one of the other environment', async () => {
    const res = await post({ paymentRequestId: '00000000-0000-4000-8000-000000000000' });
    expect([res.status, res.text]).toEqual([404, Messages.paymentRequestNotFound]);
    const live = await t.http
      .post('/api/v1/payment-request')
      .set('Authorization', org.production.secretKey)
      .send({ transactionId: txId(), amount: 5 });
    expect((await post({ paymentRequestId: live.body.data.id })).status).toBe(404);
  });

  it.each([
    [{ paymentRequestId: 'not-a-uuid' }, '/paymentRequestId'],
    [{ transactionId: txId(), amount: 100, expiresInMinutes: 4 }, '/expiresInMinutes'],
    [{ transactionId: txId(), amount: 100, expiresInMinutes: 1441 }, '/expiresInMinutes'],
    [{ transactionId: txId(), amount: 100, expiresInMinutes: 10.5 }, '/expiresInMinutes'],
    [{ transactionId: txId(), amount: '100' }, '/amount'],
    [{ transactionId: txId(), amount: 100, successUrl: 'ftp://x.example' }, '/successUrl'],
    [{ transactionId: txId(), amount: 100, cancelUrl: 'not a url' }, '/cancelUrl'],
    [{ transactionId: txId(), amount: 100, phoneNumber: 22123456 }, '/phoneNumber'],
    [{ transactionId: '', amount: 100 }, '/transactionId'],
  ])('returns 422 on the body for %j', async (body, property) => {
    const res = await post(body);
    expect(res.status).toBe(422);
    const v = validationBody(res);
    expect(v.on).toBe('body');
    expect(v.errors.map((e) => e.property)).toContain(property);
  });

  it('accepts expiresInMinutes at both bounds', async () => {
    expect((await post({ transactionId: txId(), amount: 1, expiresInMinutes: 5 })).status).toBe(200);
    expect((await post({ transactionId: txId(), amount: 1, expiresInMinutes: 1440 })).status).toBe(200);
  });

  describe('GET /checkout-session/:id', () => {
    it('returns the session and checkoutUrl', async () => {
      const { data } = await createSession(t, sk, { transactionId: txId(), amount: 100 });
      const res = await t.http.get(`/api/v1/checkout-session/${data.id}`).set('Authorization', sk);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ data, checkoutUrl: `https://pay.example.mr/checkout/${data.id}` });
    });

    it('returns 404 with a key of the other environment, and 422 for a non-UUID id', async () => {
      const { data } = await createSession(t, sk, { transactionId: txId(), amount: 100 });
      const other = await t.http
        .get(`/api/v1/checkout-session/${data.id}`)
        .set('Authorization', org.production.secretKey);
      expect([other.status, other.text]).toEqual([404, Messages.checkoutSessionNotFound]);
      const bad = await t.http.get('/api/v1/checkout-session/xyz').set('Authorization', sk);
      expect(bad.status).toBe(422);
      expect(validationBody(bad).on).toBe('params');
    });

    it('shows a session past expiresAt as expired before the job runs, recording the event once', async () => {
      const { data } = await createSession(t, sk, { transactionId: txId(), amount: 100 });
      await makeOverdue(t, data.id);
      const res = await t.http.get(`/api/v1/checkout-session/${data.id}`).set('Authorization', sk);
      expect(res.body.data.status).toBe('expired');
      await t.http.get(`/api/v1/checkout-session/${data.id}`).set('Authorization', sk);
      expect(await eventsFor(t, 'checkout-session-expired', data.id)).toHaveLength(1);
    });
  });

  describe('POST /checkout-session/:id/expire', () => {
    it('expires an open session and records checkout-session-expired', async () => {
      const { data } = await createSession(t, sk, { transactionId: txId(), amount: 100 });
      const res = await t.http.post(`/api/v1/checkout-session/${data.id}/expire`).set('Authorization', sk);
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ id: data.id, status: 'expired' });
      expect(res.body.checkoutUrl).toBeUndefined();
      expect(await eventsFor(t, 'checkout-session-expired', data.id)).toHaveLength(1);
    });

    it('returns 409 when the session is not open', async () => {
      const { data } = await createSession(t, sk, { transactionId: txId(), amount: 100 });
      await t.http.post(`/api/v1/checkout-session/${data.id}/expire`).set('Authorization', sk);
      const again = await t.http.post(`/api/v1/checkout-session/${data.id}/expire`).set('Authorization', sk);
      expect([again.status, again.text]).toEqual([409, Messages.checkoutSessionNotOpen]);
    });

    it('returns 404 with a key of the other environment and 403 with a publishable key', async () => {
      const { data } = await createSession(t, sk, { transactionId: txId(), amount: 100 });
      const other = await t.http
        .post(`/api/v1/checkout-session/${data.id}/expire`)
        .set('Authorization', org.production.secretKey);
      expect(other.status).toBe(404);
      const pk = await t.http
        .post(`/api/v1/checkout-session/${data.id}/expire`)
        .set('Authorization', org.sandbox.publishableKey);
      expect(pk.status).toBe(403);
    });

    it('lets a new session be created for the request once the old one expired', async () => {
      const transactionId = txId();
      const first = await createSession(t, sk, { transactionId, amount: 100 });
      await makeOverdue(t, first.data.id);
      const second = await createSession(t, sk, { transactionId });
      expect(second.data.id).not.toBe(first.data.id);
      const old = await t.http.get(`/api/v1/checkout-session/${first.data.id}`).set('Authorization', sk);
      expect(old.body.data.status).toBe('expired');
      expect(await eventsFor(t, 'checkout-session-expired', first.data.id)).toHaveLength(1);
    });
  });

  describe('public routes', () => {
    it('show amount, status, merchant name and transactionId without a key, and nothing secret', async () => {
      const transactionId = txId();
      const { data } = await createSession(t, sk, {
        transactionId,
        amount: 2500,
        successUrl: 'https://shop.example.mr/ok',
      });
      const res = await t.http.get(`/api/v1/checkout-session/public/${data.id}`);
      expect(res.status).toBe(200);
      // The hosted page's fields, and the rest of the session record (Moosyl's clients read it).
      expect(res.body.data).toEqual({
        ...data,
        id: data.id,
        status: 'open',
        amount: 2500,
        currency: 'MRU',
        transactionId,
        merchantName: 'Boutique Tevragh Zeina',
        livemode: false,
        expiresAt: data.expiresAt,
        methods: [
          { id: expect.any(String), type: 'bankily', name: 'Bankily', requiresPassCode: true },
          { id: expect.any(String), type: 'masrivi', name: 'Masrivi', requiresPassCode: false },
          { id: expect.any(String), type: 'sedad', name: 'Sedad', requiresPassCode: false },
        ],
      });
      const methods = await t.http
        .get('/api/v1/payment-methods')
        .set('Authorization', org.sandbox.publishableKey);
      expect(res.body.data.methods.map((m: { id: string }) => m.id)).toEqual(
        methods.body.data.map((m: { id: string }) => m.id),
      );
      expect(res.text).not.toContain(org.sandbox.secretKey);
      expect(res.text).not.toContain(org.sandbox.publishableKey);
      expect(res.text).not.toMatch(/"passCode"|secret|"(sk|pk)_/i);
    });

    it("show the payer's phone masked to its last two digits (view, switch-method, pay, payment-status); secret-key routes keep it whole", async () => {
      const transactionId = txId();
      const { data } = await createSession(t, sk, { transactionId, amount: 700, phoneNumber: '22123456' });
      const publicRoute = (path = '') => `/api/v1/checkout-session/public/${data.id}${path}`;
      const view = await t.http.get(publicRoute());
      expect(view.body.paymentRequest.phoneNumber).toBe('••••••56');
      expect(view.text).not.toContain('22123456');
      const sedad = view.body.data.methods.find((m: { type: string }) => m.type === 'sedad').id;
      const switched = await t.http.post(publicRoute('/switch-method')).send({ configurationId: sedad });
      expect(switched.body.paymentRequest.phoneNumber).toBe('••••••56');
      expect(switched.text).not.toContain('22123456');

      // Paid without a phone in the body: the request's, which the answer does not give away.
      const paid = await t.http.post(publicRoute('/pay')).send({ configurationId: sedad });
      expect(paid.status).toBe(200);
      expect(paid.body.data).toMatchObject({ status: 'completed', phoneNumber: '••••••56' });
      expect(paid.text).not.toContain('22123456');
      const after = await t.http.get(publicRoute());
      expect(after.body.latestPayment.phoneNumber).toBe('••••••56');
      expect(after.text).not.toContain('22123456');
      for (const path of ['/payment-status', `/payment-status?paymentId=${paid.body.paymentId}`])
        expect((await t.http.get(publicRoute(path))).text).not.toContain('22123456');

      // The merchant's secret key sees the number whole.
      const request = await t.http
        .get(`/api/v1/payment-request/${data.paymentRequestId}`)
        .set('Authorization', sk);
      expect(request.body.data.phoneNumber).toBe('22123456');
      const payment = await t.http.get(`/api/v1/payment/${paid.body.paymentId}`).set('Authorization', sk);
      expect(payment.body.data.phoneNumber).toBe('22123456');
    });

    it('payment-status gives the session status, no payment yet, and the redirect once completed', async () => {
      const transactionId = txId();
      const { data } = await createSession(t, sk, {
        transactionId,
        amount: 100,
        successUrl: 'https://shop.example.mr/ok?a=1',
      });
      const open = await t.http.get(`/api/v1/checkout-session/public/${data.id}/payment-status`);
      expect(open.body).toEqual({
        data: { status: 'open', paymentStatus: null },
        status: 'pending',
        claimExpiresAt: null,
        successUrl: null,
      });
      await t.app.get(CheckoutSessionsRepository).completeOpenSession(data.paymentRequestId);
      const done = await t.http.get(`/api/v1/checkout-session/public/${data.id}/payment-status`);
      expect(done.body.data.status).toBe('completed');
      const url = new URL(done.body.data.redirectUrl);
      expect(url.origin + url.pathname).toBe('https://shop.example.mr/ok');
      expect(Object.fromEntries(url.searchParams)).toEqual({ a: '1', session_id: data.id, transactionId });
    });

    it('return 404 for an unknown session and 422 for a non-UUID id', async () => {
      const res = await t.http.get('/api/v1/checkout-session/public/00000000-0000-4000-8000-000000000000');
      expect([res.status, res.text]).toEqual([404, Messages.checkoutSessionNotFound]);
      expect((await t.http.get('/api/v1/checkout-session/public/nope/payment-status')).status).toBe(422);
    });

    it('show an overdue session as expired', async () => {
      const { data } = await createSession(t, sk, { transactionId: txId(), amount: 100 });
      await makeOverdue(t, data.id);
      const res = await t.http.get(`/api/v1/checkout-session/public/${data.id}/payment-status`);
      expect(res.body.data.status).toBe('expired');
    });
  });

  describe('completeOpenSession (the settlement extension)', () => {
    const sessions = () => t.app.get(CheckoutSessionsRepository);

    it('completes the open session and records checkout-session-completed once', async () => {
      const { data } = await createSession(t, sk, { transactionId: txId(), amount: 100 });
      const [{ id: methodId }] = await t.query<{ id: string }>(
        'SELECT id FROM payment_methods WHERE environment_id = $1 ORDER BY position LIMIT 1',
        [org.sandbox.environmentId],
      );
      const done = await t.db.transaction(() =>
        sessions().completeOpenSession(data.paymentRequestId, methodId),
      );
      expect(done).toMatchObject({ id: data.id, status: 'completed', selectedConfigurationId: methodId });
      expect(done!.completedAt).not.toBeNull();
      expect(await t.db.transaction(() => sessions().completeOpenSession(data.paymentRequestId))).toBeNull();
      expect(await eventsFor(t, 'checkout-session-completed', data.id)).toHaveLength(1);
      const res = await t.http.post(`/api/v1/checkout-session/${data.id}/expire`).set('Authorization', sk);
      expect(res.status).toBe(409);
    });

    it('does nothing for a request without an open session', async () => {
      const pr = await t.http
        .post('/api/v1/payment-request')
        .set('Authorization', sk)
        .send({ transactionId: txId(), amount: 9 });
      expect(await sessions().completeOpenSession(pr.body.data.id)).toBeNull();
    });

    it('is rolled back with the caller transaction', async () => {
      const { data } = await createSession(t, sk, { transactionId: txId(), amount: 100 });
      await expect(
        t.db.transaction(async () => {
          await sessions().completeOpenSession(data.paymentRequestId);
          throw new Error('payment failed later in the transaction');
        }),
      ).rejects.toThrow('payment failed later');
      const res = await t.http.get(`/api/v1/checkout-session/${data.id}`).set('Authorization', sk);
      expect(res.body.data.status).toBe('open');
      expect(await eventsFor(t, 'checkout-session-completed', data.id)).toHaveLength(0);
    });
  });
});
