import request from 'supertest';
import { CheckoutPayments } from '../../src/checkout/checkout-payments';
import { CheckoutSessionsService } from '../../src/checkout/checkout-sessions.service';
import { ExpireCheckoutSessionsJob } from '../../src/checkout/expire-checkout-sessions.job';
import { Messages } from '../../src/common/errors/messages';
import { CHECKOUT_TEXTS } from '../../src/common/i18n/checkout-texts';
import type { CreatedOrganization } from '../../src/organizations/organizations.service';
import { newTenant, startTestApp, TestApp } from '../helpers/app';
import { createSession, eventsFor, makeOverdue, txId } from '../helpers/checkout';

/**
 * Checkout on top of payments: every route that pays a request completes its open session, the
 * session is rechecked under its lock when the page pays, a pending payment holds the session, and
 * every checkout route keeps to its environment.
 */
describe('checkout sessions and payments', () => {
  let t: TestApp;
  let org: CreatedOrganization;
  let sk: string;
  let pk: string;
  let methods: Record<'bankily' | 'masrivi' | 'sedad', string>;

  beforeAll(async () => {
    t = await startTestApp({ SANDBOX_BANK_TIMEOUT_MS: '300' });
    org = await newTenant(t, 'Librairie Nouadhibou');
    sk = org.sandbox.secretKey;
    pk = org.sandbox.publishableKey;
    const res = await t.http.get('/api/v1/payment-methods').set('Authorization', pk);
    methods = Object.fromEntries(
      (res.body.data as { type: string; id: string }[]).map((m) => [m.type, m.id]),
    ) as never;
  });
  afterAll(() => t.close());

  const session = async (id: string) =>
    (await t.http.get(`/api/v1/checkout-session/${id}`).set('Authorization', sk)).body.data;
  const publicStatus = async (id: string) =>
    (await t.http.get(`/api/v1/checkout-session/public/${id}/payment-status`)).body.data as Record<
      string,
      unknown
    >;
  const pay = (transactionId: string, phoneNumber: string, method: keyof typeof methods = 'masrivi') =>
    t.http
      .post('/api/v1/payment')
      .set('Authorization', pk)
      .send({
        transactionId,
        phoneNumber,
        paymentMethodId: methods[method],
        passCode: method === 'bankily' ? '1234' : '',
      });
  const paymentsOf = async (paymentRequestId: string) =>
    t.query<{ id: string; status: string }>('SELECT id, status FROM payments WHERE payment_request_id = $1', [
      paymentRequestId,
    ]);

  describe('a request paid by any route completes its open session', () => {
    it('pay (POST /payment): completed, the method recorded, checkout-session-completed once, the redirect on the status route', async () => {
      const transactionId = txId();
      const { data } = await createSession(t, sk, {
        transactionId,
        amount: 700,
        successUrl: 'https://shop.example.mr/ok',
      });
      const res = await pay(transactionId, '22123456', 'sedad');
      expect([res.status, res.body.data.status]).toEqual([200, 'completed']);
      const s = await session(data.id);
      expect(s).toMatchObject({ status: 'completed', selectedConfigurationId: methods.sedad });
      expect(s.completedAt).not.toBeNull();
      expect(await eventsFor(t, 'checkout-session-completed', data.id)).toHaveLength(1);
      // The event carries the session exactly as the API shows it (the event's JSON is built in SQL).
      const [event] = await t.query<{ data: unknown }>(
        `SELECT data FROM events WHERE kind = 'checkout-session-completed' AND data->>'id' = $1`,
        [data.id],
      );
      expect(event.data).toEqual(s);
      // ...and the payment, the request and the session changed in the one settling transaction.
      const [times] = await t.query<{ same: boolean }>(
        `SELECT p.completed_at = pr.paid_at AND pr.paid_at = s.completed_at AS same
           FROM payments p JOIN payment_requests pr ON pr.id = p.payment_request_id
           JOIN checkout_sessions s ON s.payment_request_id = pr.id
          WHERE s.id = $1 AND p.status = 'completed'`,
        [data.id],
      );
      expect(times.same).toBe(true);
      const status = await publicStatus(data.id);
      expect(status).toMatchObject({ status: 'completed', paymentStatus: 'completed' });
      const url = new URL(status.redirectUrl as string);
      expect(Object.fromEntries(url.searchParams)).toEqual({ session_id: data.id, transactionId });
    });

    it('a simulated transfer of a pending payment', async () => {
      const transactionId = txId();
      const { data } = await createSession(t, sk, { transactionId, amount: 700 });
      const pending = await pay(transactionId, '22129003');
      expect(pending.body.data.status).toBe('pending');
      expect(await publicStatus(data.id)).toEqual({ status: 'open', paymentStatus: 'pending' });
      const done = await t.http
        .post(`/api/v1/payment/${pending.body.data.id}/simulate-transfer`)
        .set('Authorization', sk)
        .send({});
      expect(done.status).toBe(200);
      expect((await session(data.id)).status).toBe('completed');
      expect(await eventsFor(t, 'checkout-session-completed', data.id)).toHaveLength(1);
    });

    it('reconciliation (refresh-status asks the bank, which now says completed)', async () => {
      const transactionId = txId();
      const { data } = await createSession(t, sk, { transactionId, amount: 700 });
      const pending = await pay(transactionId, '22129003');
      // The sandbox bank answers by phone number: from now on it reports the charge completed.
      await t.query(`UPDATE payments SET phone_number = '22123456' WHERE id = $1`, [pending.body.data.id]);
      const res = await t.http
        .patch(`/api/v1/payment-request/${transactionId}/refresh-status`)
        .set('Authorization', sk);
      expect([res.status, res.body.data.status]).toEqual([200, 'paid']);
      expect((await session(data.id)).status).toBe('completed');
      expect(await eventsFor(t, 'checkout-session-completed', data.id)).toHaveLength(1);
    });

    it('a failed payment leaves the session open to retry', async () => {
      const transactionId = txId();
      const { data } = await createSession(t, sk, { transactionId, amount: 700 });
      const res = await pay(transactionId, '22129001');
      expect([res.status, res.text]).toEqual([502, Messages.bankFailure]);
      expect(await publicStatus(data.id)).toEqual({ status: 'open', paymentStatus: 'failed' });
      expect(await eventsFor(t, 'checkout-session-completed', data.id)).toHaveLength(0);
    });
  });

  describe('paying from the hosted page', () => {
    it('refuses with 409 Checkout session is not open when the session expired after the page was shown, and records no payment', async () => {
      const { data } = await createSession(t, sk, { transactionId: txId(), amount: 700 });
      const shown = await t.app.get(CheckoutSessionsService).forPage(data.id);
      await makeOverdue(t, data.id);
      await expect(
        t.app
          .get(CheckoutPayments)
          .pay(shown, { paymentMethodId: methods.masrivi, phoneNumber: '22123456', passCode: '' }),
      ).rejects.toMatchObject({ status: 409, message: Messages.checkoutSessionNotOpen });
      expect(await paymentsOf(data.paymentRequestId)).toEqual([]);
      expect((await session(data.id)).status).toBe('expired');
    });

    it('refuses a session cancelled after the page was shown', async () => {
      const { data } = await createSession(t, sk, { transactionId: txId(), amount: 700 });
      const sessions = t.app.get(CheckoutSessionsService);
      const shown = await sessions.forPage(data.id);
      await sessions.cancel(data.id);
      await expect(
        t.app
          .get(CheckoutPayments)
          .pay(shown, { paymentMethodId: methods.sedad, phoneNumber: '22123456', passCode: '' }),
      ).rejects.toMatchObject({ status: 409, message: Messages.checkoutSessionNotOpen });
      expect(await paymentsOf(data.paymentRequestId)).toEqual([]);
    });

    it('pays an open session through payments and records the chosen method', async () => {
      const { data } = await createSession(t, sk, { transactionId: txId(), amount: 700 });
      const shown = await t.app.get(CheckoutSessionsService).forPage(data.id);
      const result = await t.app
        .get(CheckoutPayments)
        .pay(shown, { paymentMethodId: methods.bankily, phoneNumber: '22123456', passCode: '4321' });
      expect(result.status).toBe('completed');
      expect(await session(data.id)).toMatchObject({
        status: 'completed',
        selectedConfigurationId: methods.bankily,
      });
      const [payment] = await paymentsOf(data.paymentRequestId);
      expect(payment).toEqual({ id: result.paymentId, status: 'completed' });
    });

    it('keeps the money rules of payments: Bankily without a pass code is 400, and the session stays open', async () => {
      const { data } = await createSession(t, sk, { transactionId: txId(), amount: 700 });
      const shown = await t.app.get(CheckoutSessionsService).forPage(data.id);
      await expect(
        t.app
          .get(CheckoutPayments)
          .pay(shown, { paymentMethodId: methods.bankily, phoneNumber: '22123456', passCode: '' }),
      ).rejects.toMatchObject({ status: 400, message: Messages.passCodeRequiredForBankily });
      expect((await session(data.id)).status).toBe('open');
    });
  });

  describe('a wrong Bankily pass code', () => {
    it('is its own message on the hosted page (the API answers its 502 as for any refusal), and the form stays to retry', async () => {
      const { data } = await createSession(t, sk, { transactionId: txId(), amount: 700 });
      const browser = request.agent(t.app.getHttpServer());
      const page = await browser.get(`/checkout/${data.id}?lang=fr`);
      const token = /name="_csrf" value="([^"]+)"/.exec(page.text)![1];
      const res = await browser
        .post(`/checkout/${data.id}/pay`)
        .type('form')
        .send({ _csrf: token, paymentMethodId: methods.bankily, phoneNumber: '22123456', passCode: '0000' });
      expect(res.status).toBe(502);
      expect(res.text).toContain(CHECKOUT_TEXTS.fr.wrongPassCode);
      expect(res.text).not.toContain(CHECKOUT_TEXTS.fr.bankFailure);
      expect(res.text).toContain('<form');
      expect((await session(data.id)).status).toBe('open');
      const [payment] = await paymentsOf(data.paymentRequestId);
      expect(payment.status).toBe('failed');

      const transactionId = txId();
      await createSession(t, sk, { transactionId, amount: 700 });
      const refused = await t.http.post('/api/v1/payment').set('Authorization', pk).send({
        transactionId,
        phoneNumber: '22123456',
        paymentMethodId: methods.bankily,
        passCode: '0000',
      });
      expect([refused.status, refused.text]).toEqual([502, Messages.bankFailure]);
    });
  });

  describe('a pending payment holds the session until its outcome', () => {
    it('is neither expired (at use time or by the job), cancelled nor expired by the merchant; once the payment fails it expires', async () => {
      const transactionId = txId();
      const { data } = await createSession(t, sk, { transactionId, amount: 700 });
      const pending = await pay(transactionId, '22129003');
      await makeOverdue(t, data.id);
      await t.app.get(ExpireCheckoutSessionsJob).run();
      expect((await session(data.id)).status).toBe('open');

      const expire = await t.http.post(`/api/v1/checkout-session/${data.id}/expire`).set('Authorization', sk);
      expect([expire.status, expire.text]).toEqual([409, Messages.paymentInProgress]);
      await expect(t.app.get(CheckoutSessionsService).cancel(data.id)).rejects.toMatchObject({
        status: 409,
        message: Messages.paymentInProgress,
      });
      const again = await createSession(t, sk, { transactionId });
      expect(again.data.id).toBe(data.id);

      await t.http
        .post(`/api/v1/payment/${pending.body.data.id}/simulate-transfer`)
        .set('Authorization', sk)
        .send({ outcome: 'failed' });
      expect((await session(data.id)).status).toBe('expired');
      expect(await eventsFor(t, 'checkout-session-expired', data.id)).toHaveLength(1);
    });

    it('the page shows the bank failure message and the form again once a pending payment fails', async () => {
      const transactionId = txId();
      const { data } = await createSession(t, sk, { transactionId, amount: 700 });
      const pending = await pay(transactionId, '22129003');
      expect((await t.http.get(`/checkout/${data.id}`)).text).toContain('data-state="pending"');
      await t.http
        .post(`/api/v1/payment/${pending.body.data.id}/simulate-transfer`)
        .set('Authorization', sk)
        .send({ outcome: 'failed' });
      const shown = await t.http.get(`/checkout/${data.id}`).set('accept-language', 'en');
      expect(shown.status).toBe(200);
      expect(shown.text).toContain(Messages.bankFailure);
      expect(shown.text).toContain('<form');
    });

    it('the pending page reloads itself every 5 s without JavaScript (a meta refresh inside noscript), and only then', async () => {
      const transactionId = txId();
      const { data } = await createSession(t, sk, { transactionId, amount: 700 });
      const open = (await t.http.get(`/checkout/${data.id}`)).text;
      expect(open).not.toContain('http-equiv="refresh"');
      await pay(transactionId, '22129003');
      const pending = (await t.http.get(`/checkout/${data.id}`)).text;
      expect(pending).toContain('data-state="pending"');
      expect(pending).toMatch(
        new RegExp(
          `<head>[\\s\\S]*<noscript><meta http-equiv="refresh" content="5; url=/checkout/${data.id}"></noscript>[\\s\\S]*</head>`,
        ),
      );
    });

    it('the page shows the pending state instead of the form, and Cancel answers 409 with it', async () => {
      const transactionId = txId();
      const { data } = await createSession(t, sk, { transactionId, amount: 700 });
      const browser = request.agent(t.app.getHttpServer());
      const page = await browser.get(`/checkout/${data.id}`);
      const token = /name="_csrf" value="([^"]+)"/.exec(page.text)![1];
      await pay(transactionId, '22129003');
      const shown = await browser.get(`/checkout/${data.id}`);
      expect(shown.text).toContain('data-state="pending"');
      expect(shown.text).not.toContain('<form');
      const cancel = await browser.post(`/checkout/${data.id}/cancel`).type('form').send({ _csrf: token });
      expect(cancel.status).toBe(409);
      expect(cancel.text).toContain('data-state="pending"');
      expect((await session(data.id)).status).toBe('open');
    });
  });

  describe('tenancy: every checkout route answers 404 Checkout session not found outside its environment', () => {
    it('for another organization and for the other environment of the same organization', async () => {
      const { data } = await createSession(t, sk, { transactionId: txId(), amount: 700 });
      const other = await newTenant(t, 'Autre Marchand');
      for (const key of [other.sandbox.secretKey, org.production.secretKey, other.production.secretKey]) {
        const get = await t.http.get(`/api/v1/checkout-session/${data.id}`).set('Authorization', key);
        expect([get.status, get.text]).toEqual([404, Messages.checkoutSessionNotFound]);
        const expire = await t.http
          .post(`/api/v1/checkout-session/${data.id}/expire`)
          .set('Authorization', key);
        expect([expire.status, expire.text]).toEqual([404, Messages.checkoutSessionNotFound]);
        const create = await t.http
          .post('/api/v1/checkout-session')
          .set('Authorization', key)
          .send({ paymentRequestId: data.paymentRequestId });
        expect([create.status, create.text]).toEqual([404, Messages.paymentRequestNotFound]);
      }
      expect((await session(data.id)).status).toBe('open');
    });

    it("pays with the session's own environment only: another environment's method is 404 Payment method not found", async () => {
      const { data } = await createSession(t, sk, { transactionId: txId(), amount: 700 });
      const prod = await t.http
        .get('/api/v1/payment-methods')
        .set('Authorization', org.production.publishableKey);
      const shown = await t.app.get(CheckoutSessionsService).forPage(data.id);
      await expect(
        t.app
          .get(CheckoutPayments)
          .pay(shown, { paymentMethodId: prod.body.data[1].id, phoneNumber: '22123456', passCode: '' }),
      ).rejects.toMatchObject({ status: 404, message: Messages.paymentMethodNotFound });
      expect((await session(data.id)).status).toBe('open');
    });
  });
});
