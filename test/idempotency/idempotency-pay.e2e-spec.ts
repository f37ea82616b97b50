import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { Messages } from '../../src/common/errors/messages';
import type { CreatedOrganization } from '../../src/organizations/organizations.service';
import { BanksService } from '../../src/payments/banks/banks.service';
import { BankSimulator, startBankSimulator } from '../../src/payments/banks/simulator/bank-simulator';
import { newTenant, startTestApp, TestApp, testDatabaseUrl } from '../helpers/app';
import { createSession, txId } from '../helpers/checkout';
import { expectText } from '../helpers/http';
import { waitFor } from '../helpers/poll';

/**
 * Pay with an Idempotency-Key never charges twice: a retry, also after a client
 * time-out and on another instance, gets the first request's payment in whatever state it reached
 * and never reaches the bank. The hosted page keys each rendered form to its checkout session. And
 * the pay-attempt limit: at most 5 failed payments per payment request in 15 minutes.
 */

const BANK_TIMEOUT_MS = 1500;
let a: TestApp;
let b: TestApp;
let sim: BankSimulator;
let org: CreatedOrganization;
let methods: Record<'bankily' | 'masrivi' | 'sedad', string>;
let liveMethods: Record<'bankily' | 'masrivi' | 'sedad', string>;
let charges: jest.SpyInstance[];

beforeAll(async () => {
  sim = await startBankSimulator();
  const env = {
    SANDBOX_BANK_TIMEOUT_MS: String(BANK_TIMEOUT_MS),
    BANK_TIMEOUT_MS: String(BANK_TIMEOUT_MS),
    BANK_MASRIVI_URL: sim.url,
  };
  [a, b] = await Promise.all([startTestApp(env), startTestApp(env, testDatabaseUrl())]);
  org = await newTenant(a);
  const methodsOf = async (key: string) =>
    Object.fromEntries(
      (
        (await a.http.get('/api/v1/payment-methods').set('Authorization', key)).body.data as {
          type: string;
          id: string;
        }[]
      ).map((m) => [m.type, m.id]),
    ) as never;
  methods = await methodsOf(org.sandbox.publishableKey);
  liveMethods = await methodsOf(org.production.publishableKey);
});
beforeEach(() => {
  // Every call that reaches the (sandbox) bank, on either instance.
  charges = [a, b].map((t) => jest.spyOn(t.app.get(BanksService), 'charge'));
});
afterEach(() => jest.restoreAllMocks());
afterAll(async () => {
  await Promise.all([a.close(), b.close()]);
  await sim.close();
});

const bankCalls = () => charges.reduce((n, spy) => n + spy.mock.calls.length, 0);

async function newRequest(amount = 1500): Promise<{ id: string; transactionId: string }> {
  const transactionId = txId('pay');
  const res = await a.http
    .post('/api/v1/payment-request')
    .set('Authorization', org.sandbox.secretKey)
    .send({ transactionId, amount })
    .expect(200);
  return { id: res.body.data.id, transactionId };
}

function pay(t: TestApp, key: string | undefined, body: Record<string, unknown>) {
  const req = t.http.post('/api/v1/payment').set('Authorization', org.sandbox.publishableKey);
  if (key) void req.set('Idempotency-Key', key);
  return req.send(body);
}

const paymentsOf = (paymentRequestId: string) =>
  a.query<{ id: string; status: string }>(
    'SELECT id, status FROM payments WHERE payment_request_id = $1 ORDER BY created_at',
    [paymentRequestId],
  );

describe('POST /payment with an Idempotency-Key', () => {
  it('replays a completed payment: the same answer, marked replayed, one charge', async () => {
    const pr = await newRequest();
    const key = randomUUID();
    const body = {
      transactionId: pr.transactionId,
      phoneNumber: '22222222',
      configurationId: methods.masrivi,
    };
    const first = await pay(a, key, body);
    expect(first.status).toBe(200);
    expect(first.body.data.status).toBe('completed');
    const again = await pay(b, key, body);
    expect({
      status: again.status,
      replayed: again.headers['idempotent-replayed'],
      text: again.text,
    }).toEqual({
      status: 200,
      replayed: 'true',
      text: first.text,
    });
    expect(bankCalls()).toBe(1);
    expect(await paymentsOf(pr.id)).toHaveLength(1);
  });

  it('answers a retry of a payment the bank holds as pending (9003) with it, then with it completed once transferred', async () => {
    const pr = await newRequest();
    const key = randomUUID();
    const body = { transactionId: pr.transactionId, phoneNumber: '22229003', configurationId: methods.sedad };
    const first = await pay(a, key, body).expect(200);
    expect(first.body.data.status).toBe('pending');

    const retry = await pay(b, key, body).expect(200);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.body.data).toEqual(first.body.data);

    await a.http
      .post(`/api/v1/payment/${first.body.data.id}/simulate-transfer`)
      .set('Authorization', org.sandbox.secretKey)
      .expect(200);
    const later = await pay(a, key, body).expect(200);
    expect(later.body.data).toMatchObject({ id: first.body.data.id, status: 'completed' });
    expect(bankCalls()).toBe(1);
    expect(await paymentsOf(pr.id)).toHaveLength(1);
  });

  it('answers retries while the first request still waits on a bank that never answers (9002), on both instances, with its pending payment; then with its 502; the bank is called once', async () => {
    const pr = await newRequest();
    const key = randomUUID();
    const body = {
      transactionId: pr.transactionId,
      phoneNumber: '33339002',
      configurationId: methods.masrivi,
    };
    const first = pay(a, key, body).then((r) => r); // the merchant's client gives up on this one
    await waitFor(async () => (await paymentsOf(pr.id)).length === 1, 'the payment', 5000);

    const retries = await Promise.all(Array.from({ length: 8 }, (_, i) => pay(i % 2 ? a : b, key, body)));
    const paymentId = (await paymentsOf(pr.id))[0].id;
    for (const r of retries) {
      expect({ status: r.status, replayed: r.headers['idempotent-replayed'] }).toEqual({
        status: 200,
        replayed: 'true',
      });
      expect(r.body.data).toMatchObject({ id: paymentId, status: 'pending' });
    }

    expectText(await first, 502, Messages.bankFailure);
    const after = await pay(b, key, body);
    expectText(after, 502, Messages.bankFailure);
    expect(after.headers['idempotent-replayed']).toBe('true');
    expect(bankCalls()).toBe(1);
    expect(await paymentsOf(pr.id)).toEqual([{ id: paymentId, status: 'failed' }]);
  });

  it('charges once when many first requests with one key race on two instances; each gets that payment', async () => {
    const pr = await newRequest();
    const key = randomUUID();
    const body = {
      transactionId: pr.transactionId,
      phoneNumber: '22222222',
      configurationId: methods.masrivi,
    };
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => pay(i % 2 ? a : b, key, body)));
    const [payment] = await paymentsOf(pr.id);
    expect(await paymentsOf(pr.id)).toHaveLength(1);
    expect(bankCalls()).toBe(1);
    for (const r of answers) {
      expect(r.status).toBe(200);
      expect(r.body.data.id).toBe(payment.id);
    }
    expect(answers.filter((r) => r.headers['idempotent-replayed'] === undefined)).toHaveLength(1);
  });

  it('is 400 when the key comes with another payment request or body, and the bank is not called', async () => {
    const pr = await newRequest();
    const other = await newRequest();
    const key = randomUUID();
    const body = {
      transactionId: pr.transactionId,
      phoneNumber: '22222222',
      configurationId: methods.masrivi,
    };
    await pay(a, key, body).expect(200);
    expectText(
      await pay(a, key, { ...body, transactionId: other.transactionId }),
      400,
      Messages.idempotencyKeyReused,
    );
    expectText(await pay(b, key, { ...body, phoneNumber: '33333333' }), 400, Messages.idempotencyKeyReused);
    expect(bankCalls()).toBe(1);
    expect(await paymentsOf(other.id)).toHaveLength(0);
  });

  it('records nothing for a pay refused before a payment was opened: the retry runs', async () => {
    const key = randomUUID();
    const transactionId = txId('later');
    const body = { transactionId, phoneNumber: '22222222', configurationId: methods.masrivi };
    expectText(await pay(a, key, body), 404, Messages.paymentRequestNotFound);
    await a.http
      .post('/api/v1/payment-request')
      .set('Authorization', org.sandbox.secretKey)
      .send({ transactionId, amount: 100 })
      .expect(200);
    const res = await pay(a, key, body).expect(200);
    expect(res.headers['idempotent-replayed']).toBeUndefined();
    expect(res.body.data.status).toBe('completed');
  });
});

describe('POST /payment with an Idempotency-Key in Production (the bank simulator over HTTP)', () => {
  beforeEach(() => sim.reset());

  async function liveRequest(): Promise<{ id: string; transactionId: string }> {
    const transactionId = txId('live');
    const res = await a.http
      .post('/api/v1/payment-request')
      .set('Authorization', org.production.secretKey)
      .send({ transactionId, amount: 2500 })
      .expect(200);
    return { id: res.body.data.id, transactionId };
  }

  const livePay = (t: TestApp, key: string, body: object) =>
    t.http
      .post('/api/v1/payment')
      .set('Authorization', org.production.publishableKey)
      .set('Idempotency-Key', key)
      .send(body);

  it('charges the bank once when the client gives up on a slow bank and retries on both instances', async () => {
    sim.setMode('slow', 600);
    const pr = await liveRequest();
    const key = randomUUID();
    const body = {
      transactionId: pr.transactionId,
      phoneNumber: '22222222',
      configurationId: liveMethods.masrivi,
    };
    const first = livePay(a, key, body).then((r) => r);
    await waitFor(async () => (await paymentsOf(pr.id)).length === 1, 'the payment', 5000);
    const retries = await Promise.all([livePay(a, key, body), livePay(b, key, body)]);
    for (const r of retries) expect(r.body.data).toMatchObject({ status: 'pending' });
    expect((await first).body.data.status).toBe('completed');
    const later = await livePay(b, key, body).expect(200);
    expect(later.body.data.status).toBe('completed');
    expect(sim.stats()).toMatchObject({ chargeRequests: 1, charges: 1 });
  });

  it('charges the bank once when it never answers: retries get the pending payment, then the 502', async () => {
    sim.setMode('hang');
    const pr = await liveRequest();
    const key = randomUUID();
    const body = {
      transactionId: pr.transactionId,
      phoneNumber: '22222222',
      configurationId: liveMethods.masrivi,
    };
    const first = livePay(a, key, body).then((r) => r);
    await waitFor(async () => (await paymentsOf(pr.id)).length === 1, 'the payment', 5000);
    expect((await livePay(b, key, body).expect(200)).body.data.status).toBe('pending');
    expectText(await first, 502, Messages.bankFailure);
    expectText(await livePay(b, key, body), 502, Messages.bankFailure);
    expect(sim.stats().chargeRequests).toBe(1);
  });
});

describe('the pay-attempt limit: 5 failed payments per payment request and payer phone in 15 minutes', () => {
  const declined = (transactionId: string) => ({
    transactionId,
    phoneNumber: '22229001',
    configurationId: methods.masrivi,
  });

  it('answers the 6th attempt from the phone 429 with Retry-After, before the bank; a replay is not an attempt; the window passes', async () => {
    const pr = await newRequest();
    const keys = Array.from({ length: 5 }, () => randomUUID());
    for (const key of keys)
      expectText(await pay(a, key, declined(pr.transactionId)), 502, Messages.bankFailure);

    const sixth = await pay(b, undefined, declined(pr.transactionId));
    expectText(sixth, 429, Messages.tooManyRequests);
    const retryAfter = Number(sixth.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(890);
    expect(retryAfter).toBeLessThanOrEqual(900);
    expect(bankCalls()).toBe(5);
    expect(await paymentsOf(pr.id)).toHaveLength(5);

    // A retry of an attempt already made is its answer, not a new attempt.
    expectText(await pay(a, keys[0], declined(pr.transactionId)), 502, Messages.bankFailure);

    // The oldest failure leaves the window: one attempt more is allowed.
    await a.query(`UPDATE payments SET updated_at = updated_at - interval '15 minutes' WHERE id = $1`, [
      (await paymentsOf(pr.id))[0].id,
    ]);
    expectText(await pay(a, undefined, declined(pr.transactionId)), 502, Messages.bankFailure);
    expect(bankCalls()).toBe(6);
    await pay(a, undefined, declined(pr.transactionId)).expect(429);
  });

  it("counts per payer phone: another phone's failures never lock the customer out", async () => {
    const pr = await newRequest();
    for (let i = 0; i < 5; i++) await pay(a, undefined, declined(pr.transactionId)).expect(502);
    await pay(b, undefined, declined(pr.transactionId)).expect(429);
    // The same phone written another way is the same phone.
    await pay(a, undefined, { ...declined(pr.transactionId), phoneNumber: '+222 2222 9001' }).expect(429);
    const customer = await pay(b, undefined, { ...declined(pr.transactionId), phoneNumber: '22222222' });
    expect(customer.status).toBe(200);
    expect(customer.body.data.status).toBe('completed');
  });

  it('counts per payment request: another request of the merchant pays', async () => {
    const pr = await newRequest();
    for (let i = 0; i < 5; i++) await pay(a, undefined, declined(pr.transactionId)).expect(502);
    await pay(a, undefined, declined(pr.transactionId)).expect(429);
    const other = await newRequest();
    await pay(a, undefined, { ...declined(other.transactionId), phoneNumber: '22222222' }).expect(200);
  });
});

describe('the hosted page', () => {
  const formOf = (html: string) => ({
    _csrf: /name="_csrf" value="([^"]+)"/.exec(html)![1],
    idempotencyKey: /name="idempotencyKey" value="([^"]+)"/.exec(html)![1],
  });

  async function openPage(t: TestApp, lang = 'en') {
    const transactionId = txId('page');
    const { data } = await createSession(t, org.sandbox.secretKey, { transactionId, amount: 900 });
    const browser = request.agent(t.app.getHttpServer());
    const page = await browser.get(`/checkout/${data.id}?lang=${lang}`);
    expect(page.status).toBe(200);
    return { id: data.id, paymentRequestId: data.paymentRequestId, browser, form: formOf(page.text) };
  }

  it('gives each rendered form its own key', async () => {
    const { id, browser, form } = await openPage(a);
    const again = formOf((await browser.get(`/checkout/${id}`)).text);
    expect(again.idempotencyKey).not.toBe(form.idempotencyKey);
    expect(form.idempotencyKey.length).toBeGreaterThanOrEqual(16);
  });

  it('never pays twice for a resubmitted form: a declined payment is shown again, a new form makes a new attempt', async () => {
    const { id, paymentRequestId, browser, form } = await openPage(a);
    const fields = { ...form, paymentMethodId: methods.masrivi, phoneNumber: '22229001' };
    const first = await browser.post(`/checkout/${id}/pay`).type('form').send(fields);
    expect(first.status).toBe(502);
    expect(first.text).toContain(Messages.bankFailure);

    const resubmitted = await browser
      .post(`/checkout/${id}/pay`)
      .type('form')
      .send({ ...fields, phoneNumber: '22222222' });
    expect(resubmitted.status).toBe(502);
    expect(resubmitted.text).toContain(Messages.bankFailure);
    expect(await paymentsOf(paymentRequestId)).toHaveLength(1);
    expect(bankCalls()).toBe(1);

    const fresh = formOf(resubmitted.text);
    expect(fresh.idempotencyKey).not.toBe(form.idempotencyKey);
    const paid = await browser
      .post(`/checkout/${id}/pay`)
      .type('form')
      .send({ ...fresh, paymentMethodId: methods.masrivi, phoneNumber: '22222222' });
    expect(paid.status).toBe(303);
    expect(await paymentsOf(paymentRequestId)).toHaveLength(2);
  });

  it('charges once when a form is submitted twice at once (a double click), whichever instance gets each', async () => {
    const { data } = await createSession(a, org.sandbox.secretKey, {
      transactionId: txId('click'),
      amount: 900,
    });
    const browser = request.agent(a.app.getHttpServer());
    const page = await browser.get(`/checkout/${data.id}?lang=en`);
    const setCookies: string[] = [page.headers['set-cookie'] ?? []].flat();
    const cookies = setCookies.map((c) => c.split(';')[0]).join('; ');
    // Declined at once: without the form's key the second submission would be a second attempt.
    const fields = { ...formOf(page.text), paymentMethodId: methods.sedad, phoneNumber: '22229001' };
    const answers = await Promise.all([
      browser.post(`/checkout/${data.id}/pay`).type('form').send(fields),
      b.http.post(`/checkout/${data.id}/pay?lang=en`).set('cookie', cookies).type('form').send(fields),
    ]);
    for (const r of answers) {
      // The first attempt's outcome (declined), or its payment still with the bank.
      expect([200, 409, 502]).toContain(r.status);
      if (r.status === 502) expect(r.text).toContain(Messages.bankFailure);
      else expect(r.text).toContain('data-state="pending"');
    }
    expect(await paymentsOf(data.paymentRequestId)).toHaveLength(1);
    expect(bankCalls()).toBe(1);
  });

  it('keys a form to its checkout session: the same key on another session is another payment', async () => {
    const one = await openPage(a);
    const two = await openPage(a);
    const key = one.form.idempotencyKey;
    await one.browser
      .post(`/checkout/${one.id}/pay`)
      .type('form')
      .send({ ...one.form, paymentMethodId: methods.masrivi, phoneNumber: '22222222' })
      .expect(303);
    await two.browser
      .post(`/checkout/${two.id}/pay`)
      .type('form')
      .send({ ...two.form, idempotencyKey: key, paymentMethodId: methods.masrivi, phoneNumber: '22222222' })
      .expect(303);
    expect(await paymentsOf(one.paymentRequestId)).toHaveLength(1);
    expect(await paymentsOf(two.paymentRequestId)).toHaveLength(1);
  });

  it("keys its forms apart from the merchant's server: a key the page's form used first is still free for the secret key", async () => {
    const { id, browser, form } = await openPage(a);
    // The form's key is a field anyone can set.
    const key = randomUUID();
    await browser
      .post(`/checkout/${id}/pay`)
      .type('form')
      .send({ ...form, idempotencyKey: key, paymentMethodId: methods.masrivi, phoneNumber: '22222222' })
      .expect(303);
    const transactionId = txId('after-page');
    const mine = await a.http
      .post('/api/v1/payment-request')
      .set('Authorization', org.sandbox.secretKey)
      .set('Idempotency-Key', key)
      .send({ transactionId, amount: 700 });
    expect(mine.status).toBe(200);
    expect(mine.headers['idempotent-replayed']).toBeUndefined();
    expect(mine.body.data.transactionId).toBe(transactionId);
  });

  it('shows the pay-attempt limit in the customer language (429, Retry-After) before calling the bank', async () => {
    const { id, paymentRequestId, browser } = await openPage(a);
    for (let i = 0; i < 5; i++) {
      const form = formOf((await browser.get(`/checkout/${id}?lang=en`)).text);
      await browser
        .post(`/checkout/${id}/pay`)
        .type('form')
        .send({ ...form, paymentMethodId: methods.masrivi, phoneNumber: '22229001' })
        .expect(502);
    }
    const expected = {
      en: 'Too many payment attempts failed. Please try again in a few minutes.',
      fr: 'Trop de tentatives de paiement ont échoué. Veuillez réessayer dans quelques minutes.',
      ar: 'فشلت محاولات دفع كثيرة. يرجى المحاولة مرة أخرى بعد بضع دقائق.',
    };
    for (const [lang, text] of Object.entries(expected)) {
      const form = formOf((await browser.get(`/checkout/${id}?lang=${lang}`)).text);
      const sixth = await browser
        .post(`/checkout/${id}/pay`)
        .type('form')
        .send({ ...form, paymentMethodId: methods.masrivi, phoneNumber: '22229001' });
      expect(sixth.status).toBe(429);
      expect(Number(sixth.headers['retry-after'])).toBeGreaterThan(0);
      expect(sixth.headers['content-type']).toMatch(/^text\/html/);
      expect(sixth.text).toContain(text);
      expect(sixth.text).toContain('<form');
    }
    expect(await paymentsOf(paymentRequestId)).toHaveLength(5);
    expect(bankCalls()).toBe(5);
    // Another phone (the customer's own) still pays.
    const form = formOf((await browser.get(`/checkout/${id}?lang=en`)).text);
    await browser
      .post(`/checkout/${id}/pay`)
      .type('form')
      .send({ ...form, paymentMethodId: methods.masrivi, phoneNumber: '22222222' })
      .expect(303);
  });
});
