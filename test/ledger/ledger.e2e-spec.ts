import { OrganizationsRepository } from '../../src/organizations/organizations.repository';
import type { CreatedOrganization } from '../../src/organizations/organizations.service';
import { Client } from 'pg';
import {
  directUrlFor,
  newTenant,
  startTestApp,
  TestApp,
  testDatabaseUrl,
  validationBody,
} from '../helpers/app';
import { paidPayment } from '../helpers/ledger';

/**
 * The ledger: a completed payment writes its `payment` balance transaction in the statement that
 * settles it (fee of the organization's rate, else DEFAULT_FEE_BPS, rounded half up; available
 * PAYOUT_DELAY_DAYS after completion), GET /balance and GET /balance-transactions.
 */

let t: TestApp;
let org: CreatedOrganization;

beforeAll(async () => {
  t = await startTestApp({ DEFAULT_FEE_BPS: '150', PAYOUT_DELAY_DAYS: '2' });
  org = await newTenant(t);
});
afterAll(() => t.close());

function balanceTransactions(key: string, query = '') {
  return t.http.get(`/api/v1/balance-transactions${query}`).set('Authorization', key);
}

describe('payment transactions', () => {
  it('records a completed payment once, with the default fee rounded half up and its availability', async () => {
    const payment = await paidPayment(t, org.sandbox, 1234); // 1.5 % of 1234 = 18.51 -> 19
    expect(payment.status).toBe('completed');
    const res = await balanceTransactions(org.sandbox.secretKey).expect(200);
    expect(res.body.data).toHaveLength(1);
    const tx = res.body.data[0];
    expect(tx).toEqual({
      id: expect.any(String),
      type: 'payment',
      amount: 1234,
      fee: 19,
      net: 1215,
      currency: 'MRU',
      sourceId: payment.id,
      availableOn: new Date(new Date(payment.completedAt).getTime() + 2 * 86400_000).toISOString(),
      payoutId: null,
      environmentId: expect.any(String),
      createdAt: payment.completedAt,
    });
    expect(res.body.pagination).toEqual({ page: 1, limit: 20, total: 1, totalPages: 1 });
  });

  it("uses the organization's own fee rate when an operator set one (half up: 0.5 goes up)", async () => {
    const other = await newTenant(t);
    await t.app.get(OrganizationsRepository).setTerms(other.organizationId, { feeBps: 250 });
    await paidPayment(t, other.sandbox, 1000); // 2.5 % of 1000 = 25
    await paidPayment(t, other.sandbox, 1020); // 25.5 -> 26
    await paidPayment(t, other.sandbox, 1019); // 25.475 -> 25
    const res = await balanceTransactions(other.sandbox.secretKey).expect(200);
    expect(res.body.data.map((x: { amount: number; fee: number }) => [x.amount, x.fee])).toEqual([
      [1019, 25],
      [1020, 26],
      [1000, 25],
    ]);
    await t.app.get(OrganizationsRepository).setTerms(other.organizationId, { feeBps: 0 });
    await paidPayment(t, other.sandbox, 999);
    const zero = await balanceTransactions(other.sandbox.secretKey, '?limit=1').expect(200);
    expect(zero.body.data[0]).toMatchObject({ amount: 999, fee: 0, net: 999 });
  });

  it('writes nothing for a failed payment', async () => {
    const other = await newTenant(t);
    const failed = await paidPayment(t, other.sandbox, 500, '22229001');
    expect(failed.status).toBe('failed');
    const res = await balanceTransactions(other.sandbox.secretKey).expect(200);
    expect(res.body.data).toEqual([]);
  });
});

describe('GET /balance', () => {
  it('sums net by availability: pending until availableOn, then available', async () => {
    const other = await newTenant(t);
    await paidPayment(t, other.sandbox, 2000); // fee 30
    await paidPayment(t, other.sandbox, 1000); // fee 15
    const before = await t.http
      .get('/api/v1/balance')
      .set('Authorization', other.sandbox.secretKey)
      .expect(200);
    expect(before.body).toEqual({ data: { available: 0, pending: 2955, currency: 'MRU' } });
    // Two days pass for the first payment (its row is moved into the past, and its day bucket with it).
    const [first] = await t.query(
      `SELECT id FROM balance_transactions WHERE organization_id = $1 AND amount = 2000`,
      [other.organizationId],
    );
    await moveAvailability(first.id, '-3 days');
    const after = await t.http
      .get('/api/v1/balance')
      .set('Authorization', other.sandbox.secretKey)
      .expect(200);
    expect(after.body.data).toEqual({ available: 1970, pending: 985, currency: 'MRU' });
    // Available earlier today (today's transactions are summed from the table, not the day buckets).
    const [second] = await t.query(
      `SELECT id FROM balance_transactions WHERE organization_id = $1 AND amount = 1000`,
      [other.organizationId],
    );
    await moveAvailability(second.id, `-${secondsSinceMidnight() > 2 ? 1 : 0} seconds`, true);
    const today = await t.http
      .get('/api/v1/balance')
      .set('Authorization', other.sandbox.secretKey)
      .expect(200);
    expect(today.body.data).toEqual({ available: 2955, pending: 0, currency: 'MRU' });
  });

  it('is per environment and per organization', async () => {
    const other = await newTenant(t);
    await paidPayment(t, other.sandbox, 1000);
    const prod = await t.http.get('/api/v1/balance').set('Authorization', other.production.secretKey);
    expect(prod.status).toBe(200);
    expect(prod.body.data).toEqual({ available: 0, pending: 0, currency: 'MRU' });
    const third = await newTenant(t);
    const res = await t.http.get('/api/v1/balance').set('Authorization', third.sandbox.secretKey).expect(200);
    expect(res.body.data).toEqual({ available: 0, pending: 0, currency: 'MRU' });
  });

  it('needs the secret key (publishable: 403 Unauthorized access)', async () => {
    const res = await t.http
      .get('/api/v1/balance')
      .set('Authorization', org.sandbox.publishableKey)
      .expect(403);
    expect(res.text).toBe('Unauthorized access');
    await balanceTransactions(org.sandbox.publishableKey).expect(403);
  });
});

/**
 * Moves a transaction's availability (a test's stand-in for days passing), keeping balance_days'
 * sums in step (its old day loses its net from one of its slots, any slot sums the same): `toTodayStart` puts it at the start of today (UTC) plus the
 * interval.
 */
async function moveAvailability(id: string, interval: string, toTodayStart = false): Promise<void> {
  await t.query(`ALTER TABLE balance_transactions DISABLE TRIGGER balance_transactions_unchanged`);
  try {
    await t.query(
      `WITH old AS (SELECT * FROM balance_transactions WHERE id = $1),
       moved AS (
         UPDATE balance_transactions t
            SET available_on = CASE WHEN $3::boolean THEN date_trunc('day', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'
                                    ELSE t.available_on END + $2::interval
          WHERE t.id = $1 RETURNING t.*
       ), take AS (
         UPDATE balance_days d SET net = d.net - old.net FROM old
          WHERE d.environment_id = old.environment_id AND d.day = (old.available_on AT TIME ZONE 'UTC')::date
            AND d.slot = (SELECT min(d2.slot) FROM balance_days d2
                           WHERE d2.environment_id = old.environment_id
                             AND d2.day = (old.available_on AT TIME ZONE 'UTC')::date)
       )
       INSERT INTO balance_days (environment_id, day, slot, net)
       SELECT environment_id, (available_on AT TIME ZONE 'UTC')::date, 0, net FROM moved
       ON CONFLICT (environment_id, day, slot) DO UPDATE SET net = balance_days.net + EXCLUDED.net`,
      [id, interval, toTodayStart],
    );
  } finally {
    await t.query(`ALTER TABLE balance_transactions ENABLE TRIGGER balance_transactions_unchanged`);
  }
}

function secondsSinceMidnight(): number {
  const now = new Date();
  return now.getUTCHours() * 3600 + now.getUTCMinutes() * 60 + now.getUTCSeconds();
}

describe('GET /balance-transactions', () => {
  it('filters by type and payoutId, newest first, and pages', async () => {
    const other = await newTenant(t);
    await paidPayment(t, other.sandbox, 100);
    await paidPayment(t, other.sandbox, 200);
    await paidPayment(t, other.sandbox, 300);
    const page = await balanceTransactions(other.sandbox.secretKey, '?type=payment&page=2&limit=2').expect(
      200,
    );
    expect(page.body.data.map((x: { amount: number }) => x.amount)).toEqual([100]);
    expect(page.body.pagination).toEqual({ page: 2, limit: 2, total: 3, totalPages: 2 });
    const refunds = await balanceTransactions(other.sandbox.secretKey, '?type=refund').expect(200);
    expect(refunds.body.data).toEqual([]);
    const none = await balanceTransactions(
      other.sandbox.secretKey,
      '?payoutId=00000000-0000-4000-8000-000000000000',
    ).expect(200);
    expect(none.body.pagination.total).toBe(0);
  });

  it("never shows another organization's or environment's transactions", async () => {
    const a = await newTenant(t);
    const b = await newTenant(t);
    await paidPayment(t, a.sandbox, 700);
    expect((await balanceTransactions(b.sandbox.secretKey).expect(200)).body.data).toEqual([]);
    expect((await balanceTransactions(a.production.secretKey).expect(200)).body.data).toEqual([]);
    expect((await balanceTransactions(a.sandbox.secretKey).expect(200)).body.data).toHaveLength(1);
  });

  it.each([
    ['an unknown type', '?type=gift', 'type'],
    ['a payoutId that is not a UUID', '?payoutId=nope', 'payoutId'],
    ['limit above 100', '?limit=101', 'limit'],
    ['page 0', '?page=0', 'page'],
  ])('answers 422 on query for %s', async (_name, query, property) => {
    const res = await balanceTransactions(org.sandbox.secretKey, query).expect(422);
    expect(validationBody(res)).toMatchObject({ type: 'validation', on: 'query', property: `/${property}` });
  });
});

describe('GET /reports/settlement', () => {
  const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
  const report = (key: string, from: string, to: string, accept?: string) => {
    const req = t.http.get(`/api/v1/reports/settlement?from=${from}&to=${to}`).set('Authorization', key);
    return accept ? req.set('Accept', accept) : req;
  };

  it('sums per UTC day and bank app: payments, gross, fees, refunds (failed ones excluded), net; as JSON and CSV', async () => {
    const o = await newTenant(t);
    const sk = o.sandbox.secretKey;
    const first = await paidPayment(t, o.sandbox, 1000); // fee 15
    const second = await paidPayment(t, o.sandbox, 2000); // fee 30
    const refused = await paidPayment(t, o.sandbox, 1000, '22229004'); // fee 15; its refunds fail
    await t.http
      .post('/api/v1/refunds')
      .set('Authorization', sk)
      .send({ paymentId: first.id, amount: 500 })
      .expect(200);
    const failed = await t.http
      .post('/api/v1/refunds')
      .set('Authorization', sk)
      .send({ paymentId: refused.id, amount: 300 })
      .expect(200);
    expect(failed.body.data.status).toBe('failed');
    // The second payment's transaction as if made yesterday.
    await t.query(
      `UPDATE balance_transactions SET created_at = created_at - interval '1 day' WHERE source_id = $1`,
      [second.id],
    );
    const res = await report(sk, day(-1), day(0)).expect(200);
    expect(res.body).toEqual({
      data: [
        { date: day(-1), paymentMethod: 'sedad', payments: 1, gross: 2000, fees: 30, refunds: 0, net: 1970 },
        { date: day(0), paymentMethod: 'sedad', payments: 2, gross: 2000, fees: 30, refunds: 500, net: 1470 },
      ],
    });
    const today = await report(sk, day(0), day(0)).expect(200);
    expect(today.body.data).toHaveLength(1);
    const csv = await report(sk, day(-1), day(0), 'text/csv').expect(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.text).toBe(
      'date,paymentMethod,payments,gross,fees,refunds,net\r\n' +
        `${day(-1)},sedad,1,2000,30,0,1970\r\n` +
        `${day(0)},sedad,2,2000,30,500,1470\r\n`,
    );
    // Another organization, the other environment: nothing.
    const other = await newTenant(t);
    expect((await report(other.sandbox.secretKey, day(-1), day(0)).expect(200)).body.data).toEqual([]);
    expect((await report(o.production.secretKey, day(-1), day(0)).expect(200)).body.data).toEqual([]);
    const empty = await report(other.sandbox.secretKey, day(0), day(0), 'text/csv').expect(200);
    expect(empty.text).toBe('date,paymentMethod,payments,gross,fees,refunds,net\r\n');
  });

  it('takes at most 366 days, from not after to (400), real days (422), and the secret key only', async () => {
    await report(org.sandbox.secretKey, '2025-01-01', '2025-12-31').expect(200);
    await report(org.sandbox.secretKey, '2024-01-01', '2024-12-31').expect(200); // a leap year: 366 days
    for (const [from, to] of [
      ['2024-01-01', '2025-01-01'],
      ['2025-02-02', '2025-02-01'],
    ]) {
      const res = await report(org.sandbox.secretKey, from, to).expect(400);
      expect(res.text).toBe('from must not be after to, and the range at most 366 days');
    }
    for (const [from, to, property] of [
      ['2025-02-30', '2025-03-01', 'from'],
      ['2025-01-01', '01/02/2025', 'to'],
    ]) {
      const res = await report(org.sandbox.secretKey, from, to).expect(422);
      expect(validationBody(res)).toMatchObject({ on: 'query', property: `/${property}` });
    }
    const missing = await t.http
      .get('/api/v1/reports/settlement')
      .set('Authorization', org.sandbox.secretKey)
      .expect(422);
    expect(validationBody(missing)).toMatchObject({ on: 'query' });
    await report(org.sandbox.publishableKey, '2025-01-01', '2025-01-02').expect(403);
  });
});

describe('balance days', () => {
  it("adds each transaction to its connection's slot of the day (pid modulo 16): one connection's transactions never share a row with another's but where their pids agree", async () => {
    const o = await newTenant(t);
    const insert = (c: Client, net: number) =>
      c.query(
        `INSERT INTO balance_transactions (id, type, amount, fee, net, source_id, available_on, environment_id, organization_id)
         VALUES (gen_random_uuid(), 'payment', $1, 0, $1, gen_random_uuid(), '2030-01-02T10:00:00Z', $2, $3)`,
        [net, o.sandbox.environmentId, o.organizationId],
      );
    // The server itself (behind a pooler, a statement's backend is not the connection's).
    const url = directUrlFor(testDatabaseUrl()) ?? testDatabaseUrl();
    const clients = [new Client(url), new Client(url)];
    try {
      const pids: number[] = [];
      for (const c of clients) {
        await c.connect();
        pids.push((await c.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0].pid);
      }
      await insert(clients[0], 100);
      await insert(clients[0], 20);
      await insert(clients[1], 3);
      const rows = await t.query<{ slot: number; net: string }>(
        `SELECT slot, net::text FROM balance_days WHERE environment_id = $1 AND day = '2030-01-02' ORDER BY slot`,
        [o.sandbox.environmentId],
      );
      const expected = new Map<number, number>();
      for (const [i, net] of [
        [0, 120],
        [1, 3],
      ])
        expected.set(pids[i] % 16, (expected.get(pids[i] % 16) ?? 0) + net);
      expect(rows).toEqual(
        [...expected].sort(([a], [b]) => a - b).map(([slot, net]) => ({ slot, net: String(net) })),
      );
      const res = await t.http.get('/api/v1/balance').set('Authorization', o.sandbox.secretKey).expect(200);
      expect(res.body.data).toEqual({ available: 0, pending: 123, currency: 'MRU' });
    } finally {
      for (const c of clients) await c.end();
    }
  });
});
