import type { CreatedOrganization } from '../../src/organizations/organizations.service';
import { RefundsService } from '../../src/ledger/refunds.service';
import { BankSimulator, startBankSimulator } from '../../src/payments/banks/simulator/bank-simulator';
import { newTenant, privateDatabase, startTestApp, TestApp } from '../helpers/app';
import { paidPayment } from '../helpers/ledger';

/**
 * Production refunds: the gateway's refund operation against the bank simulator, its faults, and
 * the refunds job that sends again what was left pending, with two instances at once. A database
 * of its own: the job claims every pending refund of its database.
 */

const BANK_TIMEOUT_MS = 400;
let db: { url: string; drop(): Promise<void> };
let sim: BankSimulator;
let t: TestApp;
let org: CreatedOrganization;

beforeAll(async () => {
  sim = await startBankSimulator();
  db = await privateDatabase();
  t = await startTestApp({ BANK_TIMEOUT_MS: String(BANK_TIMEOUT_MS), BANK_SEDAD_URL: sim.url }, db.url);
  org = await newTenant(t);
});
beforeEach(() => sim.reset());
afterAll(async () => {
  await t?.close();
  await sim?.close();
  await db?.drop();
});

const refund = (body: object, app = t) =>
  app.http.post('/api/v1/refunds').set('Authorization', org.production.secretKey).send(body);
const refundOf = async (id: string) =>
  (await t.http.get(`/api/v1/refunds/${id}`).set('Authorization', org.production.secretKey).expect(200)).body
    .data;
const updates = async (id: string) =>
  (
    await t.query(
      `SELECT count(*)::int AS n FROM events WHERE kind = 'refund-updated' AND data->>'id' = $1`,
      [id],
    )
  )[0].n;
const transactions = async (id: string) =>
  (
    await t.query(`SELECT type FROM balance_transactions WHERE source_id = $1 ORDER BY created_at, type`, [
      id,
    ])
  ).map((r: { type: string }) => r.type);

it('sends the refund to the bank of the payment: succeeded, once', async () => {
  const payment = await paidPayment(t, org.production, 3000);
  expect(payment.status).toBe('completed');
  const res = await refund({ paymentId: payment.id, amount: 1200 }).expect(200);
  expect(res.body.data).toMatchObject({ status: 'succeeded', amount: 1200 });
  expect(sim.refund(res.body.data.id)).toMatchObject({
    chargeReference: payment.id,
    amount: 1200,
    status: 'succeeded',
  });
  expect(sim.stats()).toMatchObject({ refundRequests: 1, refunds: 1 });
});

it('fails a refund the bank refuses, and credits it back', async () => {
  const payment = await paidPayment(t, org.production, 3000);
  sim.setMode('decline');
  const res = await refund({ paymentId: payment.id }).expect(200);
  expect(res.body.data).toMatchObject({ status: 'failed', failureReason: 'refund refused' });
  expect(await transactions(res.body.data.id)).toEqual(['refund', 'refund_failure']);
  expect(
    (await t.http.get(`/api/v1/payment/${payment.id}`).set('Authorization', org.production.secretKey)).body
      .data.refundedAmount,
  ).toBe(0);
});

it.each([
  ['answers 503', 'error' as const],
  ['never answers', 'hang' as const],
])('leaves the refund pending (money debited) when the bank %s; the job sends it again', async (_n, mode) => {
  const payment = await paidPayment(t, org.production, 3000);
  sim.setMode(mode);
  const res = await refund({ paymentId: payment.id, amount: 1000 }).expect(200);
  expect(res.body.data.status).toBe('pending');
  expect(await transactions(res.body.data.id)).toEqual(['refund']);
  sim.setMode('normal');
  await t.app.get(RefundsService).resolvePending(0);
  expect(await refundOf(res.body.data.id)).toMatchObject({ status: 'succeeded' });
  expect(await updates(res.body.data.id)).toBe(1);
  expect(sim.stats().refunds).toBe(1);
});

it('a refund the bank made but whose answer came too late is paid once: the job gets the same refund back', async () => {
  const payment = await paidPayment(t, org.production, 3000);
  sim.setMode('slow', BANK_TIMEOUT_MS * 3);
  const res = await refund({ paymentId: payment.id, amount: 700 }).expect(200);
  expect(res.body.data.status).toBe('pending');
  sim.setMode('normal');
  await t.app.get(RefundsService).resolvePending(0);
  expect(await refundOf(res.body.data.id)).toMatchObject({ status: 'succeeded' });
  expect(sim.stats()).toMatchObject({ refundRequests: 2, refunds: 1 });
});

it('a refund the bank keeps pending is settled by a later pass', async () => {
  const payment = await paidPayment(t, org.production, 3000);
  sim.setMode('pending');
  const res = await refund({ paymentId: payment.id, amount: 300 }).expect(200);
  expect(res.body.data.status).toBe('pending');
  await t.app.get(RefundsService).resolvePending(0);
  expect((await refundOf(res.body.data.id)).status).toBe('pending');
  sim.settleRefund(res.body.data.id, 'failed');
  await t.query(`UPDATE refunds SET next_check_at = now() WHERE id = $1`, [res.body.data.id]);
  await t.app.get(RefundsService).resolvePending(0);
  expect(await refundOf(res.body.data.id)).toMatchObject({ status: 'failed' });
  expect(await transactions(res.body.data.id)).toEqual(['refund', 'refund_failure']);
});

it('two instances running the job at once settle each pending refund once', async () => {
  const other = await startTestApp(
    { BANK_TIMEOUT_MS: String(BANK_TIMEOUT_MS), BANK_SEDAD_URL: sim.url },
    db.url,
  );
  try {
    const payment = await paidPayment(t, org.production, 10_000);
    sim.setMode('error');
    const ids: string[] = [];
    for (let i = 0; i < 8; i++)
      ids.push((await refund({ paymentId: payment.id, amount: 500 }).expect(200)).body.data.id);
    sim.setMode('normal');
    const passes = await Promise.all([
      t.app.get(RefundsService).resolvePending(0),
      other.app.get(RefundsService).resolvePending(0),
    ]);
    expect(passes[0].claimed + passes[1].claimed).toBe(8);
    for (const id of ids) {
      expect((await refundOf(id)).status).toBe('succeeded');
      expect(await updates(id)).toBe(1);
    }
    expect(sim.stats().refunds).toBe(8);
    // 8 answered 503 (nothing recorded), then each refund sent once more, by one instance only.
    expect(sim.stats().refundRequests).toBe(16);
    const [row] = await t.query(`SELECT refunded_amount FROM payments WHERE id = $1`, [payment.id]);
    expect(row.refunded_amount).toBe(4000);
  } finally {
    await other.close();
  }
});
