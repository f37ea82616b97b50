import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import * as ts from 'typescript';
import type { Khoums, PaymentMethod } from '../../sdk/src';
import { CLI_ACTOR } from '../../src/admin/audit-log.repository';
import { OperatorActionsService } from '../../src/admin/operator-actions.service';
import type { CreatedOrganization } from '../../src/organizations/organizations.service';
import { newTenant, privateDatabase, startTestApp, TestApp } from '../helpers/app';
import { waitFor } from '../helpers/poll';
import { Receiver, WORKER_ENV } from '../webhooks/receiver';
import {
  Answer,
  answerProblems,
  baseUrlOf,
  client,
  declaredFields,
  Exchange,
  orderId,
  presentFields,
  routeOf,
  tracingFetch,
} from './helpers';
import { generateTypes, OpenApiDocument, routesOf, routesWithoutResponseSchema } from './openapi-types';

/**
 * The client library and the service agree on every route and field, both ways:
 * - the library's types are generated from the running service's OpenAPI document (whose schemas
 *   are the service's record classes and DTOs), and its sources type-check against them;
 * - every public method of the library is called here, on the real service: each sends requests
 *   to routes of the document only, and together they reach every route of the document;
 * - every answer carries no field its record in the document lacks and every field it requires,
 *   and every field the document declares for an answer is sent by the service at least once.
 */

const SDK = resolve(__dirname, '../../sdk');
const GENERATED = join(SDK, 'src/api.generated.ts');

/** Routes of the document the library reaches another way (the alias of GET /configuration). */
const NOT_CALLED = new Set(['GET /payment-methods']);

let t: TestApp;
let db: { url: string; drop(): Promise<void> };
let doc: OpenApiDocument;
let org: CreatedOrganization;
const receiver = new Receiver();

beforeAll(async () => {
  // A database of its own with the webhook worker on, so a delivery has attempts to list.
  db = await privateDatabase();
  t = await startTestApp({ ...WORKER_ENV, SANDBOX_BANK_TIMEOUT_MS: '300', PAYOUT_DELAY_DAYS: '0' }, db.url);
  doc = (await t.http.get('/api/docs-json').expect(200)).body;
  org = await newTenant(t);
  // A platform, so that its key reaches the connected accounts' routes.
  await t.query('UPDATE organizations SET platform = true WHERE id = $1', [org.organizationId]);
  // A payout account, so that the organization's answer carries every field it declares.
  await t.app.get(OperatorActionsService).setApprovedPayoutAccount(CLI_ACTOR, org.organizationId, {
    bank: 'BNM',
    holderName: 'Agreement SARL',
    iban: 'MR1300020001010000123456753',
  });
  await receiver.start();
});
afterAll(async () => {
  await receiver.stop();
  await t?.close();
  await db?.drop();
});

describe('types', () => {
  it('every route of /api/v1 declares its 200 answer in the OpenAPI document', () => {
    expect(routesWithoutResponseSchema(doc)).toEqual([]);
  });

  it("the library's generated types are exactly those of the running service's OpenAPI document", () => {
    const generated = generateTypes(doc);
    if (process.env.UPDATE_SDK_TYPES) writeFileSync(GENERATED, generated);
    // On a difference: the service changed (or the library's file was edited). Regenerate with
    // UPDATE_SDK_TYPES=1 npx jest test/sdk/openapi-agreement, then fix what the type check reports.
    expect(readFileSync(GENERATED, 'utf8')).toEqual(generated);
  });

  it("the library's sources type-check against the generated types (strict), with no type written by hand for a route", () => {
    const config = ts.readConfigFile(join(SDK, 'tsconfig.json'), ts.sys.readFile);
    const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, SDK);
    const program = ts.createProgram(parsed.fileNames, { ...parsed.options, noEmit: true });
    const diagnostics = ts
      .getPreEmitDiagnostics(program)
      .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    expect(diagnostics).toEqual([]);
    // Transport.call and .download take `keyof Operations` (generated): a route the document lacks does not compile.
    const transport = readFileSync(join(SDK, 'src/transport.ts'), 'utf8');
    expect(transport).toMatch(/\bcall<K extends keyof Operations>/);
    expect(transport).toMatch(/\bdownload<K extends keyof Operations>/);
  });
});

/** The public methods of the client: `resource.method`, found on the resources' prototypes. */
function publicMethods(k: Khoums): string[] {
  return Object.entries(k).flatMap(([resource, value]) => {
    const proto = Object.getPrototypeOf(value) as object;
    if (resource === 'webhooks' || proto === Object.prototype) return [];
    return Object.getOwnPropertyNames(proto)
      .filter((m) => m !== 'constructor')
      .map((m) => `${resource}.${m}`);
  });
}

describe('every method on the real service', () => {
  /** The clients whose requests are traced; set-up goes through `plain`, which is not. */
  interface Traced {
    sk: Khoums;
    pk: Khoums;
    keyless: Khoums;
  }
  let traced: Traced;
  let plain: Khoums;
  let exchanges: Exchange[];
  /** Each method's requests. */
  const sent = new Map<string, Exchange[]>();

  const urls = {
    successUrl: 'https://shop.example/thanks',
    cancelUrl: 'https://shop.example/cart',
    expiresInMinutes: 30,
  };
  const DAY = 86_400_000;

  // What the calls make and later calls use.
  const w = {} as {
    methods: Record<PaymentMethod['type'], string>;
    request: { id: string; transactionId: string };
    payment: { id: string };
    transfer: { id: string };
    session: { id: string };
    ownScreen: { id: string; paymentId: string };
    product: { id: string };
    price: { id: string };
    customer: { id: string; externalUserId: string };
    subscription: { id: string };
    externalUserId: string;
    endpoint: { id: string };
    delivery: { id: string };
    account: { id: string };
    refund: { id: string };
    payout: { id: string };
    link: { id: string };
  };

  /** One entry per public method, run in this order; each calls its method with a traced client. */
  const calls: Array<[string, (k: Traced) => Promise<unknown>]> = [
    // The transfer method on first, so the lists show it and the session's pay answers instructions.
    ['paymentMethods.configureGimtel', ({ sk }) => sk.paymentMethods.configureGimtel({ enabled: true })],
    [
      'paymentMethods.list',
      async ({ pk }) => {
        const methods = await pk.paymentMethods.list({ isTestingMode: true });
        w.methods = Object.fromEntries(methods.map((m) => [m.type, m.id])) as never;
      },
    ],
    [
      'paymentRequests.create',
      async ({ sk }) => {
        w.request = await sk.paymentRequests.create({
          transactionId: orderId('agree'),
          amount: 1500,
          phoneNumber: '22123456',
        });
      },
    ],
    ['paymentRequests.get', ({ sk }) => sk.paymentRequests.get(w.request.id)],
    [
      'paymentRequests.getByTransactionId',
      async ({ sk, pk }) => {
        await sk.paymentRequests.getByTransactionId(w.request.transactionId);
        await pk.paymentRequests.getByTransactionId(w.request.transactionId);
      },
    ],
    ['paymentRequests.list', ({ sk }) => sk.paymentRequests.list({ limit: 5 })],
    [
      'payments.pay',
      async ({ pk }) => {
        // 9003: pending until a simulated transfer completes it.
        w.payment = await pk.payments.pay({
          transactionId: w.request.transactionId,
          phoneNumber: '22229003',
          paymentMethodId: w.methods.masrivi,
        });
      },
    ],
    ['paymentRequests.refreshStatus', ({ sk }) => sk.paymentRequests.refreshStatus(w.request.transactionId)],
    ['payments.get', ({ sk }) => sk.payments.get(w.payment.id)],
    ['payments.getStatus', ({ sk }) => sk.payments.getStatus(w.payment.id)],
    ['paymentMethods.get', ({ pk }) => pk.paymentMethods.get(w.methods.gimtel)],
    ['payments.list', ({ sk }) => sk.payments.list({ transactionId: w.request.transactionId })],
    ['payments.simulateTransfer', ({ sk }) => sk.payments.simulateTransfer(w.payment.id)],
    [
      'paymentRequests.waitForPayment',
      ({ sk }) => sk.paymentRequests.waitForPayment(w.request.transactionId, { timeout: 10_000 }),
    ],
    [
      'checkoutSessions.create',
      async ({ sk }) => {
        const { data } = await sk.checkoutSessions.create({
          transactionId: orderId('agree'),
          amount: 900,
          phoneNumber: '22123456',
          ...urls,
        });
        w.session = data;
      },
    ],
    ['checkoutSessions.get', ({ sk }) => sk.checkoutSessions.get(w.session.id)],
    ['checkoutSessions.getPublic', ({ keyless }) => keyless.checkoutSessions.getPublic(w.session.id)],
    [
      'checkoutSessions.getPaymentStatus',
      async ({ keyless }) => {
        await keyless.checkoutSessions.getPaymentStatus(w.session.id);
        // Once paid, the answer also says where the page sends the customer.
        const { data } = await plain.checkoutSessions.get(w.session.id);
        const request = await plain.paymentRequests.get(data.paymentRequestId);
        await plain.payments.pay({
          transactionId: request.transactionId,
          phoneNumber: '22222222',
          paymentMethodId: w.methods.sedad,
        });
        await keyless.checkoutSessions.getPaymentStatus(w.session.id);
      },
    ],
    // After the payment above: the view carries the newest payment.
    ['checkoutSessions.getPublicView', ({ keyless }) => keyless.checkoutSessions.getPublicView(w.session.id)],
    [
      'checkoutSessions.switchMethod',
      async ({ keyless }) => {
        const { data } = await plain.checkoutSessions.create({
          transactionId: orderId('agree'),
          amount: 800,
          phoneNumber: '22123456',
          ...urls,
        });
        w.ownScreen = { id: data.id, paymentId: '' };
        await keyless.checkoutSessions.switchMethod(data.id, w.methods.masrivi);
      },
    ],
    [
      'checkoutSessions.pay',
      async ({ keyless }) => {
        // By transfer: pending with its instructions until the simulated transfer below.
        const paid = await keyless.checkoutSessions.pay(w.ownScreen.id, {
          paymentMethodId: w.methods.gimtel,
          phoneNumber: '22229003',
        });
        w.ownScreen.paymentId = paid.paymentId;
      },
    ],
    [
      'checkoutSessions.simulateTransfer',
      ({ keyless }) => keyless.checkoutSessions.simulateTransfer(w.ownScreen.id, w.ownScreen.paymentId),
    ],
    [
      'checkoutSessions.expire',
      async ({ sk }) => {
        const { data } = await plain.checkoutSessions.create({
          transactionId: orderId('agree'),
          amount: 700,
          phoneNumber: '22123456',
          ...urls,
        });
        await sk.checkoutSessions.expire(data.id);
      },
    ],
    [
      'products.create',
      async ({ sk }) => {
        w.product = await sk.products.create({ name: 'Pro', description: 'The pro plan' });
      },
    ],
    [
      'prices.create',
      async ({ sk }) => {
        w.price = await sk.prices.create({ productId: w.product.id, amount: 5000, interval: 'monthly' });
      },
    ],
    [
      'paymentLinks.create',
      async ({ sk }) => {
        w.link = await sk.paymentLinks.create({ name: 'Thiéboudienne', amount: 1500, maxPayments: 10 });
      },
    ],
    ['paymentLinks.get', ({ sk }) => sk.paymentLinks.get(w.link.id)],
    ['paymentLinks.list', ({ sk }) => sk.paymentLinks.list({ active: 'true', limit: 5 })],
    ['paymentLinks.update', ({ sk }) => sk.paymentLinks.update(w.link.id, { successMessage: 'Merci !' })],
    ['paymentLinks.deactivate', ({ sk }) => sk.paymentLinks.deactivate(w.link.id)],
    ['products.get', ({ sk }) => sk.products.get(w.product.id)],
    ['products.list', ({ sk }) => sk.products.list({ limit: 5 })],
    ['products.update', ({ sk }) => sk.products.update(w.product.id, { description: null })],
    [
      'products.archive',
      async ({ sk }) => sk.products.archive((await plain.products.create({ name: 'Old plan' })).id),
    ],
    ['prices.get', ({ sk }) => sk.prices.get(w.price.id)],
    ['prices.update', ({ sk }) => sk.prices.update(w.price.id, { amount: 5500 })],
    [
      'prices.archive',
      async ({ sk }) =>
        sk.prices.archive(
          (await plain.prices.create({ productId: w.product.id, amount: 100, interval: 'weekly' })).id,
        ),
    ],
    [
      'customers.create',
      async ({ sk }) => {
        w.customer = await sk.customers.create({ externalUserId: orderId('user'), phone: '33445566' });
      },
    ],
    ['customers.list', ({ sk }) => sk.customers.list({ externalUserId: w.customer.externalUserId })],
    ['customers.update', ({ sk }) => sk.customers.update(w.customer.id, { phone: '44556677' })],
    [
      'subscriptions.create',
      async ({ sk }) => {
        // Started 40 days ago: two periods billed at once, the first one overdue (past_due).
        w.subscription = await sk.subscriptions.create({
          customerId: w.customer.id,
          priceId: w.price.id,
          startedAt: new Date(Date.now() - 40 * DAY).toISOString(),
        });
      },
    ],
    ['subscriptions.get', ({ sk }) => sk.subscriptions.get(w.subscription.id)],
    ['subscriptions.list', ({ sk }) => sk.subscriptions.list({ status: 'past_due' })],
    [
      'subscriptions.createByExternalUser',
      async ({ sk }) => {
        w.externalUserId = orderId('user');
        await sk.subscriptions.createByExternalUser({
          externalUserId: w.externalUserId,
          priceId: w.price.id,
          phone: '22334455',
          trial: true,
          trialPeriod: '1_week',
          expiresAt: new Date(Date.now() + 400 * DAY).toISOString(),
        });
      },
    ],
    ['subscriptions.getByExternalUser', ({ sk }) => sk.subscriptions.getByExternalUser(w.externalUserId)],
    ['subscriptions.pause', ({ sk }) => sk.subscriptions.pause(w.subscription.id)],
    ['subscriptions.resume', ({ sk }) => sk.subscriptions.resume(w.subscription.id)],
    [
      'coupons.create',
      ({ sk }) => sk.coupons.create({ code: `SDK-${Date.now()}`, percentOff: 10, duration: 'forever' }),
    ],
    ['coupons.list', ({ sk }) => sk.coupons.list()],
    ['coupons.get', async ({ sk }) => sk.coupons.get((await sk.coupons.list()).data[0].id)],
    [
      'subscriptions.applyDiscount',
      async ({ sk }) =>
        sk.subscriptions.applyDiscount(w.subscription.id, { coupon: (await sk.coupons.list()).data[0].id }),
    ],
    ['subscriptions.removeDiscount', ({ sk }) => sk.subscriptions.removeDiscount(w.subscription.id)],
    ['coupons.archive', async ({ sk }) => sk.coupons.archive((await sk.coupons.list()).data[0].id)],
    [
      'testClocks.create',
      ({ sk }) => sk.testClocks.create({ frozenTime: '2025-01-01T00:00:00Z', name: 'SDK' }),
    ],
    ['testClocks.list', ({ sk }) => sk.testClocks.list()],
    ['testClocks.get', async ({ sk }) => sk.testClocks.get((await sk.testClocks.list()).data[0].id)],
    [
      'testClocks.advance',
      async ({ sk }) =>
        sk.testClocks.advance((await sk.testClocks.list()).data[0].id, {
          frozenTime: '2025-02-01T00:00:00Z',
        }),
    ],
    ['testClocks.delete', async ({ sk }) => sk.testClocks.delete((await sk.testClocks.list()).data[0].id)],
    [
      'transfers.simulate',
      async ({ sk }) => {
        w.transfer = await sk.transfers.simulate({ payerPhone: '22229077', amount: 1500, memo: 'sdk' });
      },
    ],
    ['transfers.list', ({ sk }) => sk.transfers.list({ status: 'unmatched' })],
    ['transfers.get', ({ sk }) => sk.transfers.get(w.transfer.id)],
    [
      'transfers.assign',
      async ({ sk }) => {
        const request = await plain.paymentRequests.create({
          transactionId: orderId('assign'),
          amount: 1500,
        });
        await sk.transfers.assign(w.transfer.id, { paymentRequestId: request.id });
      },
    ],
    [
      'transfers.return',
      async ({ sk }) =>
        sk.transfers.return((await plain.transfers.simulate({ payerPhone: '22229078', amount: 1500 })).id),
    ],
    [
      'subscriptions.change',
      ({ sk }) => sk.subscriptions.change(w.subscription.id, { quantity: 2, at: 'period_end' }),
    ],
    ['invoices.list', ({ sk }) => sk.invoices.list({ subscriptionId: w.subscription.id })],
    [
      'invoices.get',
      async ({ sk }) => {
        const [invoice] = (await plain.invoices.list({ subscriptionId: w.subscription.id })).data;
        await sk.invoices.get(invoice.id);
      },
    ],
    [
      'invoices.pdf',
      async ({ sk }) => {
        const [invoice] = (await plain.invoices.list({ subscriptionId: w.subscription.id })).data;
        const bytes = await sk.invoices.pdf(invoice.id, { lang: 'ar' });
        expect(Buffer.from(bytes.subarray(0, 5)).toString('latin1')).toBe('%PDF-');
      },
    ],
    [
      'invoices.recordPayment',
      async ({ sk }) => {
        const [invoice] = (await plain.invoices.list({ subscriptionId: w.subscription.id })).data;
        await sk.invoices.recordPayment(invoice.id, { amount: 1, method: 'cash', reference: 'R-1' });
      },
    ],
    ['billingSettings.get', ({ sk }) => sk.billingSettings.get()],
    [
      'billingSettings.update',
      ({ sk }) =>
        sk.billingSettings.update({ reminders: { beforeDueDays: [5] }, dunning: { afterDaysOverdue: 30 } }),
    ],
    [
      'portalSessions.create',
      ({ sk }) =>
        sk.portalSessions.create({ customerId: w.customer.id, returnUrl: 'https://shop.example/account' }),
    ],
    ['subscriptions.cancel', ({ sk }) => sk.subscriptions.cancel(w.subscription.id, { atPeriodEnd: true })],
    ['sandbox.runBilling', ({ sk }) => sk.sandbox.runBilling()],
    [
      'refunds.create',
      async ({ sk }) => {
        // The payment the simulated transfer completed.
        w.refund = await sk.refunds.create({ paymentId: w.payment.id, amount: 100, reason: 'agreement' });
      },
    ],
    ['refunds.get', ({ sk }) => sk.refunds.get(w.refund.id)],
    ['refunds.list', ({ sk }) => sk.refunds.list({ paymentId: w.payment.id })],
    ['balance.retrieve', ({ sk }) => sk.balance.retrieve()],
    ['balanceTransactions.list', ({ sk }) => sk.balanceTransactions.list({ type: 'refund' })],
    [
      'payouts.create',
      async ({ sk }) => {
        // The payment's money is available at once here (PAYOUT_DELAY_DAYS=0).
        w.payout = await sk.payouts.create({ amount: 500 });
      },
    ],
    ['payouts.get', ({ sk }) => sk.payouts.get(w.payout.id)],
    ['payouts.list', ({ sk }) => sk.payouts.list({ status: 'paid' })],
    ['payoutSchedule.retrieve', ({ sk }) => sk.payoutSchedule.retrieve()],
    [
      'payoutSchedule.update',
      ({ sk }) => sk.payoutSchedule.update({ interval: 'weekly', weeklyDay: 'friday' }),
    ],
    ['sandbox.runPayouts', ({ sk }) => sk.sandbox.runPayouts()],
    [
      'reports.settlement',
      ({ sk }) => {
        const today = new Date().toISOString().slice(0, 10);
        return sk.reports.settlement({ from: today, to: today });
      },
    ],
    ['organization.get', ({ sk }) => sk.organization.get()],
    ['organization.getById', ({ sk }) => sk.organization.getById(org.organizationId)],
    [
      'accounts.create',
      async ({ sk }) => {
        w.account = await sk.accounts.create({
          name: 'Connected Shop',
          email: `${orderId('shop')}@example.mr`,
        });
      },
    ],
    ['accounts.list', ({ sk }) => sk.accounts.list()],
    ['accounts.get', ({ sk }) => sk.accounts.get(w.account.id)],
    [
      'accounts.createOnboardingLink',
      ({ sk }) =>
        sk.accounts.createOnboardingLink(w.account.id, {
          returnUrl: 'https://shop.example/onboarded',
          refreshUrl: 'https://shop.example/onboarding',
        }),
    ],
    [
      'webhookEndpoints.create',
      async ({ sk }) => {
        w.endpoint = await sk.webhookEndpoints.create({ url: receiver.url, events: ['payment-updated'] });
      },
    ],
    ['webhookEndpoints.get', ({ sk }) => sk.webhookEndpoints.get(w.endpoint.id)],
    ['webhookEndpoints.list', ({ sk }) => sk.webhookEndpoints.list()],
    ['webhookEndpoints.update', ({ sk }) => sk.webhookEndpoints.update(w.endpoint.id, { enabled: true })],
    ['webhookEndpoints.rotateSecret', ({ sk }) => sk.webhookEndpoints.rotateSecret(w.endpoint.id)],
    [
      'webhookEndpoints.sendTestEvent',
      async ({ sk }) => {
        w.delivery = await sk.webhookEndpoints.sendTestEvent(w.endpoint.id);
      },
    ],
    ['webhookDeliveries.list', ({ sk }) => sk.webhookDeliveries.list({ endpointId: w.endpoint.id })],
    ['webhookDeliveries.get', ({ sk }) => sk.webhookDeliveries.get(w.delivery.id)],
    [
      'webhookDeliveries.listAttempts',
      async ({ sk }) => {
        // The worker delivers the test event to the receiver: one attempt to list.
        await waitFor(
          async () => (await plain.webhookDeliveries.get(w.delivery.id)).attempts > 0,
          'the test delivery attempted',
        );
        await sk.webhookDeliveries.listAttempts(w.delivery.id);
      },
    ],
    ['webhookDeliveries.retry', ({ sk }) => sk.webhookDeliveries.retry(w.delivery.id)],
    [
      'webhookEndpoints.delete',
      async ({ sk }) =>
        sk.webhookEndpoints.delete(
          (await plain.webhookEndpoints.create({ url: 'https://shop.example/old', enabled: false })).id,
        ),
    ],
  ];

  beforeAll(async () => {
    exchanges = [];
    const fetch = tracingFetch(exchanges);
    const base = baseUrlOf(t);
    traced = {
      sk: client(base, org.sandbox.secretKey, { fetch }),
      pk: client(base, org.sandbox.publishableKey, { fetch }),
      keyless: client(base, 'pk_test_unused', { fetch }),
    };
    plain = client(base, org.sandbox.secretKey);
    for (const [method, call] of calls) {
      const from = exchanges.length;
      await call(traced);
      sent.set(method, exchanges.slice(from));
    }
  });

  it('calls every public method of the library, once each', () => {
    expect(calls.map(([m]) => m).sort()).toEqual(publicMethods(traced.sk).sort());
    expect(new Set(calls.map(([m]) => m)).size).toBe(calls.length);
  });

  it('every method sends its requests to routes of the document only, and they succeed', () => {
    const strays = [...sent].flatMap(([method, list]) =>
      list.filter((e) => !routeOf(doc, e.method, e.url)).map((e) => `${method}: ${e.method} ${e.url}`),
    );
    expect(strays).toEqual([]);
    const failed = [...sent].flatMap(([method, list]) =>
      list.filter((e) => e.status !== 200).map((e) => `${method}: ${e.method} ${e.url} → ${e.status}`),
    );
    expect(failed).toEqual([]);
    expect([...sent].filter(([, list]) => list.length === 0).map(([m]) => m)).toEqual([]);
  });

  it('together the methods call every route of the document', () => {
    const called = new Set(exchanges.map((e) => routeOf(doc, e.method, e.url)));
    const documented = [...routesOf(doc).keys()];
    expect(documented.filter((r) => !called.has(r) && !NOT_CALLED.has(r))).toEqual([]);
  });

  it('no answer carries a field its record in the document lacks, or lacks one the record requires', () => {
    // Documents (the PDF invoice) are bytes: their route declares no JSON record.
    const records = exchanges.filter((e) => e.document === undefined);
    expect(exchanges.filter((e) => e.document !== undefined).map((e) => e.document)).toEqual([
      'application/pdf',
    ]);
    const answers: Answer[] = records.filter((e) => e.status === 200).map((e) => ({ ...e, body: e.body }));
    expect(answers).toHaveLength(records.length);
    expect(answerProblems(doc, answers)).toEqual([]);
  });

  it('every field the document declares for an answer is sent by the service', () => {
    const routes = routesOf(doc);
    const declared = new Set<string>();
    const present = new Set<string>();
    for (const e of exchanges.filter((x) => x.document === undefined)) {
      const route = routeOf(doc, e.method, e.url)!;
      for (const f of declaredFields(doc, route)) declared.add(f);
      const schema = routes.get(route)!.responses!['200'].content!['application/json'].schema!;
      presentFields(doc, e.body, schema, route, present);
    }
    expect(declared.size).toBeGreaterThan(200);
    expect([...declared].filter((f) => !present.has(f)).sort()).toEqual([]);
  });
});

it('the answer check catches a field the document lacks, a missing one and a wrong type', () => {
  const answer = (body: unknown): Answer => ({
    method: 'GET',
    url: 'http://127.0.0.1/api/v1/payment-methods',
    status: 200,
    body,
  });
  const method = {
    id: 'x',
    type: 'sedad',
    name: 'Sedad',
    requiresPassCode: false,
    flow: 'push',
    config: { code: 'sedad' },
    organizationId: 'o',
    isTestingMode: true,
  };
  expect(answerProblems(doc, [answer({ data: [method] })])).toEqual([]);
  expect(answerProblems(doc, [answer({ data: [{ ...method, extra: 1 }] })])).toEqual([
    'GET /payment-methods: $.data[0].extra is not in the document',
  ]);
  const nameless: Partial<typeof method> = { ...method, requiresPassCode: 'no' as never };
  delete nameless.name;
  expect(answerProblems(doc, [answer({ data: [nameless] })])).toEqual([
    'GET /payment-methods: $.data[0].name is missing',
    'GET /payment-methods: $.data[0].requiresPassCode is not a boolean',
  ]);
});

it('the field check names a declared field no answer carried', () => {
  const route = 'GET /payment-request/by-transaction/{transactionId}';
  const schema = routesOf(doc).get(route)!.responses!['200'].content!['application/json'].schema!;
  const present = new Set<string>();
  presentFields(doc, { data: { id: 'x', amount: 1, phoneNumber: null } }, schema, route, present);
  expect([...present].sort()).toEqual([
    `${route}.data`,
    'PublicPaymentRequest.amount',
    'PublicPaymentRequest.id',
    'PublicPaymentRequest.phoneNumber',
  ]);
  const missing = [...declaredFields(doc, route)].filter((f) => !present.has(f));
  expect(missing).toContain('PaymentRequest.transactionId');
  expect(missing).toContain('PaymentRequest.invoiceId');
  expect(declaredFields(doc, 'POST /sandbox/billing/run')).toEqual(
    new Set([
      'POST /sandbox/billing/run.data',
      'BillingRun.invoicesCreated',
      'BillingRun.subscriptionsUpdated',
    ]),
  );
});
