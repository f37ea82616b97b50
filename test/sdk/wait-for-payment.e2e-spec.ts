import { isAppException, Khoums, PaymentWaitError } from '../../sdk/src';
import type { CreatedOrganization } from '../../src/organizations/organizations.service';
import { newTenant, startTestApp, TestApp } from '../helpers/app';
import { catalog, createSubscription, invoicesOf } from '../helpers/billing';
import { waitFor } from '../helpers/poll';
import { baseUrlOf, client, orderId } from './helpers';

/**
 * `paymentRequests.waitForPayment` against the real service and its Sandbox bank simulator: it
 * resolves once the request is paid (not on a failed attempt), stops on a voided invoice, on its
 * time-out and on an abort, and looks up less and less often.
 */
let t: TestApp;
let org: CreatedOrganization;
let sk: Khoums;
let pk: Khoums;
/** When each look-up by transactionId left, per transactionId. */
const lookUps = new Map<string, number[]>();

beforeAll(async () => {
  t = await startTestApp();
  org = await newTenant(t);
  const timedFetch: typeof fetch = (input, init) => {
    const m = /by-transaction\/([^/?]+)/.exec(input instanceof Request ? input.url : input.toString());
    if (m) {
      const id = decodeURIComponent(m[1]);
      lookUps.set(id, [...(lookUps.get(id) ?? []), Date.now()]);
    }
    return fetch(input, init);
  };
  sk = client(baseUrlOf(t), org.sandbox.secretKey, { fetch: timedFetch });
  pk = client(baseUrlOf(t), org.sandbox.publishableKey);
});
afterAll(() => t.close());

async function masriviId(): Promise<string> {
  return (await pk.paymentMethods.list()).find((m) => m.type === 'masrivi')!.id;
}

/** A payment the Sandbox bank holds pending (22229003) until simulate-transfer says how it ends. */
async function pendingPayment(transactionId: string) {
  return pk.payments.pay({ transactionId, phoneNumber: '22229003', paymentMethodId: await masriviId() });
}

/** Whether `promise` has settled, read at once. */
function settlement(promise: Promise<unknown>): () => boolean {
  let settled = false;
  promise.then(
    () => (settled = true),
    () => (settled = true),
  );
  return () => settled;
}

/**
 * Waits until the waiter of `transactionId` has sent two look-ups since `since`: the first one left
 * after `since` (it saw the state of then), and the second left once its answer was read, so the
 * waiter decided on that state to keep waiting.
 */
async function lookedUpTwiceSince(transactionId: string, since: number): Promise<void> {
  await waitFor(
    () => (lookUps.get(transactionId) ?? []).filter((at) => at >= since).length >= 2,
    'two look-ups since the change',
    20_000,
  );
}

it('resolves with the paid request once a payment completes, not when an attempt fails', async () => {
  const pr = await sk.paymentRequests.create({ transactionId: orderId('wait'), amount: 1500 });
  const waiting = sk.paymentRequests.waitForPayment(pr.transactionId, {
    timeout: 30_000,
    interval: 50,
    maxInterval: 400,
  });
  const settled = settlement(waiting);

  const failing = await pendingPayment(pr.transactionId);
  await sk.payments.simulateTransfer(failing.id, { outcome: 'failed' });
  await lookedUpTwiceSince(pr.transactionId, Date.now());
  expect(settled()).toBe(false);

  const paying = await pendingPayment(pr.transactionId);
  await sk.payments.simulateTransfer(paying.id);
  const paid = await waiting;
  expect(paid).toMatchObject({ id: pr.id, transactionId: pr.transactionId, status: 'paid', amount: 1500 });
  expect(paid.paidAt).toEqual(expect.any(String));
});

it('throws PaymentWaitError `timeout` after its time-out, having looked up with a growing wait', async () => {
  const pr = await sk.paymentRequests.create({ transactionId: orderId('wait'), amount: 700 });
  const started = Date.now();
  const err = await sk.paymentRequests
    .waitForPayment(pr.transactionId, { timeout: 1_600, interval: 50, maxInterval: 400 })
    .catch((e: unknown) => e);
  const elapsed = Date.now() - started;
  expect(err).toBeInstanceOf(PaymentWaitError);
  expect(err).toMatchObject({
    name: 'PaymentWaitError',
    reason: 'timeout',
    transactionId: pr.transactionId,
    paymentRequest: expect.objectContaining({ id: pr.id, status: 'pending' }),
  });
  expect(elapsed).toBeGreaterThanOrEqual(1_600);
  expect(elapsed).toBeLessThan(4_000);

  // 50, 100, 200, 400, 400... ms between look-ups: a handful in 1.6 s, not one every 50 ms.
  const times = lookUps.get(pr.transactionId)!;
  const gaps = times.slice(1).map((at, i) => at - times[i]);
  expect(times.length).toBeGreaterThanOrEqual(4);
  expect(times.length).toBeLessThanOrEqual(8);
  gaps.forEach((gap, i) => expect(gap).toBeGreaterThanOrEqual(Math.min(50 * 2 ** i, 400) - 5));
});

it('stops with an AppException `abort_error` when its signal aborts, and at once when it already has', async () => {
  const pr = await sk.paymentRequests.create({ transactionId: orderId('wait'), amount: 900 });
  const controller = new AbortController();
  const waiting = sk.paymentRequests
    .waitForPayment(pr.transactionId, { signal: controller.signal, interval: 5_000, timeout: 60_000 })
    .catch((e: unknown) => e);
  // Aborted while it waits out its interval: once its first look-up has left.
  await waitFor(() => lookUps.get(pr.transactionId)?.length, 'the first look-up', 10_000);
  const abortedAt = Date.now();
  controller.abort();
  const err = await waiting;
  expect(Date.now() - abortedAt).toBeLessThan(1_000);
  expect(isAppException(err) && err.code).toBe('abort_error');
  expect(err).not.toBeInstanceOf(PaymentWaitError);

  const before = lookUps.get(pr.transactionId)!.length;
  const already = await sk.paymentRequests
    .waitForPayment(pr.transactionId, { signal: AbortSignal.abort() })
    .catch((e: unknown) => e);
  expect(isAppException(already) && already.code).toBe('abort_error');
  expect(lookUps.get(pr.transactionId)!.length).toBe(before);
});

it('throws PaymentWaitError `cancelled` when the request’s invoice becomes void', async () => {
  const c = await catalog(t, org);
  const sub = await createSubscription(t, org.sandbox.secretKey, {
    customerId: c.customer.id,
    priceId: c.price.id,
  });
  const [invoice] = await invoicesOf(t, org.sandbox.secretKey, sub.id);
  const started = Date.now();
  const waiting = sk.paymentRequests
    .waitForPayment(invoice.id, { timeout: 30_000, interval: 50, maxInterval: 400 })
    .catch((e: unknown) => e);
  const settled = settlement(waiting);
  await lookedUpTwiceSince(invoice.id, started);
  expect(settled()).toBe(false);
  await sk.subscriptions.cancel(sub.id);
  const err = await waiting;
  expect(err).toBeInstanceOf(PaymentWaitError);
  expect(err).toMatchObject({ reason: 'cancelled', transactionId: invoice.id });
});

it('throws the look-up’s 404 for an unknown transactionId, and needs a secret key', async () => {
  const unknown = await sk.paymentRequests
    .waitForPayment(orderId('nobody'), { timeout: 5_000 })
    .catch((e) => e);
  expect(isAppException(unknown) && unknown.status).toBe(404);

  const pr = await sk.paymentRequests.create({ transactionId: orderId('wait'), amount: 100 });
  const publishable = await pk.paymentRequests
    .waitForPayment(pr.transactionId, { timeout: 5_000 })
    .catch((e) => e);
  expect(isAppException(publishable) && publishable.code).toBe('invalid_api_key');
});

it('throws PaymentWaitError `expired` when a transfer payment runs past its claim, not for one expired before the wait', async () => {
  const gimtel = await sk.paymentMethods.configureGimtel({ enabled: true });
  const pay = (transactionId: string, phoneNumber: string) =>
    pk.payments.pay({ transactionId, phoneNumber, paymentMethodId: gimtel.id });
  // The claim's expiry, as its job makes it: failed, `expired`.
  const expire = (id: string) =>
    t.query(`UPDATE payments SET status = 'failed', failure_reason = 'expired' WHERE id = $1`, [id]);

  const pr = await sk.paymentRequests.create({ transactionId: orderId('wait'), amount: 1100 });
  const before = await pay(pr.transactionId, '22123456');
  expect(before.instructions).toMatchObject({ amount: 1100, paymentId: before.id });
  await expire(before.id);
  // An attempt that expired before the wait began does not end it; a new one is paid for.
  const waiting = sk.paymentRequests
    .waitForPayment(pr.transactionId, { timeout: 30_000, interval: 50, maxInterval: 100 })
    .catch((e: unknown) => e);
  const settled = settlement(waiting);
  await lookedUpTwiceSince(pr.transactionId, Date.now());
  expect(settled()).toBe(false);
  const during = await pay(pr.transactionId, '22123456');
  await lookedUpTwiceSince(pr.transactionId, Date.now());
  expect(settled()).toBe(false);
  await expire(during.id);
  expect(await waiting).toMatchObject({
    name: 'PaymentWaitError',
    reason: 'expired',
    transactionId: pr.transactionId,
    paymentRequest: expect.objectContaining({ id: pr.id, status: 'pending' }),
  });
});
