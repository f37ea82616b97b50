import { sql } from '../../src/database/sql';
import { keysetBatches } from '../../src/database/keyset';
import { Messages } from '../../src/common/errors/messages';
import type { CreatedOrganization } from '../../src/organizations/organizations.service';
import { newTenant, startTestApp, TestApp } from '../helpers/app';
import { catalog, createSubscription } from '../helpers/billing';
import { txId } from '../helpers/checkout';
import { expectText } from '../helpers/http';
import { paidRequest, parseCsv } from '../helpers/money';

/*
 * `Accept: text/csv` on the list routes: every row the filters select (not one page), a header
 * line, times and amounts a spreadsheet reads, and only the key's tenant's rows.
 */
let t: TestApp;
let org: CreatedOrganization;
let other: CreatedOrganization;
beforeAll(async () => {
  t = await startTestApp();
  [org, other] = await Promise.all([newTenant(t), newTenant(t)]);
});
afterAll(() => t.close());

const csv = (path: string, key: string) =>
  t.http.get(`/api/v1${path}`).set('Authorization', key).set('Accept', 'text/csv').buffer(true);

describe('Accept: text/csv on GET /payment-request', () => {
  it('answers every request the filter selects, newest first, past one page, with a header line', async () => {
    const key = org.sandbox.secretKey;
    const created: string[] = [];
    for (let i = 0; i < 23; i += 1) {
      const res = await t.http
        .post('/api/v1/payment-request')
        .set('Authorization', key)
        .send({ transactionId: txId('csv'), amount: 100 + i })
        .expect(200);
      created.push(res.body.data.id);
    }
    const paid = await paidRequest(t, key, 1500);
    await t.http
      .post('/api/v1/payment-request')
      .set('Authorization', other.sandbox.secretKey)
      .send({ transactionId: txId('other'), amount: 100 })
      .expect(200);

    const res = await csv('/payment-request?status=pending&limit=5', key).expect(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe('attachment; filename="payment-requests.csv"');
    const [header, ...rows] = parseCsv(res.text);
    expect(header).toEqual([
      'id',
      'createdAt',
      'transactionId',
      'amount',
      'phoneNumber',
      'status',
      'paidAt',
      'invoiceId',
    ]);
    expect(rows.map((r) => r[0])).toEqual([...created].reverse());
    expect(rows.every((r) => r[5] === 'pending')).toBe(true);
    expect(rows[0][1]).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(rows[rows.length - 1][3]).toBe('100');

    const all = parseCsv((await csv('/payment-request', key).expect(200)).text);
    expect(all).toHaveLength(1 + 24);
    expect(all[1]).toEqual([
      paid.requestId,
      expect.any(String),
      paid.transactionId,
      '1500',
      '',
      'paid',
      expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
      '',
    ]);
  });

  it('answers only the header line when nothing matches, and JSON without the header', async () => {
    const fresh = await newTenant(t);
    const res = await csv('/payment-request', fresh.production.secretKey).expect(200);
    expect(res.text).toBe('id,createdAt,transactionId,amount,phoneNumber,status,paidAt,invoiceId\r\n');
    const json = await t.http
      .get('/api/v1/payment-request')
      .set('Authorization', fresh.sandbox.secretKey)
      .expect(200);
    expect(json.body).toEqual({ data: [], pagination: { page: 1, limit: 20, total: 0, totalPages: 0 } });
  });

  it('still validates the query (422) and refuses a publishable key (403)', async () => {
    expect((await csv('/payment-request?limit=101', org.sandbox.secretKey)).status).toBe(422);
    expectText(await csv('/payment-request', org.sandbox.publishableKey), 403, Messages.unauthorizedAccess);
  });
});

describe('Accept: text/csv on GET /payment', () => {
  it("answers the payments the filters select, of the key's environment only", async () => {
    const fresh = await newTenant(t);
    const key = fresh.sandbox.secretKey;
    const a = await paidRequest(t, key, 2500);
    const failed = await paidRequest(t, key, 700, '22229001');
    await paidRequest(t, other.sandbox.secretKey, 900);
    expect(parseCsv((await csv('/payment', fresh.production.secretKey).expect(200)).text)).toHaveLength(1);

    const [header, ...rows] = parseCsv((await csv('/payment', key).expect(200)).text);
    expect(header).toEqual([
      'id',
      'createdAt',
      'transactionId',
      'paymentRequestId',
      'amount',
      'status',
      'paymentMethod',
      'phoneNumber',
      'referenceId',
      'failureReason',
      'completedAt',
      'payoutId',
    ]);
    expect(rows.map((r) => r[2])).toEqual([failed.transactionId, a.transactionId]);
    // The bank app by its name (paidRequest pays with Masrivi), never its id.
    expect(rows[1]).toMatchObject({ 3: a.requestId, 4: '2500', 5: 'completed', 6: 'Masrivi', 7: '22222222' });
    expect(rows[0][5]).toBe('failed');

    const completed = parseCsv((await csv(`/payment?status=completed`, key).expect(200)).text);
    expect(completed.slice(1).map((r) => r[2])).toEqual([a.transactionId]);
    const one = parseCsv((await csv(`/payment?transactionId=${failed.transactionId}`, key).expect(200)).text);
    expect(one).toHaveLength(2);
  });
});

describe('Accept: text/csv on GET /invoices', () => {
  it("answers the organization's invoices, with decimal amounts", async () => {
    const c = await catalog(t, org, { interval: 'monthly', amount: 1250 });
    const sub = await createSubscription(t, org.sandbox.secretKey, {
      customerId: c.customer.id,
      priceId: c.price.id,
    });
    const [header, ...rows] = parseCsv(
      (await csv(`/invoices?subscriptionId=${sub.id}`, org.sandbox.secretKey).expect(200)).text,
    );
    expect(header[0]).toBe('id');
    expect(rows).toHaveLength(1);
    const column = (name: string) => rows[0][header.indexOf(name)];
    expect([column('subscriptionId'), column('status'), column('amount')]).toEqual([
      sub.id,
      'pending',
      '1250.00',
    ]);
    const theirs = parseCsv(
      (await csv(`/invoices?subscriptionId=${sub.id}`, other.sandbox.secretKey).expect(200)).text,
    );
    expect(theirs).toHaveLength(1);
  });
});

describe('keysetBatches', () => {
  it('reads every row once, in order, batch after batch', async () => {
    const batches: string[][] = [];
    for await (const rows of keysetBatches<{ id: string }>(
      t.db,
      {
        select: sql`r.id`,
        from: sql`FROM payment_requests r`,
        alias: 'r',
        where: [sql`r.environment_id = ${org.sandbox.environmentId}`],
      },
      4,
    ))
      batches.push(rows.map((r) => r.id));
    const ids = (
      await t.query<{ id: string }>(
        `SELECT id FROM payment_requests WHERE environment_id = $1 ORDER BY created_at DESC, id DESC`,
        [org.sandbox.environmentId],
      )
    ).map((r) => r.id);
    expect(batches.flat()).toEqual(ids);
    expect(batches.slice(0, -1).every((b) => b.length === 4)).toBe(true);
  });
});

describe('Accept: text/csv on GET /refunds and GET /balance-transactions', () => {
  it("answers the environment's refunds and balance transactions the filters select", async () => {
    const fresh = await newTenant(t);
    const key = fresh.sandbox.secretKey;
    const paid = await paidRequest(t, key, 3000);
    const refund = (
      await t.http
        .post('/api/v1/refunds')
        .set('Authorization', key)
        .send({ paymentId: paid.payment.id, amount: 1000, reason: '=cmd, "quoted"' })
        .expect(200)
    ).body.data;
    await paidRequest(t, other.sandbox.secretKey, 900);

    const [header, ...refunds] = parseCsv(
      (await csv(`/refunds?paymentId=${paid.payment.id as string}`, key).expect(200)).text,
    );
    expect(header).toEqual([
      'id',
      'createdAt',
      'paymentId',
      'transactionId',
      'amount',
      'status',
      'reason',
      'failureReason',
    ]);
    expect(refunds).toEqual([
      [
        refund.id,
        expect.any(String),
        paid.payment.id,
        paid.transactionId,
        '1000',
        refund.status,
        `'=cmd, "quoted"`,
        '',
      ],
    ]);

    const [btHeader, ...transactions] = parseCsv((await csv('/balance-transactions', key).expect(200)).text);
    expect(btHeader).toEqual([
      'id',
      'createdAt',
      'type',
      'amount',
      'fee',
      'net',
      'currency',
      'sourceId',
      'availableOn',
      'payoutId',
    ]);
    expect(transactions.map((r) => [r[2], r[3], r[7]])).toEqual([
      ['refund', '-1000', refund.id],
      ['payment', '3000', paid.payment.id],
    ]);
    const payments = parseCsv((await csv('/balance-transactions?type=payment', key).expect(200)).text);
    expect(payments).toHaveLength(2);
  });
});
