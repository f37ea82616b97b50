import { randomUUID } from 'node:crypto';
import { Client, Pool } from 'pg';
import { Db } from '../../src/database/db';
import { LedgerChecks } from '../../src/ledger/ledger-checks';
import { LedgerRepository } from '../../src/ledger/ledger.repository';
import type { Refund } from '../../src/ledger/refund';
import { RefundsRepository } from '../../src/ledger/refunds.repository';
import { PaymentPayouts } from '../../src/payments/payment-payouts';
import { PaymentsRepository } from '../../src/payments/payments.repository';
import { testDatabaseUrl } from '../helpers/app';
import { completedPayment, PaymentRows } from '../helpers/tenant-rows';

/*
 * The ledger's rules that live in SQL (docs/ledger.md), checked on the repositories against the
 * real PostgreSQL, without HTTP or an app: one transaction per source and type, a refund settled
 * once, a payout's money back once, balance transactions append-only, and never more refunded
 * than the payment.
 */
let pool: Pool;
let db: Db;
let rows: Client;
let ledger: LedgerRepository;
let refunds: RefundsRepository;
let payments: PaymentsRepository;
beforeAll(async () => {
  pool = new Pool({ connectionString: testDatabaseUrl(), max: 4 });
  // Behind PgBouncer in transaction mode, no named prepared statements (as the app's config says).
  db = new Db(pool, { preparedStatements: process.env.KHOUMS_TEST_PGBOUNCER !== '1' });
  ledger = new LedgerRepository(db, new LedgerChecks());
  refunds = new RefundsRepository(db);
  payments = new PaymentsRepository(db, new PaymentPayouts());
  rows = new Client({ connectionString: testDatabaseUrl() });
  await rows.connect();
});
afterAll(async () => {
  await rows.end();
  await pool.end();
});

const transactionsOf = async (sourceId: string) =>
  (
    await rows.query(
      `SELECT type, amount::int, net::int FROM balance_transactions WHERE source_id = $1 ORDER BY created_at, type`,
      [sourceId],
    )
  ).rows;

function pendingRefund(p: PaymentRows, amount: number): Refund {
  const at = new Date();
  return {
    id: randomUUID(),
    environmentId: p.environmentId,
    organizationId: p.organizationId,
    paymentId: p.paymentId,
    paymentRequestId: p.paymentRequestId,
    transactionId: `order-${p.paymentRequestId}`,
    amount,
    status: 'pending',
    reason: null,
    failureReason: null,
    createdAt: at,
    updatedAt: at,
  };
}

it('records one transaction per source and type: a second insert of a payment’s counts nothing', async () => {
  const p = await completedPayment(rows, 1000);
  const payment = {
    type: 'payment' as const,
    amount: 1000,
    fee: 30,
    sourceId: p.paymentId,
    paymentId: p.paymentId,
    availableOn: new Date(),
    payoutId: null,
    environmentId: p.environmentId,
    organizationId: p.organizationId,
  };
  expect(await ledger.insert({ id: randomUUID(), ...payment })).toBe(true);
  expect(await ledger.insert({ id: randomUUID(), ...payment, amount: 5000 })).toBe(false);
  expect(await transactionsOf(p.paymentId)).toEqual([{ type: 'payment', amount: 1000, net: 970 }]);
  expect(await ledger.balance(p.environmentId)).toEqual({ available: 970, pending: 0 });
});

it('settles a refund once, from pending only: a failed one’s money comes back once, a second settlement changes nothing', async () => {
  const p = await completedPayment(rows, 1000);
  const refund = pendingRefund(p, 400);
  await refunds.insert(refund);
  expect(await transactionsOf(refund.id)).toEqual([{ type: 'refund', amount: -400, net: -400 }]);

  const failed = await refunds.settle(refund, { status: 'failed', reason: 'The bank refused it' });
  expect(failed).toMatchObject({ id: refund.id, status: 'failed', failureReason: 'The bank refused it' });
  expect(await refunds.settle(refund, { status: 'failed', reason: 'again' })).toBeUndefined();
  expect(await refunds.settle(refund, { status: 'succeeded', bankReference: 'R-1' })).toBeUndefined();

  expect(await transactionsOf(refund.id)).toEqual([
    { type: 'refund', amount: -400, net: -400 },
    { type: 'refund_failure', amount: 400, net: 400 },
  ]);
  const [row] = (await rows.query(`SELECT status, bank_reference FROM refunds WHERE id = $1`, [refund.id]))
    .rows;
  expect(row).toEqual({ status: 'failed', bank_reference: null });
});

it('gives a failed payout’s money back once: the database refuses a second payout_failure of it', async () => {
  const p = await completedPayment(rows, 1000);
  const payout = {
    id: randomUUID(),
    amount: 600,
    environmentId: p.environmentId,
    organizationId: p.organizationId,
  };
  await rows.query(
    `INSERT INTO payouts (id, environment_id, organization_id, amount, status, automatic, bank, holder_name, iban,
                          failure_reason)
     VALUES ($1, $2, $3, $4, 'failed', false, 'bmci', 'Shop', 'MR1300020001010000123456753', 'Account closed')`,
    [payout.id, payout.environmentId, payout.organizationId, payout.amount],
  );
  await db.transaction(() => ledger.recordPayout(payout, null));
  await ledger.recordPayoutFailure(payout);
  await expect(ledger.recordPayoutFailure(payout)).rejects.toMatchObject({ code: '23505' });
  expect(await transactionsOf(payout.id)).toEqual([
    { type: 'payout', amount: -600, net: -600 },
    { type: 'payout_failure', amount: 600, net: 600 },
  ]);
});

it('keeps balance transactions append-only: their amounts cannot be changed afterwards', async () => {
  const p = await completedPayment(rows, 1000);
  const refund = pendingRefund(p, 100);
  await refunds.insert(refund);
  await expect(
    rows.query(`UPDATE balance_transactions SET amount = -1, net = -1 WHERE source_id = $1`, [refund.id]),
  ).rejects.toThrow('balance transactions are append-only');
  expect(await transactionsOf(refund.id)).toEqual([{ type: 'refund', amount: -100, net: -100 }]);
});

it('never counts more refunded than the payment, whatever its caller checked, and gives back what a refund returns', async () => {
  const p = await completedPayment(rows, 1000);
  await payments.addRefunded(p.paymentId, 700);
  await expect(payments.addRefunded(p.paymentId, 301)).rejects.toMatchObject({ code: '23514' });
  await payments.addRefunded(p.paymentId, 300);
  await payments.addRefunded(p.paymentId, -400);
  await expect(payments.addRefunded(p.paymentId, -601)).rejects.toMatchObject({ code: '23514' });
  const [row] = (await rows.query(`SELECT refunded_amount FROM payments WHERE id = $1`, [p.paymentId])).rows;
  expect(row.refunded_amount).toBe(600);
});
