import type { Khoums, PaymentRequest } from '../../sdk/src';
import type { CreatedOrganization } from '../../src/organizations/organizations.service';
import { newTenant, startTestApp, TestApp } from '../helpers/app';
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
    expect(await sk.payments.get(payment.id)).toEqual(payment);
    const listed = await sk.payments.list({ transactionId: pr.transactionId });
    expect(listed.data).toEqual([payment]);
    const all = [];
    for await (const p of sk.payments.list({ paymentRequestId: pr.id, limit: 1 })) all.push(p);
    expect(all).toEqual([payment]);
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
