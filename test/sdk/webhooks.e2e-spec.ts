import {
  constructEvent,
  Khoums,
  verifyWebhook,
  verifyWebhookSignature,
  WebhookSignatureError,
  type WebhookEvent,
} from '../../sdk/src';
import type { CreatedOrganization } from '../../src/organizations/organizations.service';
import { legacySignature, standardSignature, webhookHeaders } from '../../src/webhooks/signing';
import { newTenant, privateDatabase, startTestApp, TestApp } from '../helpers/app';
import { waitFor } from '../helpers/poll';
import { Hit, Receiver, WORKER_ENV } from '../webhooks/receiver';
import { baseUrlOf, client, orderId, schemaProblems } from './helpers';
import type { OpenApiDocument } from './openapi-types';

/**
 * The webhook helpers on real deliveries: the service's delivery worker posts events to a local
 * receiver, and the library verifies them over the raw bytes received. A database of its own, so
 * this suite's worker delivers only its own events.
 */

let t: TestApp;
let db: { url: string; drop(): Promise<void> };
let doc: OpenApiDocument;
let org: CreatedOrganization;
let sk: Khoums;
const receiver = new Receiver();
let secret: string;

beforeAll(async () => {
  db = await privateDatabase();
  t = await startTestApp(WORKER_ENV, db.url);
  doc = (await t.http.get('/api/docs-json').expect(200)).body;
  org = await newTenant(t);
  sk = client(baseUrlOf(t), org.sandbox.secretKey);
  await receiver.start();
  const endpoint = await sk.webhookEndpoints.create({
    url: receiver.url,
    events: ['payment-created', 'payment-updated', 'payment-request-created', 'payment-request-updated'],
  });
  secret = endpoint.secret!;
});
afterAll(async () => {
  await receiver.stop();
  await t.close();
  await db.drop();
});

const schema = (name: string) => ({ $ref: `#/components/schemas/${name}` });

async function deliveryOf(kind: string, transactionId: string): Promise<Hit> {
  return waitFor(
    () =>
      receiver.hits.find(
        (h) =>
          h.body.event === kind &&
          (h.body.data as { transactionId?: string }).transactionId === transactionId,
      ),
    `${kind} for ${transactionId}`,
  );
}

it('constructEvent verifies real deliveries and returns typed events whose data match the records', async () => {
  const transactionId = orderId('hook');
  const pr = await sk.paymentRequests.create({ transactionId, amount: 2100 });
  const [sedad] = (await sk.paymentMethods.list()).filter((m) => m.type === 'sedad');
  const payment = await sk.payments.pay({
    transactionId,
    phoneNumber: '22222222',
    paymentMethodId: sedad.id,
  });

  const created = await deliveryOf('payment-request-created', transactionId);
  const event = await constructEvent(created.raw, created.headers, secret);
  expect(event).toMatchObject({ id: created.headers['webhook-id'], event: 'payment-request-created' });
  if (event.event !== 'payment-request-created') throw new Error('narrowing');
  expect(event.data.id).toBe(pr.id);
  expect(schemaProblems(event.data, schema('PaymentRequestJson'), doc)).toEqual([]);

  const hit = await deliveryOf('payment-updated', transactionId);
  const paid: WebhookEvent = await sk.webhooks.constructEvent(hit.raw.toString('utf8'), hit.headers, secret);
  if (paid.event !== 'payment-updated') throw new Error(`unexpected ${paid.event}`);
  // Fulfilment rule (reaching successUrl proves nothing): a payment with status completed, matched by transactionId.
  expect(paid.data).toMatchObject({ id: payment.id, status: 'completed', transactionId });
  expect(paid.data.request).toMatchObject({ id: pr.id, status: 'paid' });
  const { request, ...paymentData } = paid.data;
  expect(schemaProblems(paymentData, schema('PaymentJson'), doc)).toEqual([]);
  expect(schemaProblems(request, schema('PaymentRequestJson'), doc)).toEqual([]);

  // The same delivery through a Fetch `Headers` and as an ArrayBuffer.
  const headers = new Headers(Object.entries(hit.headers).map(([k, v]) => [k, String(v)]));
  const bytes = hit.raw.buffer.slice(hit.raw.byteOffset, hit.raw.byteOffset + hit.raw.length) as ArrayBuffer;
  expect((await verifyWebhook(bytes, headers, secret)) ?? 'verified').toBe('verified');
  expect(await verifyWebhookSignature(hit.raw, hit.headers['x-webhook-signature'] as string, secret)).toBe(
    true,
  );
});

it('constructEvent types the billing and checkout events of real deliveries as the records of the document', async () => {
  const endpoint = await sk.webhookEndpoints.create({
    url: receiver.url,
    events: [
      'subscription-created',
      'subscription-updated',
      'invoice-created',
      'invoice-paid',
      'checkout-session-completed',
    ],
  });
  const product = await sk.products.create({ name: 'Plan' });
  const price = await sk.prices.create({ productId: product.id, amount: 2500, interval: 'monthly' });
  const subscription = await sk.subscriptions.createByExternalUser({
    externalUserId: orderId('user'),
    phone: '22123456',
    priceId: price.id,
  });
  const [invoice] = (await sk.invoices.list({ subscriptionId: subscription.id })).data;
  const [sedad] = (await sk.paymentMethods.list()).filter((m) => m.type === 'sedad');
  await sk.payments.pay({ transactionId: invoice.id, phoneNumber: '22123456', paymentMethodId: sedad.id });
  const { data: session } = await sk.checkoutSessions.create({
    transactionId: orderId('hook'),
    amount: 300,
    phoneNumber: '22123456',
    successUrl: 'https://shop.example/ok',
    cancelUrl: 'https://shop.example/ko',
    expiresInMinutes: 30,
  });
  const pr = await sk.paymentRequests.get(session.paymentRequestId);
  await sk.payments.pay({
    transactionId: pr.transactionId,
    phoneNumber: '22123456',
    paymentMethodId: sedad.id,
  });

  /** The verified event of a kind about an object (only this endpoint receives these kinds). */
  async function verified(kind: string, id: string): Promise<WebhookEvent> {
    const hit = await waitFor(
      () => receiver.hits.find((h) => h.body.event === kind && h.body.data.id === id),
      `${kind} for ${id}`,
    );
    return constructEvent(hit.raw, hit.headers, endpoint.secret!);
  }

  const created = await verified('subscription-created', subscription.id);
  if (created.event !== 'subscription-created') throw new Error('narrowing');
  expect(created.data).toMatchObject({
    id: subscription.id,
    status: 'active',
    startedAt: subscription.startedAt,
  });
  expect(schemaProblems(created.data, schema('SubscriptionJson'), doc)).toEqual([]);

  const billed = await verified('invoice-created', invoice.id);
  if (billed.event !== 'invoice-created') throw new Error('narrowing');
  expect(billed.data).toMatchObject({ id: invoice.id, subscriptionId: subscription.id, status: 'pending' });
  expect(schemaProblems(billed.data, schema('InvoiceJson'), doc)).toEqual([]);

  const paid = await verified('invoice-paid', invoice.id);
  if (paid.event !== 'invoice-paid') throw new Error('narrowing');
  expect(paid.data).toMatchObject({ id: invoice.id, status: 'paid', amount: '2500.00' });
  expect(schemaProblems(paid.data, schema('InvoiceJson'), doc)).toEqual([]);

  const completed = await verified('checkout-session-completed', session.id);
  if (completed.event !== 'checkout-session-completed') throw new Error('narrowing');
  expect(completed.data).toMatchObject({ id: session.id, status: 'completed' });
  expect(schemaProblems(completed.data, schema('CheckoutSessionJson'), doc)).toEqual([]);
});

describe('rejections (WebhookSignatureError)', () => {
  const body = JSON.stringify({
    id: '5b3f2d9e-8a41-4c1e-9b7a-0f6d2c1e4a55',
    event: 'payment-updated',
    createdAt: '2026-01-01T00:00:00.000Z',
    data: { id: 'p1', status: 'completed', transactionId: 'order_1' },
  });
  const key = 'whsec_' + Buffer.alloc(32, 7).toString('base64');
  const now = () => Math.floor(Date.now() / 1000);
  const signed = (timestamp = now(), raw = body, s = key) =>
    webhookHeaders({ id: 'evt_1', kind: 'payment-updated', body: Buffer.from(raw), timestamp, secret: s });

  async function rejection(call: Promise<unknown>): Promise<string> {
    try {
      await call;
    } catch (err) {
      expect(err).toBeInstanceOf(WebhookSignatureError);
      expect((err as Error).name).toBe('WebhookSignatureError');
      return (err as Error).message;
    }
    throw new Error('accepted');
  }

  it('accepts a fresh, well-signed delivery', async () => {
    expect((await constructEvent(body, signed(), key)).event).toBe('payment-updated');
  });

  it('rejects a body changed after signing, by one byte', async () => {
    expect(await rejection(constructEvent(body.replace('completed', 'completeD'), signed(), key))).toBe(
      'Webhook signature does not match',
    );
  });

  it('rejects a wrong secret', async () => {
    const other = 'whsec_' + Buffer.alloc(32, 9).toString('base64');
    expect(await rejection(constructEvent(body, signed(), other))).toBe('Webhook signature does not match');
  });

  it('rejects a timestamp older (or newer) than the tolerance, 300 s by default', async () => {
    expect(await rejection(constructEvent(body, signed(now() - 301), key))).toBe(
      'Webhook timestamp is outside the tolerance',
    );
    expect(await rejection(constructEvent(body, signed(now() + 301), key))).toBe(
      'Webhook timestamp is outside the tolerance',
    );
    expect((await constructEvent(body, signed(now() - 290), key)).id).toBeDefined();
    expect(await rejection(constructEvent(body, signed(now() - 60), key, { tolerance: 30 }))).toBe(
      'Webhook timestamp is outside the tolerance',
    );
  });

  it('rejects missing headers; x-webhook-signature alone only when allowed (it has no timestamp)', async () => {
    const legacyOnly = { 'x-webhook-signature': legacySignature(key, Buffer.from(body)) };
    expect(await rejection(constructEvent(body, {}, key))).toBe(
      'Missing or invalid webhook signature headers',
    );
    expect(await rejection(constructEvent(body, legacyOnly, key))).toBe(
      'Missing or invalid webhook signature headers',
    );
    expect((await constructEvent(body, legacyOnly, key, { allowLegacySignature: true })).event).toBe(
      'payment-updated',
    );
    const noTimestamp: Record<string, string> = signed();
    delete noTimestamp['webhook-timestamp'];
    expect(await rejection(constructEvent(body, noTimestamp, key))).toBe(
      'Missing webhook-id or webhook-timestamp header',
    );
  });

  it('rejects a body that is not an event of a known kind', async () => {
    for (const raw of ['not json', '{"id":"x","event":"gift-sent","createdAt":"x","data":{}}']) {
      const message = await rejection(constructEvent(raw, signed(now(), raw), key));
      expect(message).toMatch(/^Webhook body is not/);
    }
  });

  it('during a rotation, either secret verifies (both signatures are sent)', async () => {
    const previous = 'whsec_' + Buffer.alloc(32, 1).toString('base64');
    const timestamp = now();
    const headers = webhookHeaders({
      id: 'evt_2',
      kind: 'payment-updated',
      body: Buffer.from(body),
      timestamp,
      secret: key,
      previousSecret: previous,
    });
    expect((await constructEvent(body, headers, previous)).event).toBe('payment-updated');
    expect((await constructEvent(body, headers, [key, previous])).event).toBe('payment-updated');
    expect(headers['webhook-signature'].split(' ')).toEqual([
      standardSignature(key, 'evt_2', timestamp, Buffer.from(body)),
      standardSignature(previous, 'evt_2', timestamp, Buffer.from(body)),
    ]);
  });

  it('verifyWebhookSignature checks the sha256=<hex> header only', async () => {
    const sig = legacySignature(key, Buffer.from(body));
    expect(await verifyWebhookSignature(body, sig, key)).toBe(true);
    expect(await verifyWebhookSignature(body + ' ', sig, key)).toBe(false);
    expect(await verifyWebhookSignature(body, 'sha256=zz', key)).toBe(false);
    expect(await verifyWebhookSignature(body, undefined, key)).toBe(false);
  });
});
