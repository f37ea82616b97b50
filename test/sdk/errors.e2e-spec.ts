import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isAppException, type AppException, type Khoums } from '../../sdk/src';
import { Messages } from '../../src/common/errors/messages';
import type { CreatedOrganization } from '../../src/organizations/organizations.service';
import { newTenant, startTestApp, TestApp } from '../helpers/app';
import { freePort } from '../../src/common/net';
import { baseUrlOf, client, FaultyProxy, noWait, orderId } from './helpers';

/** The client library's errors: what the library throws for every kind of failure. */

let t: TestApp;
let org: CreatedOrganization;
let sk: Khoums;
let pk: Khoums;
let proxy: FaultyProxy;
let proxied: string;

beforeAll(async () => {
  t = await startTestApp({ SANDBOX_BANK_TIMEOUT_MS: '300' });
  org = await newTenant(t);
  sk = client(baseUrlOf(t), org.sandbox.secretKey, noWait);
  pk = client(baseUrlOf(t), org.sandbox.publishableKey, noWait);
  proxy = new FaultyProxy(`http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`);
  proxied = await proxy.start();
});
afterAll(async () => {
  await proxy.stop();
  await t.close();
});

async function failure(call: Promise<unknown>): Promise<AppException> {
  try {
    await call;
  } catch (err) {
    if (isAppException(err)) return err;
    throw err;
  }
  throw new Error('the call succeeded');
}

/** The fields and helpers of an AppException, for one comparison. */
function shape(e: AppException) {
  return {
    name: e.name,
    message: e.message,
    status: e.status,
    code: e.code,
    isClientError: e.isClientError,
    isServerError: e.isServerError,
    isConnectionError: e.isConnectionError,
    isTimeout: e.isTimeout,
  };
}

const answered = (status: number, message: string, code = message) => ({
  name: 'AppException',
  message,
  status,
  code,
  isClientError: status < 500,
  isServerError: status >= 500,
  isConnectionError: false,
  isTimeout: false,
});

describe('answers of the API', () => {
  it('401 Invalid API key: message and code are the plain-text body', async () => {
    const e = await failure(
      client(baseUrlOf(t), 'sk_test_' + 'x'.repeat(32)).paymentRequests.get(org.organizationId),
    );
    expect(shape(e)).toEqual(answered(401, Messages.invalidApiKey));
    expect(e.isInvalidApiKey).toBe(true);
    expect(e).toBeInstanceOf(Error);
  });

  it('403 for a publishable key on a secret route, and on checkout creation', async () => {
    const e = await failure(pk.paymentRequests.create({ transactionId: orderId(), amount: 100 }));
    expect(shape(e)).toEqual(answered(403, Messages.unauthorizedAccess));
    const checkout = await failure(
      pk.checkoutSessions.create({
        transactionId: orderId(),
        amount: 100,
        phoneNumber: '22123456',
        successUrl: 'https://shop.example/ok',
        cancelUrl: 'https://shop.example/ko',
        expiresInMinutes: 30,
      }),
    );
    expect(shape(checkout)).toEqual(answered(403, Messages.checkoutNeedsSecretKey));
  });

  it('404 Payment Request not found, with the request id of the answer', async () => {
    const e = await failure(sk.paymentRequests.getByTransactionId(orderId('unknown')));
    expect(shape(e)).toEqual(answered(404, Messages.paymentRequestNotFound));
    expect(e.requestId).toMatch(/[0-9a-f-]{36}/);
  });

  it('409 for a transactionId already used', async () => {
    const transactionId = orderId();
    await sk.paymentRequests.create({ transactionId, amount: 100 });
    const e = await failure(sk.paymentRequests.create({ transactionId, amount: 100 }));
    expect(shape(e)).toEqual(
      answered(
        409,
        `A payment request with transactionId "${transactionId}" already exists in this environment`,
      ),
    );
  });

  it('400 for a business rule (amount 0)', async () => {
    const e = await failure(sk.paymentRequests.create({ transactionId: orderId(), amount: 0 }));
    expect(shape(e)).toEqual(answered(400, Messages.amountNotPositive));
  });

  it("422: the message is the first issue's message, the code unknown, the validation body parsed", async () => {
    const e = await failure(sk.paymentRequests.create({ transactionId: orderId(), amount: '10' as never }));
    expect(shape(e)).toEqual(answered(422, 'Expected integer', 'unknown'));
    expect(e.validation).toMatchObject({ type: 'validation', on: 'body', property: '/amount' });
    expect(e.validation!.errors[0].message).toBe(e.message);
  });

  it('502 when the bank fails: a server error whose message may be shown to the customer', async () => {
    const pr = await sk.paymentRequests.create({ transactionId: orderId(), amount: 100 });
    const [sedad] = (await pk.paymentMethods.list()).filter((m) => m.type === 'sedad');
    const e = await failure(
      pk.payments.pay({
        transactionId: pr.transactionId,
        phoneNumber: '22229001',
        paymentMethodId: sedad.id,
      }),
    );
    expect(shape(e)).toEqual(answered(502, Messages.bankFailure));
  });

  it('500 Internal server error (from a proxy standing in for a failing instance)', async () => {
    proxy.fault({ kind: 'answer', status: 500, body: 'Internal server error' });
    const e = await failure(
      client(proxied, org.sandbox.secretKey, { ...noWait, maxRetries: 0 }).paymentRequests.list(),
    );
    expect(shape(e)).toEqual(answered(500, 'Internal server error'));
  });

  it('503 Service unavailable (the database away for a moment): a server error with its Retry-After', async () => {
    proxy.fault({
      kind: 'answer',
      status: 503,
      body: 'Service unavailable',
      headers: { 'retry-after': '3' },
    });
    const e = await failure(
      client(proxied, org.sandbox.secretKey, { ...noWait, maxRetries: 0 }).paymentRequests.list(),
    );
    expect(shape(e)).toEqual(answered(503, 'Service unavailable'));
    expect(e.retryAfter).toBe(3);
  });

  it('an answer that is not a plain-text message (HTML, empty) has code unknown', async () => {
    proxy.fault({
      kind: 'answer',
      status: 502,
      body: '<html><body>Bad gateway</body></html>',
      contentType: 'text/html',
    });
    const k = client(proxied, org.sandbox.secretKey, { ...noWait, maxRetries: 0 });
    expect(shape(await failure(k.paymentMethods.list()))).toEqual(answered(502, 'HTTP 502', 'unknown'));
    proxy.fault({ kind: 'answer', status: 503, body: '' });
    expect(shape(await failure(k.paymentMethods.list()))).toEqual(answered(503, 'HTTP 503', 'unknown'));
  });
});

describe('answers of the billing routes', () => {
  const unknown = '00000000-0000-4000-8000-00000000b111';
  let price: { id: string };
  let customer: { id: string; externalUserId: string };

  beforeAll(async () => {
    const product = await sk.products.create({ name: 'Plan' });
    price = await sk.prices.create({ productId: product.id, amount: 1000, interval: 'monthly' });
    customer = await sk.customers.create({ externalUserId: orderId('user') });
  });

  it('404 with the resource named, for each billing resource', async () => {
    expect(shape(await failure(sk.products.get(unknown)))).toEqual(answered(404, Messages.productNotFound));
    expect(shape(await failure(sk.products.update(unknown, { name: 'x' })))).toEqual(
      answered(404, Messages.productNotFound),
    );
    expect(shape(await failure(sk.prices.get(unknown)))).toEqual(answered(404, Messages.priceNotFound));
    expect(shape(await failure(sk.customers.update(unknown, { phone: null })))).toEqual(
      answered(404, Messages.customerNotFound),
    );
    expect(shape(await failure(sk.subscriptions.get(unknown)))).toEqual(
      answered(404, Messages.subscriptionNotFound),
    );
    expect(shape(await failure(sk.subscriptions.getByExternalUser(orderId('nobody'))))).toEqual(
      answered(404, Messages.subscriptionNotFound),
    );
    expect(shape(await failure(sk.subscriptions.cancel(unknown)))).toEqual(
      answered(404, Messages.subscriptionNotFound),
    );
    expect(shape(await failure(sk.invoices.get(unknown)))).toEqual(answered(404, Messages.invoiceNotFound));
    expect(shape(await failure(sk.subscriptions.create({ customerId: unknown, priceId: price.id })))).toEqual(
      answered(404, Messages.customerNotFound),
    );
  });

  it("404 for another organization's subscription, and for an archived price when subscribing", async () => {
    const other = await newTenant(t);
    const theirs = client(baseUrlOf(t), other.sandbox.secretKey, noWait);
    const subscription = await sk.subscriptions.create({ customerId: customer.id, priceId: price.id });
    expect(shape(await failure(theirs.subscriptions.get(subscription.id)))).toEqual(
      answered(404, Messages.subscriptionNotFound),
    );
    const product = await sk.products.create({ name: 'Old' });
    const archived = await sk.prices.create({ productId: product.id, amount: 100, interval: 'weekly' });
    await sk.prices.archive(archived.id);
    expect(
      shape(await failure(sk.subscriptions.create({ customerId: customer.id, priceId: archived.id }))),
    ).toEqual(answered(404, Messages.priceNotFound));
  });

  it('409 for a second customer with the same externalUserId', async () => {
    const e = await failure(sk.customers.create({ externalUserId: customer.externalUserId }));
    expect(shape(e)).toEqual(answered(409, Messages.customerExternalIdTaken(customer.externalUserId)));
  });

  it('400 Price amount must be a positive number, on create and on update', async () => {
    const product = await sk.products.create({ name: 'Free?' });
    expect(
      shape(await failure(sk.prices.create({ productId: product.id, amount: 0, interval: 'weekly' }))),
    ).toEqual(answered(400, Messages.priceAmountNotPositive));
    expect(shape(await failure(sk.prices.update(price.id, { amount: -5 })))).toEqual(
      answered(400, Messages.priceAmountNotPositive),
    );
  });

  it('400 and 409 for subscription rules: a trial with no length, resuming a cancelled one, paying its voided invoice', async () => {
    expect(
      shape(
        await failure(sk.subscriptions.create({ customerId: customer.id, priceId: price.id, trial: true })),
      ),
    ).toEqual(answered(400, Messages.trialNeedsPeriodOrEnd));
    const subscription = await sk.subscriptions.create({ customerId: customer.id, priceId: price.id });
    await sk.subscriptions.cancel(subscription.id);
    expect(shape(await failure(sk.subscriptions.resume(subscription.id)))).toEqual(
      answered(409, Messages.subscriptionCannotBeResumed('cancelled')),
    );
    // Its invoice was voided: it can no longer be paid.
    const [invoice] = (await sk.invoices.list({ subscriptionId: subscription.id })).data;
    expect(invoice.status).toBe('void');
    const [sedad] = (await pk.paymentMethods.list()).filter((m) => m.type === 'sedad');
    const e = await failure(
      pk.payments.pay({ transactionId: invoice.id, phoneNumber: '22123456', paymentMethodId: sedad.id }),
    );
    expect(shape(e)).toEqual(answered(409, Messages.paymentRequestVoid));
  });

  it('422 for a wrong type or shape: the validation body parsed, the first issue as message', async () => {
    const product = await sk.products.create({ name: 'Plan' });
    const e = await failure(
      sk.prices.create({ productId: product.id, amount: 10, interval: 'daily' as never }),
    );
    expect(e).toMatchObject({ status: 422, code: 'unknown' });
    expect(e.validation).toMatchObject({ type: 'validation', on: 'body', property: '/interval' });
    expect(e.message).toBe(e.validation!.errors[0].message);
    const params = await failure(sk.subscriptions.get('not-a-uuid'));
    expect(params).toMatchObject({ status: 422, code: 'unknown' });
    expect(params.validation).toMatchObject({ on: 'params', property: '/id' });
  });

  it('403 for a publishable key on the billing routes; 400 for a Production billing run', async () => {
    expect(shape(await failure(pk.subscriptions.list()))).toEqual(answered(403, Messages.unauthorizedAccess));
    expect(shape(await failure(pk.sandbox.runBilling()))).toEqual(answered(403, Messages.unauthorizedAccess));
    const live = client(baseUrlOf(t), org.production.secretKey, noWait);
    expect(shape(await failure(live.sandbox.runBilling()))).toEqual(
      answered(400, Messages.billingRunsSandboxOnly),
    );
  });
});

describe('no answer', () => {
  it('connection_error when nothing listens: no status, isConnectionError', async () => {
    const nowhere = `http://127.0.0.1:${await freePort()}/api/v1`;
    const e = await failure(
      client(nowhere, org.sandbox.secretKey, { ...noWait, maxRetries: 0 }).paymentMethods.list(),
    );
    expect(shape(e)).toMatchObject({ code: 'connection_error', status: undefined, isConnectionError: true });
    expect(e.isClientError || e.isServerError || e.isTimeout).toBe(false);
  });

  it('timeout when the answer comes later than the time-out', async () => {
    proxy.fault({ kind: 'delay', ms: 1500 });
    const k = client(proxied, org.sandbox.secretKey, { ...noWait, maxRetries: 0, timeout: 100 });
    const e = await failure(k.paymentMethods.list());
    expect(shape(e)).toMatchObject({
      code: 'timeout',
      status: undefined,
      isTimeout: true,
      isConnectionError: false,
    });
    expect(e.message).toBe('No answer within 100 ms');
  });

  it('the time-out is per call when given, and 60 s by default', async () => {
    proxy.fault({ kind: 'delay', ms: 1500 });
    const k = client(proxied, org.sandbox.secretKey, { ...noWait, maxRetries: 0 });
    expect((await failure(k.paymentMethods.list({}, { timeout: 50 }))).message).toBe(
      'No answer within 50 ms',
    );

    // The default, observed on a server that never answers, with Jest's clock instead of a minute's wait.
    const silent: Server = createServer(() => undefined);
    await new Promise<void>((ok) => silent.listen(0, '127.0.0.1', ok));
    jest.useFakeTimers({
      doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask', 'hrtime', 'performance'],
    });
    try {
      const port = (silent.address() as AddressInfo).port;
      const call = failure(
        client(`http://127.0.0.1:${port}/api/v1`, org.sandbox.secretKey, {
          maxRetries: 0,
        }).paymentMethods.list(),
      );
      await jest.advanceTimersByTimeAsync(59_999);
      let settled = false;
      void call.finally(() => (settled = true));
      await jest.advanceTimersByTimeAsync(0);
      expect(settled).toBe(false);
      await jest.advanceTimersByTimeAsync(1);
      expect((await call).message).toBe('No answer within 60000 ms');
    } finally {
      jest.useRealTimers();
      silent.closeAllConnections();
      silent.close();
    }
  });

  it('abort_error when the caller aborts, before or during the call', async () => {
    const before = new AbortController();
    before.abort();
    const e1 = await failure(sk.paymentMethods.list({}, { signal: before.signal }));
    expect(shape(e1)).toMatchObject({ code: 'abort_error', status: undefined, isTimeout: false });

    proxy.fault({ kind: 'delay', ms: 1500 });
    const during = new AbortController();
    const call = failure(
      client(proxied, org.sandbox.secretKey, noWait).paymentMethods.list({}, { signal: during.signal }),
    );
    setTimeout(() => during.abort(), 50);
    expect((await call).code).toBe('abort_error');
  });
});

describe('keys refused by the client', () => {
  it('a blank key is refused with code invalid_api_key before any request', () => {
    for (const key of ['', '   ']) {
      let thrown: unknown;
      try {
        client(baseUrlOf(t), key);
      } catch (err) {
        thrown = err;
      }
      expect(isAppException(thrown) && shape(thrown)).toMatchObject({
        code: 'invalid_api_key',
        status: undefined,
      });
      expect((thrown as AppException).isInvalidApiKey).toBe(true);
    }
  });

  it('a secret key is accepted in Node (a server), where it belongs', () => {
    expect(() => client(baseUrlOf(t), org.sandbox.secretKey)).not.toThrow();
  });
});
