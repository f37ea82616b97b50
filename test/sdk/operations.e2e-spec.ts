import type { Khoums, PaymentRequest } from '../../sdk/src';
import type { CreatedOrganization } from '../../src/organizations/organizations.service';
import { newTenant, startTestApp, TestApp } from '../helpers/app';
import { timeTravel } from '../helpers/billing';
import { Answer, answerProblems, baseUrlOf, client, orderId, recordingFetch } from './helpers';
import type { OpenApiDocument } from './openapi-types';

/**
 * Every method of the client library against the real service (no mocks), on the Sandbox bank
 * simulator. Every answer the library receives is checked against the OpenAPI document's schema
 * of its route: no field missing, none undeclared.
 */

let t: TestApp;
let doc: OpenApiDocument;
let org: CreatedOrganization;
let sk: Khoums;
let pk: Khoums;
const answers: Answer[] = [];

beforeAll(async () => {
  t = await startTestApp({ SANDBOX_BANK_TIMEOUT_MS: '300' });
  doc = (await t.http.get('/api/docs-json').expect(200)).body;
  org = await newTenant(t);
  const options = { fetch: recordingFetch(answers) };
  sk = client(baseUrlOf(t), org.sandbox.secretKey, options);
  pk = client(baseUrlOf(t), org.sandbox.publishableKey, options);
});
afterAll(() => t.close());

afterEach(() => {
  // every answer of the test just run, against the document's schema of its route
  expect(answerProblems(doc, answers.splice(0))).toEqual([]);
});

async function methodId(type: 'bankily' | 'masrivi' | 'sedad'): Promise<string> {
  return (await pk.paymentMethods.list()).find((m) => m.type === type)!.id;
}

async function newRequest(amount = 1500, phoneNumber?: string): Promise<PaymentRequest> {
  return sk.paymentRequests.create({ transactionId: orderId(), amount, phoneNumber });
}

describe('payment requests', () => {
  it('create returns the payment request record; get and getByTransactionId (secret key) return it again', async () => {
    const transactionId = orderId();
    const created = await sk.paymentRequests.create({
      transactionId,
      amount: 2500,
      phoneNumber: '+222 22 12 34 56',
    });
    expect(created).toMatchObject({
      transactionId,
      amount: 2500,
      phoneNumber: '22123456',
      status: 'pending',
    });
    expect(await sk.paymentRequests.get(created.id)).toEqual(created);
    expect(await sk.paymentRequests.getByTransactionId(transactionId)).toEqual(created);
  });

  it('getByTransactionId with a publishable key returns only id, amount and phoneNumber', async () => {
    const created = await newRequest(900, '33445566');
    expect(await pk.paymentRequests.getByTransactionId(created.transactionId)).toEqual({
      id: created.id,
      amount: 900,
      phoneNumber: '33445566',
    });
  });

  it('list returns one page with its pagination; iterating it walks every page', async () => {
    const mine = await newTenant(t);
    const k = client(baseUrlOf(t), mine.sandbox.secretKey, { fetch: recordingFetch(answers) });
    const ids: string[] = [];
    for (let i = 0; i < 5; i++)
      ids.push((await k.paymentRequests.create({ transactionId: orderId(), amount: 100 + i })).id);

    const page = await k.paymentRequests.list({ limit: 2 });
    expect(page.data).toHaveLength(2);
    expect(page.pagination).toEqual({ page: 1, limit: 2, total: 5, totalPages: 3 });
    expect((await k.paymentRequests.list({ limit: 2, page: 3 })).data).toHaveLength(1);

    const seen: string[] = [];
    for await (const pr of k.paymentRequests.list({ limit: 2, status: 'pending' })) seen.push(pr.id);
    expect(seen.sort()).toEqual(ids.sort());
  });

  it('refreshStatus asks the bank about pending payments and returns the request', async () => {
    const pr = await newRequest(700);
    const payment = await pk.payments.pay({
      transactionId: pr.transactionId,
      phoneNumber: '22229003',
      paymentMethodId: await methodId('masrivi'),
    });
    expect(payment.status).toBe('pending');
    const refreshed = await sk.paymentRequests.refreshStatus(pr.transactionId);
    expect(refreshed).toMatchObject({ id: pr.id, transactionId: pr.transactionId });
  });
});

describe('payment methods and payments', () => {
  it('paymentMethods.list (either key; isTestingMode has no effect) returns the bank apps', async () => {
    const withPk = await pk.paymentMethods.list({ isTestingMode: true });
    expect(withPk.map((m) => [m.type, m.requiresPassCode])).toEqual([
      ['bankily', true],
      ['masrivi', false],
      ['sedad', false],
    ]);
    expect(await sk.paymentMethods.list()).toEqual(withPk);
  });

  it('pay with a publishable key completes a payment; the request is then paid', async () => {
    const pr = await newRequest(1200);
    const payment = await pk.payments.pay({
      transactionId: pr.transactionId,
      phoneNumber: '22222222',
      paymentMethodId: await methodId('sedad'),
    });
    expect(payment).toMatchObject({ transactionId: pr.transactionId, amount: 1200, status: 'completed' });
    expect((await sk.paymentRequests.get(pr.id)).status).toBe('paid');
  });

  it('pay with Bankily sends the pass code', async () => {
    const pr = await newRequest();
    const payment = await pk.payments.pay({
      transactionId: pr.transactionId,
      phoneNumber: '44444444',
      passCode: '1234',
      paymentMethodId: await methodId('bankily'),
    });
    expect(payment.status).toBe('completed');
  });

  it('payments.get and payments.list (with its iterator) read payments with the secret key', async () => {
    const pr = await newRequest();
    const payment = await pk.payments.pay({
      transactionId: pr.transactionId,
      phoneNumber: '22222222',
      paymentMethodId: await methodId('masrivi'),
    });
    // Pay answers the payment with its `instructions` (null but for a transfer); reads answer the record.
    const { instructions, ...record } = payment;
    expect(instructions).toBeNull();
    expect(await sk.payments.get(payment.id)).toEqual(record);
    const listed = await sk.payments.list({ transactionId: pr.transactionId });
    expect(listed.data).toEqual([record]);
    const all = [];
    for await (const p of sk.payments.list({ paymentRequestId: pr.id, limit: 1 })) all.push(p);
    expect(all).toEqual([record]);
  });

  it('simulateTransfer completes a pending payment in the Sandbox', async () => {
    const pr = await newRequest();
    const pending = await pk.payments.pay({
      transactionId: pr.transactionId,
      phoneNumber: '22229003',
      paymentMethodId: await methodId('masrivi'),
    });
    expect(pending.status).toBe('pending');
    expect(await sk.payments.simulateTransfer(pending.id)).toMatchObject({
      id: pending.id,
      status: 'completed',
    });
    const other = await newRequest();
    const failing = await pk.payments.pay({
      transactionId: other.transactionId,
      phoneNumber: '22229003',
      paymentMethodId: await methodId('masrivi'),
    });
    expect(await sk.payments.simulateTransfer(failing.id, { outcome: 'failed' })).toMatchObject({
      status: 'failed',
    });
  });
});

describe('checkout sessions', () => {
  const urls = {
    successUrl: 'https://shop.example/thanks',
    cancelUrl: 'https://shop.example/cart',
    expiresInMinutes: 30,
  };

  it('create with a new transactionId returns the session and its checkoutUrl; creating again returns the same open session', async () => {
    const transactionId = orderId();
    const first = await sk.checkoutSessions.create({
      transactionId,
      amount: 3000,
      phoneNumber: '22123456',
      ...urls,
    });
    expect(first.data).toMatchObject({
      status: 'open',
      successUrl: urls.successUrl,
      cancelUrl: urls.cancelUrl,
    });
    expect(first.checkoutUrl).toMatch(new RegExp(`/checkout/${first.data.id}$`));
    const again = await sk.checkoutSessions.create({ transactionId, phoneNumber: '22123456', ...urls });
    expect(again.data.id).toBe(first.data.id);
    expect((await sk.paymentRequests.getByTransactionId(transactionId)).amount).toBe(3000);
  });

  it('create with a paymentRequestId; get, getPublic, getPaymentStatus and expire', async () => {
    const pr = await newRequest(4500);
    const { data: session, checkoutUrl } = await sk.checkoutSessions.create({
      paymentRequestId: pr.id,
      ...urls,
    });
    expect(session.paymentRequestId).toBe(pr.id);
    expect(await sk.checkoutSessions.get(session.id)).toEqual({ data: session, checkoutUrl });

    const keyless = client(baseUrlOf(t), 'pk_test_unused', { fetch: recordingFetch(answers) });
    expect(await keyless.checkoutSessions.getPublic(session.id)).toMatchObject({
      id: session.id,
      status: 'open',
      amount: 4500,
      currency: 'MRU',
      transactionId: pr.transactionId,
      merchantName: 'Test Merchant',
      livemode: false,
    });
    expect(await keyless.checkoutSessions.getPaymentStatus(session.id)).toEqual({
      status: 'open',
      paymentStatus: null,
    });

    expect(await sk.checkoutSessions.expire(session.id)).toMatchObject({ id: session.id, status: 'expired' });
    expect((await sk.checkoutSessions.get(session.id)).data.status).toBe('expired');
  });
});

describe('webhook endpoints and deliveries', () => {
  it('create (with its secret), list, get, update, rotateSecret, sendTestEvent and delete', async () => {
    const created = await sk.webhookEndpoints.create({
      url: 'https://shop.example/webhooks',
      events: ['payment-updated', 'payment-request-created'],
    });
    expect(created.secret).toMatch(/^whsec_/);
    const endpoint = { ...created };
    delete endpoint.secret;
    expect(await sk.webhookEndpoints.get(created.id)).toEqual(endpoint);
    expect((await sk.webhookEndpoints.list()).data).toContainEqual(endpoint);
    const listed = [];
    for await (const e of sk.webhookEndpoints.list({ limit: 1 })) listed.push(e.id);
    expect(listed).toContain(created.id);

    const updated = await sk.webhookEndpoints.update(created.id, { enabled: false });
    expect(updated).toMatchObject({ id: created.id, enabled: false });
    await sk.webhookEndpoints.update(created.id, { enabled: true });

    const rotated = await sk.webhookEndpoints.rotateSecret(created.id);
    expect(rotated.secret).toMatch(/^whsec_/);
    expect(rotated.secret).not.toBe(created.secret);

    const delivery = await sk.webhookEndpoints.sendTestEvent(created.id);
    expect(delivery).toMatchObject({ endpointId: created.id, event: 'payment-request-created' });
    expect(await sk.webhookEndpoints.sendTestEvent(created.id, { event: 'payment-updated' })).toMatchObject({
      event: 'payment-updated',
    });

    expect(await sk.webhookEndpoints.delete(created.id)).toMatchObject({ id: created.id });
    await expect(sk.webhookEndpoints.get(created.id)).rejects.toMatchObject({ status: 404 });
  });

  it('webhookDeliveries.list, get, listAttempts and retry', async () => {
    const endpoint = await sk.webhookEndpoints.create({ url: 'https://shop.example/hooks' });
    const delivery = await sk.webhookEndpoints.sendTestEvent(endpoint.id);
    const listed = await sk.webhookDeliveries.list({ endpointId: endpoint.id });
    expect(listed.data.map((d) => d.id)).toEqual([delivery.id]);
    const all = [];
    for await (const d of sk.webhookDeliveries.list({ endpointId: endpoint.id, status: 'pending' }))
      all.push(d.id);
    expect(all).toEqual([delivery.id]);
    expect(await sk.webhookDeliveries.get(delivery.id)).toEqual(delivery);
    expect(await sk.webhookDeliveries.listAttempts(delivery.id)).toEqual([]);
    expect(await sk.webhookDeliveries.retry(delivery.id)).toMatchObject({
      id: delivery.id,
      status: 'pending',
    });
  });
});

describe('products and prices', () => {
  it('products.create, get (with its active prices), update and archive; an archived product leaves get and list', async () => {
    const product = await sk.products.create({ name: 'Pro', description: 'The pro plan' });
    expect(product).toMatchObject({
      name: 'Pro',
      description: 'The pro plan',
      active: true,
      organizationId: org.organizationId,
      environmentId: org.sandbox.environmentId,
    });
    const price = await sk.prices.create({ productId: product.id, amount: 5000, interval: 'monthly' });
    expect(await sk.products.get(product.id)).toEqual({ ...product, prices: [price] });

    const renamed = await sk.products.update(product.id, { name: 'Pro+', description: null });
    expect(renamed).toEqual({ ...product, name: 'Pro+', description: null });
    expect(await sk.products.archive(product.id)).toMatchObject({ id: product.id, active: false });
    await expect(sk.products.get(product.id)).rejects.toMatchObject({ status: 404 });
    expect((await sk.products.list({ id: product.id })).data).toEqual([]);

    // The update method also takes `active`: false archives.
    const other = await sk.products.create({ name: 'Lite' });
    expect(await sk.products.update(other.id, { active: false })).toMatchObject({
      id: other.id,
      active: false,
    });
    await expect(sk.products.get(other.id)).rejects.toMatchObject({ status: 404 });
  });

  it("products.list pages the environment's active products, each with its prices; iterating walks every page", async () => {
    const mine = await newTenant(t);
    const k = client(baseUrlOf(t), mine.sandbox.secretKey, { fetch: recordingFetch(answers) });
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await k.products.create({ name: `Plan ${i}` })).id);
    await k.prices.create({ productId: ids[0], amount: 100, interval: 'weekly' });

    const page = await k.products.list({ limit: 2 });
    expect(page.pagination).toEqual({ page: 1, limit: 2, total: 5, totalPages: 3 });
    const seen: string[] = [];
    let prices = 0;
    for await (const p of k.products.list({ limit: 2 })) {
      seen.push(p.id);
      prices += p.prices.length;
    }
    expect(seen.sort()).toEqual([...ids].sort());
    expect(prices).toBe(1);
    // Products belong to the environment of the key that created them.
    const live = client(baseUrlOf(t), mine.production.secretKey, { fetch: recordingFetch(answers) });
    expect((await live.products.list()).pagination.total).toBe(0);
  });

  it('prices.create, get, update in place, update with replaceExisting (a new price, the old one inactive) and archive', async () => {
    const product = await sk.products.create({ name: 'Basic' });
    const price = await sk.prices.create({ productId: product.id, amount: 1500, interval: 'monthly' });
    expect(price).toMatchObject({ productId: product.id, amount: 1500, interval: 'monthly', active: true });
    expect(await sk.prices.get(price.id)).toEqual(price);

    const inPlace = await sk.prices.update(price.id, { amount: 1800, interval: 'yearly' });
    expect(inPlace).toEqual({ ...price, amount: 1800, interval: 'yearly' });

    const replacement = await sk.prices.update(price.id, { amount: 2000, replaceExisting: true });
    expect(replacement).toMatchObject({
      productId: product.id,
      amount: 2000,
      interval: 'yearly',
      active: true,
    });
    expect(replacement.id).not.toBe(price.id);
    expect((await sk.products.get(product.id)).prices.map((p) => p.id)).toEqual([replacement.id]);

    expect(await sk.prices.archive(replacement.id)).toMatchObject({ id: replacement.id, active: false });
    await expect(sk.prices.get(replacement.id)).rejects.toMatchObject({ status: 404 });
    expect((await sk.products.get(product.id)).prices).toEqual([]);
  });
});

describe('customers', () => {
  it('customers.create, update (a phone normalised, null removes it) and list by externalUserId; shared by Sandbox and Production', async () => {
    const externalUserId = orderId('user');
    const customer = await sk.customers.create({ externalUserId, phone: '+222 33 44 55 66' });
    expect(customer).toMatchObject({ externalUserId, phone: '33445566', organizationId: org.organizationId });
    expect(await sk.customers.update(customer.id, { phone: null })).toEqual({ ...customer, phone: null });
    const renamed = await sk.customers.update(customer.id, { externalUserId: `${externalUserId}-2` });
    expect(renamed.externalUserId).toBe(`${externalUserId}-2`);

    const live = client(baseUrlOf(t), org.production.secretKey, { fetch: recordingFetch(answers) });
    expect((await live.customers.list({ externalUserId: `${externalUserId}-2` })).data).toEqual([renamed]);
    expect((await sk.customers.list({ id: customer.id })).data).toEqual([renamed]);
  });

  it("customers.list pages the organization's customers; iterating walks every page", async () => {
    const mine = await newTenant(t);
    const k = client(baseUrlOf(t), mine.sandbox.secretKey, { fetch: recordingFetch(answers) });
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await k.customers.create({ externalUserId: orderId('user') })).id);
    expect((await k.customers.list({ limit: 2, page: 3 })).pagination).toEqual({
      page: 3,
      limit: 2,
      total: 5,
      totalPages: 3,
    });
    const seen: string[] = [];
    for await (const c of k.customers.list({ limit: 2 })) seen.push(c.id);
    expect(seen.sort()).toEqual([...ids].sort());
  });
});

describe('subscriptions, invoices and the billing run', () => {
  const DAY = 86_400_000;
  let price: { id: string };

  beforeAll(async () => {
    const product = await sk.products.create({ name: 'Monthly plan' });
    price = await sk.prices.create({ productId: product.id, amount: 5000, interval: 'monthly' });
  });

  it("subscriptions.create bills the first period at once: active, one pending invoice of the price's amount", async () => {
    const customer = await sk.customers.create({ externalUserId: orderId('user'), phone: '22123456' });
    const subscription = await sk.subscriptions.create({ customerId: customer.id, priceId: price.id });
    expect(subscription).toMatchObject({
      customerId: customer.id,
      priceId: price.id,
      status: 'active',
      trialEnd: null,
      cancelledAt: null,
      environmentId: org.sandbox.environmentId,
      organizationId: org.organizationId,
    });
    expect(subscription.startedAt).toBe(subscription.currentPeriodStart);
    expect(await sk.subscriptions.get(subscription.id)).toEqual(subscription);

    const { data: invoices } = await sk.invoices.list({ subscriptionId: subscription.id });
    expect(invoices).toEqual([
      expect.objectContaining({
        customerId: customer.id,
        subscriptionId: subscription.id,
        status: 'pending',
        amount: '5000.00',
        periodStart: subscription.currentPeriodStart,
        periodEnd: subscription.currentPeriodEnd,
        dueDate: subscription.nextBillingDate,
        organizationId: org.organizationId,
      }),
    ]);
    const [invoice] = invoices;
    expect(invoice.checkoutUrl).toContain(invoice.id);
    expect(await sk.invoices.get(invoice.id)).toEqual(invoice);
    // The invoice's payment request: its transactionId is the invoice id, its phone the customer's.
    expect(await sk.paymentRequests.get(invoice.paymentRequestId!)).toMatchObject({
      transactionId: invoice.id,
      amount: 5000,
      phoneNumber: '22123456',
      invoiceId: invoice.id,
    });
  });

  it('createByExternalUser creates the customer (with its phone) or updates its phone; getByExternalUser returns their current subscription', async () => {
    const externalUserId = orderId('user');
    const trialing = await sk.subscriptions.createByExternalUser({
      externalUserId,
      priceId: price.id,
      phone: '22334455',
      trial: true,
      trialPeriod: '1_week',
    });
    expect(trialing.status).toBe('trialing');
    expect(Date.parse(trialing.trialEnd!) - Date.parse(trialing.startedAt)).toBe(7 * DAY);
    const [customer] = (await sk.customers.list({ externalUserId })).data;
    expect(customer).toMatchObject({ id: trialing.customerId, phone: '22334455' });
    expect(await sk.subscriptions.getByExternalUser(externalUserId)).toEqual(trialing);
    expect((await sk.invoices.list({ externalUserId })).data).toEqual([]);

    await sk.subscriptions.cancel(trialing.id);
    const again = await sk.subscriptions.createByExternalUser({
      externalUserId,
      priceId: price.id,
      phone: '44556677',
    });
    expect(again).toMatchObject({ customerId: customer.id, status: 'active' });
    expect((await sk.customers.list({ externalUserId })).data[0].phone).toBe('44556677');
    // The current one is preferred over the newer cancelled one.
    expect((await sk.subscriptions.getByExternalUser(externalUserId)).id).toBe(again.id);
  });

  it('pause, resume, cancel at period end, then now (its unpaid invoice void); cancelling again changes nothing', async () => {
    const customer = await sk.customers.create({ externalUserId: orderId('user') });
    const { id } = await sk.subscriptions.create({ customerId: customer.id, priceId: price.id });
    expect((await sk.subscriptions.pause(id)).status).toBe('paused');
    expect((await sk.subscriptions.resume(id)).status).toBe('active');

    const pending = await sk.subscriptions.cancel(id, { atPeriodEnd: true });
    expect(pending).toMatchObject({ status: 'pending_cancellation', cancelledAt: null });
    expect((await sk.invoices.list({ subscriptionId: id })).data.map((i) => i.status)).toEqual(['pending']);

    const cancelled = await sk.subscriptions.cancel(id);
    expect(cancelled).toMatchObject({ status: 'cancelled', nextBillingDate: null });
    expect(cancelled.cancelledAt).not.toBeNull();
    expect((await sk.invoices.list({ subscriptionId: id })).data.map((i) => i.status)).toEqual(['void']);
    expect(await sk.subscriptions.cancel(id)).toEqual(cancelled);
  });

  it('past_due is computed when read (an invoice unpaid after its due date); paying it makes the subscription active', async () => {
    const customer = await sk.customers.create({ externalUserId: orderId('user'), phone: '22123456' });
    // Started 40 days ago: two periods billed at once, the first one already due.
    const subscription = await sk.subscriptions.create({
      customerId: customer.id,
      priceId: price.id,
      startedAt: new Date(Date.now() - 40 * DAY).toISOString(),
    });
    expect(subscription.status).toBe('past_due');
    expect((await sk.subscriptions.get(subscription.id)).status).toBe('past_due');
    const overdue = await sk.subscriptions.list({ status: 'past_due' });
    expect(overdue.data.map((s) => s.id)).toContain(subscription.id);

    const invoices = (await sk.invoices.list({ subscriptionId: subscription.id })).data;
    expect(invoices).toHaveLength(2);
    const first = invoices.find((i) => Date.parse(i.dueDate!) < Date.now())!;
    const payment = await pk.payments.pay({
      transactionId: first.id,
      phoneNumber: '22123456',
      paymentMethodId: await methodId('sedad'),
    });
    expect(payment.status).toBe('completed');
    expect((await sk.invoices.get(first.id)).status).toBe('paid');
    expect((await sk.subscriptions.get(subscription.id)).status).toBe('active');
    expect((await sk.subscriptions.list({ status: 'past_due' })).data.map((s) => s.id)).not.toContain(
      subscription.id,
    );
  });

  it('subscriptions.list and invoices.list page; iterating walks every page', async () => {
    const mine = await newTenant(t);
    const k = client(baseUrlOf(t), mine.sandbox.secretKey, { fetch: recordingFetch(answers) });
    const product = await k.products.create({ name: 'Weekly' });
    const weekly = await k.prices.create({ productId: product.id, amount: 700, interval: 'weekly' });
    const externalUserId = orderId('user');
    const ids: string[] = [];
    for (let i = 0; i < 5; i++)
      ids.push((await k.subscriptions.createByExternalUser({ externalUserId, priceId: weekly.id })).id);

    expect((await k.subscriptions.list({ limit: 2 })).pagination).toEqual({
      page: 1,
      limit: 2,
      total: 5,
      totalPages: 3,
    });
    const subscriptions: string[] = [];
    for await (const s of k.subscriptions.list({ limit: 2, status: 'active' })) subscriptions.push(s.id);
    expect(subscriptions.sort()).toEqual([...ids].sort());

    expect((await k.invoices.list({ externalUserId, limit: 2 })).pagination.totalPages).toBe(3);
    const invoices: string[] = [];
    for await (const i of k.invoices.list({ externalUserId, limit: 2 })) invoices.push(i.subscriptionId);
    expect(invoices.sort()).toEqual([...ids].sort());
  });

  it('sandbox.runBilling bills the periods that have started in the environment', async () => {
    const mine = await newTenant(t);
    const k = client(baseUrlOf(t), mine.sandbox.secretKey, { fetch: recordingFetch(answers) });
    const product = await k.products.create({ name: 'Weekly' });
    const weekly = await k.prices.create({ productId: product.id, amount: 700, interval: 'weekly' });
    const subscription = await k.subscriptions.createByExternalUser({
      externalUserId: orderId('user'),
      priceId: weekly.id,
    });
    expect(await k.sandbox.runBilling()).toEqual({ invoicesCreated: 0, subscriptionsUpdated: 0 });
    await timeTravel(t, subscription.id, 7 * DAY + 1000);
    expect(await k.sandbox.runBilling()).toEqual({ invoicesCreated: 1, subscriptionsUpdated: 1 });
    expect((await k.invoices.list({ subscriptionId: subscription.id })).pagination.total).toBe(2);
  });
});
