import { startTestApp, TestApp } from '../helpers/app';

/**
 * The OpenAPI document describes every billing route's 200 with the record it returns, and each
 * record with all its fields: the client library's types are checked against it.
 */
let t: TestApp;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
let doc: any;
beforeAll(async () => {
  t = await startTestApp();
  doc = (await t.http.get('/api/docs-json')).body;
});
afterAll(() => t.close());

const schemaName = (ref: string) => ref.split('/').pop()!;

/** The record a route's 200 carries in `data`, and whether it is a list. */
function returned(method: string, path: string): { model: string; list: boolean } {
  const op = doc.paths[path]?.[method];
  if (!op) throw new Error(`no ${method.toUpperCase()} ${path} in the document`);
  const data = op.responses['200'].content['application/json'].schema.properties.data;
  return data.type === 'array'
    ? { model: schemaName(data.items.$ref), list: true }
    : { model: schemaName(data.$ref), list: false };
}

const fields = (model: string) => Object.keys(doc.components.schemas[model].properties).sort();

it.each([
  ['get', '/api/v1/products', 'ProductWithPricesJson', true],
  ['post', '/api/v1/products', 'ProductJson', false],
  ['get', '/api/v1/products/{id}', 'ProductWithPricesJson', false],
  ['patch', '/api/v1/products/{id}', 'ProductJson', false],
  ['patch', '/api/v1/products/{id}/archive', 'ProductJson', false],
  ['post', '/api/v1/prices', 'PriceJson', false],
  ['get', '/api/v1/prices/{id}', 'PriceJson', false],
  ['patch', '/api/v1/prices/{id}', 'PriceJson', false],
  ['patch', '/api/v1/prices/{id}/archive', 'PriceJson', false],
  ['get', '/api/v1/customers', 'CustomerJson', true],
  ['post', '/api/v1/customers', 'CustomerJson', false],
  ['patch', '/api/v1/customers/{id}', 'CustomerJson', false],
  ['get', '/api/v1/invoices', 'InvoiceJson', true],
  ['get', '/api/v1/invoices/{id}', 'InvoiceJson', false],
  ['get', '/api/v1/subscriptions', 'SubscriptionJson', true],
  ['post', '/api/v1/subscriptions', 'SubscriptionJson', false],
  ['get', '/api/v1/subscriptions/{id}', 'SubscriptionJson', false],
  ['post', '/api/v1/subscriptions/by-external-user', 'SubscriptionJson', false],
  ['get', '/api/v1/subscriptions/by-external-user/{externalUserId}', 'SubscriptionJson', false],
  ['post', '/api/v1/subscriptions/{id}/cancel', 'SubscriptionJson', false],
  ['post', '/api/v1/subscriptions/{id}/pause', 'SubscriptionJson', false],
  ['post', '/api/v1/subscriptions/{id}/resume', 'SubscriptionJson', false],
  ['post', '/api/v1/sandbox/billing/run', 'BillingRunJson', false],
])('%s %s answers 200 with %s (list: %p)', (method, path, model, list) => {
  expect(returned(method, path)).toEqual({ model, list });
});

it('describes each record with every field the API returns', () => {
  expect(fields('ProductJson')).toEqual(
    ['id', 'name', 'description', 'active', 'organizationId', 'environmentId', 'createdAt'].sort(),
  );
  expect(fields('ProductWithPricesJson')).toEqual([...fields('ProductJson'), 'prices'].sort());
  expect(fields('PriceJson')).toEqual(
    ['id', 'productId', 'amount', 'interval', 'active', 'createdAt'].sort(),
  );
  expect(fields('CustomerJson')).toEqual(
    [
      'id',
      'externalUserId',
      'phone',
      'language',
      'creditBalance',
      'organizationId',
      'testClockId',
      'createdAt',
    ].sort(),
  );
  expect(fields('InvoiceJson')).toEqual(
    [
      'id',
      'number',
      'customerId',
      'subscriptionId',
      'status',
      'amount',
      'subtotal',
      'discount',
      'creditApplied',
      'lines',
      'dueDate',
      'paymentRequestId',
      'checkoutUrl',
      'amountPaid',
      'amountDue',
      'manualPayments',
      'periodStart',
      'periodEnd',
      'organizationId',
      'environmentId',
      'createdAt',
    ].sort(),
  );
  expect(fields('SubscriptionJson')).toEqual(
    [
      'id',
      'customerId',
      'priceId',
      'quantity',
      'pendingChange',
      'discount',
      'status',
      'trialEnd',
      'startedAt',
      'currentPeriodStart',
      'currentPeriodEnd',
      'nextBillingDate',
      'expiresAt',
      'cancelledAt',
      'applicationFeeBps',
      'environmentId',
      'organizationId',
      'createdAt',
      'updatedAt',
    ].sort(),
  );
  expect(doc.components.schemas.InvoiceJson.properties.amount.type).toBe('string');
  expect(doc.components.schemas.SubscriptionJson.properties.status.enum).toEqual([
    'trialing',
    'active',
    'past_due',
    'paused',
    'pending_cancellation',
    'cancelled',
    'expired',
    'incomplete',
    'incomplete_expired',
  ]);
});

it('documents the subscription inputs: trial as a boolean or "trialing", trialPeriod as a name or days', () => {
  const ref = doc.paths['/api/v1/subscriptions'].post.requestBody.content['application/json'].schema.$ref;
  const input = doc.components.schemas[schemaName(ref)];
  expect(input.required.sort()).toEqual(['customerId', 'priceId']);
  expect(input.properties.trial.oneOf).toEqual([{ type: 'boolean' }, { type: 'string', enum: ['trialing'] }]);
  expect(input.properties.trialPeriod.oneOf).toEqual([
    { type: 'string', enum: ['1_week', '1_month', '1_year'] },
    { type: 'integer', minimum: 1, maximum: 730 },
  ]);
  expect(input.properties.startedAt.format).toBe('date-time');
});
