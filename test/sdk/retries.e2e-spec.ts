import type { AddressInfo } from 'node:net';
import { Client } from 'pg';
import { isAppException, type ClientOptions, type Khoums } from '../../sdk/src';
import { Clock } from '../../src/common/clock';
import { Messages } from '../../src/common/errors/messages';
import type { CreatedOrganization } from '../../src/organizations/organizations.service';
import { BanksService } from '../../src/payments/banks/banks.service';
import { BankSimulator, startBankSimulator } from '../../src/payments/banks/simulator/bank-simulator';
import { newTenant, startTestApp, TestApp, testDatabaseUrl } from '../helpers/app';
import { waitFor } from '../helpers/poll';
import { baseUrlOf, client, Exchange, FaultyProxy, orderId, ProxiedRequest, tracingFetch } from './helpers';

/**
 * The client library's retry rules (sdk/README.md "Retries and idempotency") and the service's
 * idempotent retries, through a local proxy that drops connections, answers 5xx or delays answers
 * in front of the real service; 429 against the real rate limiter. Retries wait through an
 * injected sleep that records the backoff instead of waiting it.
 */

let t: TestApp;
let sim: BankSimulator;
let org: CreatedOrganization;
let proxy: FaultyProxy;
let proxied: string;
let methods: Record<string, string>;
let liveMethods: Record<string, string>;

beforeAll(async () => {
  // Production pays through the bank simulator, which counts every charge that reaches it.
  sim = await startBankSimulator();
  t = await startTestApp({
    SANDBOX_BANK_TIMEOUT_MS: '300',
    BANK_TIMEOUT_MS: '10000',
    BANK_MASRIVI_URL: sim.url,
  });
  org = await newTenant(t);
  proxy = new FaultyProxy(`http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`);
  proxied = await proxy.start();
  const methodsOf = async (key: string) =>
    Object.fromEntries((await client(baseUrlOf(t), key).paymentMethods.list()).map((m) => [m.type, m.id]));
  methods = await methodsOf(org.sandbox.publishableKey);
  liveMethods = await methodsOf(org.production.publishableKey);
});
afterAll(async () => {
  await proxy.stop();
  await t.close();
  await sim.close();
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
    // The time-out leaves room for a loaded machine: an attempt aborted before it reaches the proxy
    // would leave the delay to the next attempt and shift every fault by one.
    const { k, waits } = through(org.sandbox.secretKey, { timeout: 1500 });
    const match = (r: ProxiedRequest) => r.method === 'GET' && r.url.startsWith(path('/payment?'));
    proxy.fault({ kind: 'delay', ms: 5000 }, match);
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

describe('creating a payment request (after a time-out: look it up by transactionId, create it only on 404)', () => {
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

describe('idempotent retries: the service answers a retry with the first answer', () => {
  const posts = (p: string) => proxy.requests.filter((r) => r.method === 'POST' && r.url === path(p));
  const sk = () => client(baseUrlOf(t), org.sandbox.secretKey);

  it('a pay whose answer is lost after the service charged comes back, on the retry with the same key, as the same payment: one charge', async () => {
    const pr = await sk().paymentRequests.create({ transactionId: orderId('lost-pay'), amount: 600 });
    const charges = jest.spyOn(t.app.get(BanksService), 'charge');
    try {
      const before = posts('/payment').length;
      proxy.fault({ kind: 'drop-after' }, on('POST', '/payment'));
      const { k, waits } = through(org.sandbox.publishableKey);
      const payment = await k.payments.pay({
        transactionId: pr.transactionId,
        phoneNumber: '22222222',
        paymentMethodId: methods.sedad,
      });
      expect(payment).toMatchObject({ transactionId: pr.transactionId, status: 'completed' });
      expect(waits).toEqual([1000]);
      const [first, retry] = posts('/payment').slice(before);
      expect(retry.idempotencyKey).toBe(first.idempotencyKey);
      expect([first.answer, retry.answer]).toEqual([
        { status: 200, replayed: false },
        { status: 200, replayed: true },
      ]);
      expect(charges).toHaveBeenCalledTimes(1);
      expect(await t.query('SELECT id, status FROM payments WHERE payment_request_id = $1', [pr.id])).toEqual(
        [{ id: payment.id, status: 'completed' }],
      );
    } finally {
      charges.mockRestore();
    }
  });

  it('a pay the bank holds as pending, whose answer is lost, comes back pending on the retry: one charge at the Production bank', async () => {
    sim.reset();
    sim.setMode('pending');
    const live = client(baseUrlOf(t), org.production.secretKey);
    const pr = await live.paymentRequests.create({ transactionId: orderId('live'), amount: 800 });
    proxy.fault({ kind: 'drop-after' }, on('POST', '/payment'));
    const { k } = through(org.production.publishableKey);
    const payment = await k.payments.pay({
      transactionId: pr.transactionId,
      phoneNumber: '22222222',
      paymentMethodId: liveMethods.masrivi,
    });
    expect(payment.status).toBe('pending');
    expect(sim.stats()).toMatchObject({ chargeRequests: 1, charges: 1 });
    expect(sim.charge(payment.id)).toMatchObject({ amount: 800, status: 'pending' });
    sim.setMode('normal');
  });

  it('a pay that timed out while the bank still works gets the pending payment on the retry; the same key later gets it completed', async () => {
    sim.reset();
    // The Production bank charges at once and answers 1.5 s later.
    sim.setMode('slow', 1500);
    const live = client(baseUrlOf(t), org.production.secretKey);
    const pr = await live.paymentRequests.create({ transactionId: orderId('slow-live'), amount: 900 });
    const idempotencyKey = `pay-${pr.transactionId}`;
    const params = {
      transactionId: pr.transactionId,
      phoneNumber: '22222222',
      paymentMethodId: liveMethods.masrivi,
    };
    const { k, waits } = through(org.production.publishableKey, { timeout: 300 });
    const logged = t.logs.length;
    const pending = await k.payments.pay(params, { idempotencyKey });
    expect(pending).toMatchObject({ transactionId: pr.transactionId, status: 'pending' });
    expect(waits).toEqual([1000]);

    // Once the bank has answered, a retry with the caller's key gets the same payment, completed.
    await waitFor(
      async () => (await live.paymentRequests.get(pr.id)).status === 'paid',
      'the bank to answer',
    ).catch(async (err: Error) => {
      // Say what became of the payment (once: failed by another file's reconciliation pass).
      const rows = await t.query('SELECT status, failure_reason FROM payments WHERE id = $1', [pending.id]);
      const warnings = t.logs.slice(logged).filter((l) => (JSON.parse(l) as { level: number }).level >= 40);
      throw new Error(`${err.message}: payment ${JSON.stringify(rows)}, logged:\n${warnings.join('\n')}`);
    });
    const later = await k.payments.pay(params, { idempotencyKey });
    expect(later).toMatchObject({ id: pending.id, status: 'completed' });
    expect(sim.stats()).toMatchObject({ chargeRequests: 1, charges: 1 });
    expect(posts('/payment').filter((r) => r.idempotencyKey === idempotencyKey)).toHaveLength(3);
    sim.setMode('normal');
  });

  it('a create whose answer is lost is replayed rather than failing with 409: one customer, one subscription', async () => {
    const externalUserId = orderId('user');
    proxy.fault({ kind: 'drop-after' }, on('POST', '/customers'));
    const { k, waits } = through();
    const customer = await k.customers.create({ externalUserId, phone: '22123456' });
    expect(customer.externalUserId).toBe(externalUserId);
    expect(waits).toEqual([1000]);
    expect(
      posts('/customers')
        .slice(-2)
        .map((r) => r.answer),
    ).toEqual([
      { status: 200, replayed: false },
      { status: 200, replayed: true },
    ]);
    expect((await sk().customers.list({ externalUserId })).data).toEqual([customer]);

    // Without a key, the retry of a subscription's creation would subscribe the user twice.
    const product = await sk().products.create({ name: 'Plan' });
    const price = await sk().prices.create({ productId: product.id, amount: 1000, interval: 'monthly' });
    proxy.fault({ kind: 'drop-after' }, on('POST', '/subscriptions/by-external-user'));
    const subscription = await k.subscriptions.createByExternalUser({ externalUserId, priceId: price.id });
    const rows = await t.query('SELECT id FROM subscriptions WHERE customer_id = $1', [customer.id]);
    expect(rows).toEqual([{ id: subscription.id }]);
    expect((await sk().invoices.list({ subscriptionId: subscription.id })).pagination.total).toBe(1);
  });

  it('a POST met by 409 `A request with this idempotency key is in progress` is retried after a wait, and then gets the replay', async () => {
    const customer = await sk().customers.create({ externalUserId: orderId('user') });
    const product = await sk().products.create({ name: 'Plan' });
    const price = await sk().prices.create({ productId: product.id, amount: 1000, interval: 'monthly' });
    const subscription = await sk().subscriptions.create({ customerId: customer.id, priceId: price.id });

    // The test holds the subscription's row: the first pause runs (holding its key) but waits.
    const holder = new Client({ connectionString: testDatabaseUrl() });
    await holder.connect();
    await holder.query('BEGIN');
    await holder.query('SELECT 1 FROM subscriptions WHERE id = $1 FOR UPDATE', [subscription.id]);
    const route = `/subscriptions/${subscription.id}/pause`;
    const waits: number[] = [];
    const k = client(proxied, org.sandbox.secretKey, {
      timeout: 300,
      sleep: async (ms) => {
        waits.push(ms);
        if (waits.length < 2) return;
        // After the 409: the first request may finish now; the retry comes once it has.
        await holder.query('ROLLBACK');
        await waitFor(
          async () => (await sk().subscriptions.get(subscription.id)).status === 'paused',
          'the first pause to finish',
        );
      },
    });
    try {
      const paused = await k.subscriptions.pause(subscription.id);
      expect(paused).toMatchObject({ id: subscription.id, status: 'paused' });
    } finally {
      await holder.end();
    }
    expect(waits).toEqual([1000, 2000]);
    const sent = posts(route);
    expect(sent).toHaveLength(3);
    expect(new Set(sent.map((r) => r.idempotencyKey)).size).toBe(1);
    // The first answered after the client had given up (time-out); then 409; then the replay.
    expect(sent.map((r) => r.answer)).toEqual([
      { status: 200, replayed: false },
      { status: 409, replayed: false },
      { status: 200, replayed: true },
    ]);
    const pauses = await t.query(
      `SELECT count(*)::int AS n FROM events WHERE kind = 'subscription-updated'
          AND data->>'id' = $1 AND data->>'status' = 'paused'`,
      [subscription.id],
    );
    expect(pauses).toEqual([{ n: 1 }]);
  });

  it("a caller's key ties calls together across clients (a process that restarted): the second call gets the first one's answer", async () => {
    const externalUserId = orderId('user');
    const idempotencyKey = `signup-${externalUserId}`;
    const first = await through().k.customers.create({ externalUserId }, { idempotencyKey });
    const again = await through().k.customers.create({ externalUserId }, { idempotencyKey });
    expect(again).toEqual(first);
    expect(posts('/customers').slice(-2)).toEqual([
      expect.objectContaining({ idempotencyKey, answer: { status: 200, replayed: false } }),
      expect.objectContaining({ idempotencyKey, answer: { status: 200, replayed: true } }),
    ]);
  });

  it('the key with another body is 400 `Idempotency key reused with different parameters`, not retried', async () => {
    const idempotencyKey = `product-${orderId()}`;
    const { k, waits } = through();
    await k.products.create({ name: 'Gold' }, { idempotencyKey });
    const e = await failure(k.products.create({ name: 'Silver' }, { idempotencyKey }));
    expect({ status: e.status, message: e.message }).toEqual({
      status: 400,
      message: Messages.idempotencyKeyReused,
    });
    expect(waits).toEqual([]);
  });
});

describe('429 Too many requests (the real rate limiter, RATE_LIMIT_PER_KEY=1: bursts of 2)', () => {
  let limited: TestApp;
  let tenant: CreatedOrganization;
  let advance: (ms: number) => void;

  beforeAll(async () => {
    limited = await startTestApp({ RATE_LIMIT_PER_KEY: '1' });
    let now = Date.now();
    jest.spyOn(limited.app.get(Clock), 'now').mockImplementation(() => now);
    advance = (ms) => (now += ms);
    tenant = await newTenant(limited);
  });
  afterAll(() => limited.close());

  /** A client whose waits move the limiter's clock (`moves: false`: waits that let no time pass). */
  function limitedClient(options: ClientOptions & { moves?: boolean } = {}) {
    const waits: number[] = [];
    const exchanges: Exchange[] = [];
    const { moves = true, ...rest } = options;
    const k = client(baseUrlOf(limited), tenant.sandbox.secretKey, {
      fetch: tracingFetch(exchanges),
      sleep: (ms) => {
        waits.push(ms);
        if (moves) advance(ms);
        return Promise.resolve();
      },
      ...rest,
    });
    return { k, waits, statuses: () => exchanges.map((e) => e.status) };
  }

  /** Spends the key's burst: its next request is refused for about a second. */
  async function exhaust(): Promise<void> {
    advance(60_000);
    for (let i = 0; i < 2; i++)
      await limited.http
        .get('/api/v1/payment-methods')
        .set('Authorization', tenant.sandbox.secretKey)
        .expect(200);
  }

  it('a read refused with 429 is retried after its Retry-After, and succeeds', async () => {
    await exhaust();
    const { k, waits, statuses } = limitedClient();
    expect(await k.paymentMethods.list()).toHaveLength(3);
    expect(waits).toEqual([1000]);
    expect(statuses()).toEqual([429, 200]);
  });

  it('the wait is at least Retry-After, whatever the backoff says', async () => {
    await exhaust();
    const { k, waits, statuses } = limitedClient({ retryDelays: [10] });
    await k.products.list();
    expect(waits).toEqual([1000]);
    expect(statuses()).toEqual([429, 200]);
  });

  it('a POST refused with 429 ran nothing: it is sent again and runs once, with or without a key', async () => {
    for (const idempotency of [true, false]) {
      await exhaust();
      const { k, statuses } = limitedClient({ idempotency });
      const externalUserId = orderId('limited');
      await k.customers.create({ externalUserId });
      expect(statuses()).toEqual([429, 200]);
      const rows = await limited.query('SELECT 1 FROM customers WHERE external_user_id = $1', [
        externalUserId,
      ]);
      expect(rows).toHaveLength(1);
    }
  });

  it('retries are bounded: after maxRetries the 429 is thrown, with its retryAfter', async () => {
    await exhaust();
    const { k, waits, statuses } = limitedClient({ moves: false });
    const e = await failure(k.paymentMethods.list());
    expect({ status: e.status, message: e.message, retryAfter: e.retryAfter }).toEqual({
      status: 429,
      message: Messages.tooManyRequests,
      retryAfter: 1,
    });
    expect(waits).toEqual([1000, 2000, 4000]);
    expect(statuses()).toEqual([429, 429, 429, 429]);
  });

  it('a Retry-After longer than maxRetryAfter is thrown at once', async () => {
    await exhaust();
    const { k, waits, statuses } = limitedClient({ maxRetryAfter: 500 });
    expect((await failure(k.paymentMethods.list())).retryAfter).toBe(1);
    expect(waits).toEqual([]);
    expect(statuses()).toEqual([429]);
  });
});

it('a 429 from something in front of the service: Retry-After as an HTTP date is honoured; without one, the backoff', async () => {
  const id = '00000000-0000-4000-8000-000000000429';
  const match = on('GET', `/payment/${id}`);
  const inThreeSeconds = new Date(Date.now() + 3000).toUTCString();
  proxy.fault(
    { kind: 'answer', status: 429, body: 'Too many requests', headers: { 'retry-after': inThreeSeconds } },
    match,
  );
  proxy.fault({ kind: 'answer', status: 429, body: 'Too many requests' }, match);
  const { k, waits } = through();
  expect((await failure(k.payments.get(id))).status).toBe(404);
  expect(waits).toHaveLength(2);
  expect(waits[0]).toBeGreaterThanOrEqual(2000);
  expect(waits[0]).toBeLessThanOrEqual(3000);
  expect(waits[1]).toBe(2000);
});

it('the pay-attempt limit (5 failed payments in 15 minutes) is thrown at once: its Retry-After is minutes', async () => {
  const pr = await client(baseUrlOf(t), org.sandbox.secretKey).paymentRequests.create({
    transactionId: orderId('declined'),
    amount: 400,
  });
  const { k, waits } = through(org.sandbox.publishableKey);
  const pay = () =>
    k.payments.pay({
      transactionId: pr.transactionId,
      phoneNumber: '22229001',
      paymentMethodId: methods.sedad,
    });
  const before = proxy.count('POST', path('/payment'));
  for (let i = 0; i < 5; i++) expect((await failure(pay())).status).toBe(502);
  const limitedPay = await failure(pay());
  expect(limitedPay).toMatchObject({ status: 429, message: Messages.tooManyRequests });
  expect(limitedPay.retryAfter).toBeGreaterThan(800);
  expect(waits).toEqual([]);
  expect(proxy.count('POST', path('/payment')) - before).toBe(6);
});
