import { Client } from 'pg';
import { BillingRun } from '../../src/billing/billing-run';
import { ApiKeysService } from '../../src/organizations/api-keys.service';
import type { CreatedOrganization } from '../../src/organizations/organizations.service';
import { hashApiKey } from '../../src/organizations/secrets';
import { Renewals } from '../../src/subscriptions/renewals';
import type { Transfer } from '../../src/transfers/transfer';
import { TransfersService } from '../../src/transfers/transfers.service';
import { newTenant, startTestApp, TestApp, testDatabaseUrl } from '../helpers/app';
import { catalog, createSubscription, DAY, timeTravel } from '../helpers/billing';
import { waitFor } from '../helpers/poll';

/**
 * STYLE.md: no needless round trips on the hot paths. Counts the statements each request sends to
 * PostgreSQL (every pg query goes through Client.prototype.query), so a change that adds one fails here.
 * An API key is looked up once, then served from the instance's cache (docs/architecture.md, "The
 * API-key cache"): each test counts a first request (with the look-up) and, where it matters, a
 * second one (without). The cache's heartbeats on its listening connection are not the request's.
 */
let t: TestApp;
let org: CreatedOrganization;
beforeAll(async () => {
  t = await startTestApp();
  org = await newTenant(t);
  // Only the request's statements are counted: the app's own timers (the scheduled jobs, the keys'
  // last-used flush among them) are off in test apps (test/jobs/ checks it), so none adds its own.
});
afterAll(() => t.close());

function inCache(key: string): boolean {
  return t.app.get(ApiKeysService).cache.get(hashApiKey(key).toString('base64')) !== undefined;
}

/**
 * Before a count that expects the key cached. The request before it stored the key, unless a key
 * of another test ended while it was looked up (the cache then stores nothing: ApiKeyCache.set);
 * then one more look-up stores it. A cache that never stores fails here.
 */
async function keyCached(key: string): Promise<void> {
  for (let tries = 0; tries < 3 && !inCache(key); tries++)
    await t.http.get('/api/v1/payment-request/by-transaction/none').set('Authorization', key);
  expect(inCache(key)).toBe(true);
}

/** The statements a request sends; `cachedKey`: counted with that key in the cache. */
async function statementsFor(
  send: () => Promise<{ status: number }>,
  cachedKey?: string,
): Promise<{ status: number; statements: number }> {
  if (cachedKey) await keyCached(cachedKey);
  const spy = jest.spyOn(Client.prototype, 'query');
  try {
    const res = await send();
    const statements = spy.mock.calls.filter(([q]) => !String(q).includes('pg_notify')).length;
    return { status: res.status, statements };
  } finally {
    spy.mockRestore();
  }
}

it('creates a payment request in two statements (the key look-up and one insert of the request with its event), one with the key cached', async () => {
  const fresh = await newTenant(t);
  const create = (transactionId: string) => () =>
    t.http
      .post('/api/v1/payment-request')
      .set('Authorization', fresh.sandbox.secretKey)
      .send({ transactionId, amount: 10 });
  expect(await statementsFor(create('hot-1'))).toEqual({ status: 200, statements: 2 });
  expect(await statementsFor(create('hot-2'), fresh.sandbox.secretKey)).toEqual({
    status: 200,
    statements: 1,
  });
});

it('looks a payment request up by transactionId in two statements, one with the key cached', async () => {
  await t.http
    .post('/api/v1/payment-request')
    .set('Authorization', org.sandbox.secretKey)
    .send({ transactionId: 'hot-lookup', amount: 10 });
  const lookup = () =>
    t.http
      .get('/api/v1/payment-request/by-transaction/hot-lookup')
      .set('Authorization', org.sandbox.publishableKey);
  expect(await statementsFor(lookup)).toEqual({ status: 200, statements: 2 });
  expect(await statementsFor(lookup, org.sandbox.publishableKey)).toEqual({ status: 200, statements: 1 });
});

it('rejects an unknown key after one statement and a missing key without any', async () => {
  expect(
    await statementsFor(() =>
      t.http.get('/api/v1/payment-request').set('Authorization', 'sk_test_' + 'z'.repeat(40)),
    ),
  ).toEqual({
    status: 401,
    statements: 1,
  });
  expect(await statementsFor(() => t.http.get('/api/v1/payment-request'))).toEqual({
    status: 401,
    statements: 0,
  });
});

it('pays in three statements, the key cached: one read (method and request), opening the payment, settling it', async () => {
  await t.http
    .post('/api/v1/payment-request')
    .set('Authorization', org.sandbox.secretKey)
    .send({ transactionId: 'hot-pay', amount: 10 });
  const methods = await t.http
    .get('/api/v1/payment-methods')
    .set('Authorization', org.sandbox.publishableKey);
  const masrivi = (methods.body.data as { id: string; type: string }[]).find((m) => m.type === 'masrivi')!;
  const r = await statementsFor(
    () =>
      t.http
        .post('/api/v1/payment')
        .set('Authorization', org.sandbox.publishableKey)
        .send({ transactionId: 'hot-pay', phoneNumber: '22222222', configurationId: masrivi.id }),
    org.sandbox.publishableKey,
  );
  expect(r).toEqual({ status: 200, statements: 3 });
});

/** A new organization with its Sandbox transfer method on, and a request of 10 under `transactionId`. */
async function transferTenant(transactionId: string) {
  const fresh = await newTenant(t);
  const gimtel = await t.http
    .put('/api/v1/configuration/gimtel')
    .set('Authorization', fresh.sandbox.secretKey)
    .send({ enabled: true });
  await t.http
    .post('/api/v1/payment-request')
    .set('Authorization', fresh.sandbox.secretKey)
    .send({ transactionId, amount: 10 });
  return { fresh, gimtel };
}

it("pays by transfer in two statements, the key cached (the read, opening the payment); a test clock's invoice in three (its clock's time read between)", async () => {
  const { fresh, gimtel } = await transferTenant('hot-transfer');
  const pay = (transactionId: string) => () =>
    t.http
      .post('/api/v1/payment')
      .set('Authorization', fresh.sandbox.publishableKey)
      .send({ transactionId, phoneNumber: '22222222', configurationId: gimtel.body.data.id });
  expect(await statementsFor(pay('hot-transfer'), fresh.sandbox.publishableKey)).toEqual({
    status: 200,
    statements: 2,
  });

  const clock = await t.http
    .post('/api/v1/test-clocks')
    .set('Authorization', fresh.sandbox.secretKey)
    .send({ frozenTime: '2025-01-01T00:00:00Z' });
  const c = await catalog(t, fresh);
  const customer = await t.http
    .post('/api/v1/customers')
    .set('Authorization', fresh.sandbox.secretKey)
    .send({ externalUserId: 'hot-clock', testClockId: clock.body.data.id });
  const sub = await createSubscription(t, fresh.sandbox.secretKey, {
    customerId: customer.body.data.id,
    priceId: c.price.id,
  });
  const [{ id: invoiceId }] = await t.query<{ id: string }>(
    'SELECT id FROM invoices WHERE subscription_id = $1',
    [sub.id],
  );
  expect(await statementsFor(pay(invoiceId), fresh.sandbox.publishableKey)).toEqual({
    status: 200,
    statements: 3,
  });
});

it('matches a transfer in two statements (its environment and candidates read, then stored and settled in one); a duplicate in three (the stored one read)', async () => {
  const { fresh, gimtel } = await transferTenant('hot-match');
  await t.http
    .post('/api/v1/payment')
    .set('Authorization', fresh.sandbox.publishableKey)
    .send({ transactionId: 'hot-match', phoneNumber: '22222222', configurationId: gimtel.body.data.id })
    .expect(200);
  const incoming = {
    bankReference: 'hot-match-1',
    receivingBank: 'BANKILY',
    receivingPhone: gimtel.body.data.receivingPhone as string,
    payerPhone: '22222222',
    payerApp: 'click',
    amount: 10,
    receivedAt: new Date(),
  };
  const scope = { environmentId: fresh.sandbox.environmentId, organizationId: fresh.organizationId };
  const receive = async () => {
    const { transfer, created } = await t.app.get(TransfersService).receive(incoming, scope);
    return { status: created ? 201 : 200, transfer };
  };
  let matched: Transfer | undefined;
  expect(
    await statementsFor(async () => {
      const r = await receive();
      matched = r.transfer;
      return r;
    }),
  ).toEqual({ status: 201, statements: 2 });
  expect(matched!.status).toBe('matched');
  expect(await statementsFor(receive)).toEqual({ status: 200, statements: 3 });
});

it("counts the pay-attempt limit's failures (per request and payer phone) from an index, in pay's opening statement", async () => {
  await t.http
    .post('/api/v1/payment-request')
    .set('Authorization', org.sandbox.secretKey)
    .send({ transactionId: 'hot-pay-limit', amount: 10 });
  const methods = await t.http
    .get('/api/v1/payment-methods')
    .set('Authorization', org.sandbox.publishableKey);
  const masrivi = (methods.body.data as { id: string; type: string }[]).find((m) => m.type === 'masrivi')!;
  const spy = jest.spyOn(Client.prototype, 'query');
  let opening: { text: string; values: unknown[] } | undefined;
  try {
    await t.http
      .post('/api/v1/payment')
      .set('Authorization', org.sandbox.publishableKey)
      .send({ transactionId: 'hot-pay-limit', phoneNumber: '22229001', configurationId: masrivi.id })
      .expect(502);
    opening = spy.mock.calls
      .map(([q]) => q as unknown as { text?: string; values?: unknown[] })
      .filter((q) => q.text?.includes('failures AS'))
      .map((q) => ({ text: q.text!, values: q.values ?? [] }))[0];
  } finally {
    spy.mockRestore();
  }
  expect(opening).toBeDefined();
  // The test database is small: without this, a sequential scan is the cheaper plan for any table.
  const client = new Client({ connectionString: testDatabaseUrl() });
  await client.connect();
  try {
    await client.query('SET enable_seqscan = off');
    const plan = await client.query({ text: `EXPLAIN ${opening.text}`, values: opening.values });
    const text = (plan.rows as { 'QUERY PLAN': string }[]).map((r) => r['QUERY PLAN']).join('\n');
    // The failures are read through an index of the request's payments: the per-phone index, or
    // (as the planner may judge on a small, freshly analysed table) the request's own index.
    const failures = text.slice(text.indexOf('CTE failures'), text.indexOf('CTE created'));
    expect(failures).toMatch(/Index (Only )?Scan using payments_(failed_per_phone|request)_idx on payments/);
    expect(failures).not.toContain('Seq Scan');
  } finally {
    await client.end();
  }
});

it('looks up a rolled key (live until its expires_at) in the same one statement, and refuses it after', async () => {
  const rolled = await newTenant(t);
  await t.query(`UPDATE api_keys SET expires_at = now() + interval '1 hour' WHERE environment_id = $1`, [
    rolled.sandbox.environmentId,
  ]);
  const get = () =>
    t.http
      .get('/api/v1/payment-request/by-transaction/none')
      .set('Authorization', rolled.sandbox.publishableKey);
  expect(await statementsFor(get)).toEqual({ status: 404, statements: 2 });
  await t.query(`UPDATE api_keys SET expires_at = now() - interval '1 second' WHERE environment_id = $1`, [
    rolled.sandbox.environmentId,
  ]);
  // The cached key is dropped when the database's notification arrives; an ended key is never cached.
  await waitFor(async () => (await get()).status === 401, 'the ended key to be refused', 1000);
  expect(await statementsFor(get)).toEqual({ status: 401, statements: 1 });
});

describe('with an Idempotency-Key', () => {
  it('creates a payment request in the same one statement, the key cached (the key claimed and recorded by the insert), and replays it in one', async () => {
    const send = () =>
      t.http
        .post('/api/v1/payment-request')
        .set('Authorization', org.sandbox.secretKey)
        .set('Idempotency-Key', 'hot-key-1')
        .send({ transactionId: 'hot-keyed', amount: 10 });
    expect(await statementsFor(send, org.sandbox.secretKey)).toEqual({ status: 200, statements: 1 });
    expect(await statementsFor(send, org.sandbox.secretKey)).toEqual({ status: 200, statements: 1 });
  });

  it('pays in the same three statements, the key cached (the key read with the request, recorded with the payment), and replays in one', async () => {
    await t.http
      .post('/api/v1/payment-request')
      .set('Authorization', org.sandbox.secretKey)
      .send({ transactionId: 'hot-pay-keyed', amount: 10 });
    const methods = await t.http
      .get('/api/v1/payment-methods')
      .set('Authorization', org.sandbox.publishableKey);
    const masrivi = (methods.body.data as { id: string; type: string }[]).find((m) => m.type === 'masrivi')!;
    const send = () =>
      t.http
        .post('/api/v1/payment')
        .set('Authorization', org.sandbox.publishableKey)
        .set('Idempotency-Key', 'hot-key-2')
        .send({ transactionId: 'hot-pay-keyed', phoneNumber: '22222222', configurationId: masrivi.id });
    expect(await statementsFor(send, org.sandbox.publishableKey)).toEqual({ status: 200, statements: 3 });
    expect(await statementsFor(send, org.sandbox.publishableKey)).toEqual({ status: 200, statements: 1 });
  });

  it('runs any other POST in its transaction, the key cached: BEGIN, the claim, the route, the record, COMMIT', async () => {
    // The route here sends two statements: the lock that keeps an environment at 16 endpoints, the insert.
    const send = () =>
      t.http
        .post('/api/v1/webhook-endpoints')
        .set('Authorization', org.sandbox.secretKey)
        .set('Idempotency-Key', 'hot-key-3')
        .send({ url: 'https://merchant.example.mr/hot', enabled: false });
    expect(await statementsFor(send, org.sandbox.secretKey)).toEqual({ status: 200, statements: 6 });
    // A replay: BEGIN, the claim (which finds the record), ROLLBACK.
    expect(await statementsFor(send, org.sandbox.secretKey)).toEqual({ status: 200, statements: 3 });
  });
});

describe('billing', () => {
  it('lists subscriptions and invoices in two statements, the key cached: the page and the count', async () => {
    const c = await catalog(t, org);
    await createSubscription(t, org.sandbox.secretKey, { customerId: c.customer.id, priceId: c.price.id });
    for (const path of [
      '/api/v1/subscriptions',
      '/api/v1/invoices',
      '/api/v1/products',
      '/api/v1/customers',
    ]) {
      const expected = path.endsWith('products') ? 3 : 2; // products: and their prices, for the whole page
      expect(
        await statementsFor(
          () => t.http.get(path).set('Authorization', org.sandbox.secretKey),
          org.sandbox.secretKey,
        ),
      ).toEqual({
        status: 200,
        statements: expected,
      });
    }
  });

  it('bills a batch of due subscriptions in four statements, whatever its size: begin, claim, one write, commit (one that finds nothing due: begin, claim, commit)', async () => {
    const tenant = await newTenant(t);
    const c = await catalog(t, tenant, { interval: 'weekly', amount: 100 });
    const subs = await Promise.all(
      Array.from({ length: 40 }, () =>
        createSubscription(t, tenant.sandbox.secretKey, { customerId: c.customer.id, priceId: c.price.id }),
      ),
    );
    for (const s of subs) await timeTravel(t, s.id, 7 * DAY);
    const run = t.app.get(BillingRun);
    // BILLING_CONCURRENCY batches at once (3 by default): how the 40 split between them varies.
    const renewals = t.app.get(Renewals);
    const renewDueBatch = renewals.renewDueBatch.bind(renewals);
    const claimed: number[] = [];
    const batches = jest.spyOn(renewals, 'renewDueBatch').mockImplementation(async (...args) => {
      const batch = await renewDueBatch(...args);
      claimed.push(batch.claimed);
      return batch;
    });
    const spy = jest.spyOn(Client.prototype, 'query');
    try {
      const result = await run.run({ environmentId: tenant.sandbox.environmentId });
      expect(result).toEqual({ invoicesCreated: 40, subscriptionsUpdated: 40 });
      expect(claimed.reduce((a, b) => a + b, 0)).toBe(40);
      expect(spy.mock.calls.filter(([q]) => !String(q).includes('pg_notify')).length).toBe(
        claimed.reduce((sum, n) => sum + (n > 0 ? 4 : 3), 0),
      );
    } finally {
      spy.mockRestore();
      batches.mockRestore();
    }
  });
});
