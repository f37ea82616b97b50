import type { AddressInfo } from 'node:net';
import { isAppException, type ClientOptions, type Khoums } from '../../sdk/src';
import type { CreatedOrganization } from '../../src/organizations/organizations.service';
import { newTenant, startTestApp, TestApp } from '../helpers/app';
import { baseUrlOf, client, FaultyProxy, orderId, ProxiedRequest } from './helpers';

/**
 * SPEC.md "Retry rules" through a local proxy that drops connections, answers 5xx or delays
 * answers in front of the real service. Retries wait through an injected sleep that records the
 * backoff instead of waiting it.
 */

let t: TestApp;
let org: CreatedOrganization;
let proxy: FaultyProxy;
let proxied: string;
let methods: Record<string, string>;

beforeAll(async () => {
  t = await startTestApp({ SANDBOX_BANK_TIMEOUT_MS: '300' });
  org = await newTenant(t);
  proxy = new FaultyProxy(`http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`);
  proxied = await proxy.start();
  const list = await client(baseUrlOf(t), org.sandbox.publishableKey).paymentMethods.list();
  methods = Object.fromEntries(list.map((m) => [m.type, m.id]));
});
afterAll(async () => {
  await proxy.stop();
  await t.close();
});

/** A client through the proxy whose retries record their wait instead of waiting. */
function through(key = org.sandbox.secretKey, options: ClientOptions = {}): { k: Khoums; waits: number[] } {
  const waits: number[] = [];
  const k = client(proxied, key, {
    sleep: (ms) => {
      waits.push(ms);
      return Promise.resolve();
    },
    ...options,
  });
  return { k, waits };
}

const path = (p: string) => `/api/v1${p}`;
const on =
  (method: string, p: string) =>
  (r: ProxiedRequest): boolean =>
    r.method === method && new URL(r.url, 'http://x').pathname === path(p);

async function failure(call: Promise<unknown>) {
  try {
    await call;
  } catch (err) {
    if (isAppException(err)) return err;
    throw err;
  }
  throw new Error('the call succeeded');
}

describe('reads', () => {
  it('a read whose connection drops is retried after 1 s, then 2 s, and succeeds', async () => {
    const transactionId = orderId('read');
    await client(baseUrlOf(t), org.sandbox.secretKey).paymentRequests.create({ transactionId, amount: 100 });
    const route = `/payment-request/by-transaction/${transactionId}`;
    proxy.fault({ kind: 'drop-before' }, on('GET', route), 2);
    const { k, waits } = through();
    expect((await k.paymentRequests.getByTransactionId(transactionId)).amount).toBe(100);
    expect(waits).toEqual([1000, 2000]);
    expect(proxy.count('GET', path(route))).toBe(3);
  });

  it('a read gives up after three retries (1 s, 2 s, 4 s) with the last failure', async () => {
    const id = '00000000-0000-4000-8000-000000000001';
    proxy.fault({ kind: 'drop-before' }, on('GET', `/payment/${id}`), 4);
    const { k, waits } = through();
    expect((await failure(k.payments.get(id))).code).toBe('connection_error');
    expect(waits).toEqual([1000, 2000, 4000]);
    expect(proxy.count('GET', path(`/payment/${id}`))).toBe(4);
  });

  it('a read is retried after a time-out, a 500 and a 502', async () => {
    const { k, waits } = through(org.sandbox.secretKey, { timeout: 200 });
    const match = (r: ProxiedRequest) => r.method === 'GET' && r.url.startsWith(path('/payment?'));
    proxy.fault({ kind: 'delay', ms: 1000 }, match);
    proxy.fault({ kind: 'answer', status: 500, body: 'Internal server error' }, match);
    proxy.fault({ kind: 'answer', status: 502, body: 'Bad gateway' }, match);
    expect((await k.payments.list({ limit: 7 })).pagination.limit).toBe(7);
    expect(waits).toEqual([1000, 2000, 4000]);
    expect(proxy.requests.filter(match)).toHaveLength(4);
  });

  it.each([
    [400, 'Amount must be a positive number'],
    [401, 'Invalid API key'],
    [403, 'Unauthorized access'],
    [404, 'Payment not found'],
    [409, 'Payment request is already paid'],
    [422, '{"type":"validation","message":"Expected integer","errors":[{"message":"Expected integer"}]}'],
  ])('a %i is not retried', async (status, body) => {
    const id = `00000000-0000-4000-8000-0000000${status}00`;
    proxy.fault({ kind: 'answer', status, body }, on('GET', `/payment/${id}`));
    const { k, waits } = through();
    expect((await failure(k.payments.get(id))).status).toBe(status);
    expect(waits).toEqual([]);
    expect(proxy.count('GET', path(`/payment/${id}`))).toBe(1);
  });

  it('retry delays and the number of retries are configurable; an abort stops the retries', async () => {
    const id = '00000000-0000-4000-8000-000000000002';
    proxy.fault({ kind: 'drop-before' }, on('GET', `/payment/${id}`), 2);
    const { k, waits } = through(org.sandbox.secretKey, { maxRetries: 1, retryDelays: [5] });
    expect((await failure(k.payments.get(id))).code).toBe('connection_error');
    expect(waits).toEqual([5]);

    const controller = new AbortController();
    proxy.fault({ kind: 'drop-before' }, on('GET', `/payment/${id}`), 1);
    const aborting = client(proxied, org.sandbox.secretKey, {
      sleep: () => {
        controller.abort();
        return Promise.resolve();
      },
    });
    const before = proxy.count('GET', path(`/payment/${id}`));
    expect((await failure(aborting.payments.get(id, { signal: controller.signal }))).code).toBe(
      'abort_error',
    );
    expect(proxy.count('GET', path(`/payment/${id}`))).toBe(before + 1);
  });
});

describe('creating a payment request (SPEC.md retry rule 3)', () => {
  it('after a time-out, it looks the request up by transactionId and returns the one the service created', async () => {
    const transactionId = orderId('slow');
    proxy.fault({ kind: 'delay', ms: 1500 }, on('POST', '/payment-request'));
    const { k, waits } = through(org.sandbox.secretKey, { timeout: 300 });
    const created = await k.paymentRequests.create({ transactionId, amount: 1700 });
    expect(created).toMatchObject({ transactionId, amount: 1700, status: 'pending' });
    expect(waits).toEqual([1000]);
    expect(proxy.count('GET', path(`/payment-request/by-transaction/${transactionId}`))).toBe(1);
    const rows = await t.query('SELECT id FROM payment_requests WHERE transaction_id = $1', [transactionId]);
    expect(rows).toEqual([{ id: created.id }]);
  });

  it('when the request never reached the service, the look-up is 404 and it is created, with the same Idempotency-Key', async () => {
    const transactionId = orderId('lost');
    const posts = () =>
      proxy.requests.filter((r) => r.method === 'POST' && r.url === path('/payment-request'));
    const before = posts().length;
    let lost = true;
    proxy.fault(
      { kind: 'drop-before' },
      (r) => r.method === 'POST' && r.url === path('/payment-request') && lost && !(lost = false),
    );
    const { k } = through();
    const created = await k.paymentRequests.create({ transactionId, amount: 800 });
    expect(created).toMatchObject({ transactionId, amount: 800 });
    expect(proxy.count('GET', path(`/payment-request/by-transaction/${transactionId}`))).toBe(1);
    const mine = posts().slice(before);
    expect(mine).toHaveLength(2);
    expect(mine[0].idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
    expect(mine[1].idempotencyKey).toBe(mine[0].idempotencyKey);
  });

  it('when the answer is lost after the service created it, the retry finds it instead of failing on 409', async () => {
    const transactionId = orderId('dropped');
    proxy.fault({ kind: 'drop-after' }, on('POST', '/payment-request'));
    const { k } = through();
    const created = await k.paymentRequests.create({ transactionId, amount: 900 });
    expect(created).toMatchObject({ transactionId, amount: 900 });
    const rows = await t.query('SELECT id FROM payment_requests WHERE transaction_id = $1', [transactionId]);
    expect(rows).toEqual([{ id: created.id }]);
  });
});

describe('pay and other POSTs', () => {
  async function request(amount = 500) {
    return client(baseUrlOf(t), org.sandbox.secretKey).paymentRequests.create({
      transactionId: orderId(),
      amount,
    });
  }
  const payPosts = () => proxy.requests.filter((r) => r.method === 'POST' && r.url === path('/payment'));

  it('every POST carries an Idempotency-Key (the given one, or a new one per call); reads carry none', async () => {
    const { k } = through();
    const pr = await request();
    const before = payPosts().length;
    await k.payments.pay(
      { transactionId: pr.transactionId, phoneNumber: '22222222', paymentMethodId: methods.sedad },
      { idempotencyKey: `order-${pr.transactionId}-pay-1` },
    );
    expect(payPosts()[before].idempotencyKey).toBe(`order-${pr.transactionId}-pay-1`);
    await k.paymentMethods.list();
    expect(proxy.requests.at(-1)).toMatchObject({ method: 'GET', idempotencyKey: undefined });
  });

  it('a pay whose connection dropped before reaching the service is retried with the same Idempotency-Key', async () => {
    const pr = await request();
    const before = payPosts().length;
    proxy.fault({ kind: 'drop-before' }, on('POST', '/payment'));
    const { k, waits } = through(org.sandbox.publishableKey);
    const payment = await k.payments.pay({
      transactionId: pr.transactionId,
      phoneNumber: '22222222',
      paymentMethodId: methods.masrivi,
    });
    expect(payment.status).toBe('completed');
    expect(waits).toEqual([1000]);
    const mine = payPosts().slice(before);
    expect(mine).toHaveLength(2);
    expect(mine[1].idempotencyKey).toBe(mine[0].idempotencyKey);
  });

  it("a pay refused by the bank (502) is not resubmitted: the bank's answer is final for that attempt", async () => {
    const pr = await request();
    const before = payPosts().length;
    const { k, waits } = through(org.sandbox.publishableKey);
    const e = await failure(
      k.payments.pay({
        transactionId: pr.transactionId,
        phoneNumber: '22229001',
        paymentMethodId: methods.sedad,
      }),
    );
    expect(e.status).toBe(502);
    expect(waits).toEqual([]);
    expect(payPosts().length - before).toBe(1);
  });

  it('without idempotency a pay is never resubmitted, and no Idempotency-Key is sent', async () => {
    const pr = await request();
    const before = payPosts().length;
    proxy.fault({ kind: 'drop-before' }, on('POST', '/payment'));
    const { k, waits } = through(org.sandbox.publishableKey, { idempotency: false });
    const e = await failure(
      k.payments.pay({
        transactionId: pr.transactionId,
        phoneNumber: '22222222',
        paymentMethodId: methods.sedad,
      }),
    );
    expect(e.code).toBe('connection_error');
    expect(waits).toEqual([]);
    const mine = payPosts().slice(before);
    expect(mine).toHaveLength(1);
    expect(mine[0].idempotencyKey).toBeUndefined();
  });

  it('without idempotency other POSTs are not resubmitted either; a checkout session (safe to repeat) is', async () => {
    const { k, waits } = through(org.sandbox.secretKey, { idempotency: false });
    const endpoint = await client(baseUrlOf(t), org.sandbox.secretKey).webhookEndpoints.create({
      url: 'https://shop.example/hooks',
    });
    proxy.fault({ kind: 'drop-before' }, on('POST', `/webhook-endpoints/${endpoint.id}/rotate-secret`));
    expect((await failure(k.webhookEndpoints.rotateSecret(endpoint.id))).code).toBe('connection_error');
    expect(proxy.count('POST', path(`/webhook-endpoints/${endpoint.id}/rotate-secret`))).toBe(1);

    proxy.fault({ kind: 'drop-after' }, on('POST', '/checkout-session'));
    const transactionId = orderId('checkout');
    const session = await k.checkoutSessions.create({
      transactionId,
      amount: 1000,
      phoneNumber: '22123456',
      successUrl: 'https://shop.example/ok',
      cancelUrl: 'https://shop.example/ko',
      expiresInMinutes: 30,
    });
    expect(session.data.status).toBe('open');
    expect(waits).toEqual([1000]);
    const sessions = await t.query(
      `SELECT s.id FROM checkout_sessions s JOIN payment_requests r ON r.id = s.payment_request_id
       WHERE r.transaction_id = $1`,
      [transactionId],
    );
    expect(sessions).toEqual([{ id: session.data.id }]);
  });

  it('with idempotency a POST whose connection dropped is retried with the same key', async () => {
    const endpoint = await client(baseUrlOf(t), org.sandbox.secretKey).webhookEndpoints.create({
      url: 'https://shop.example/hooks',
    });
    const route = `/webhook-endpoints/${endpoint.id}/test`;
    proxy.fault({ kind: 'drop-before' }, on('POST', route));
    const { k } = through();
    expect((await k.webhookEndpoints.sendTestEvent(endpoint.id)).endpointId).toBe(endpoint.id);
    const sent = proxy.requests.filter((r) => r.method === 'POST' && r.url === path(route));
    expect(sent).toHaveLength(2);
    expect(sent[1].idempotencyKey).toBe(sent[0].idempotencyKey);
  });
});
