import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { runMigrations } from '../../src/database/data-source';
import { Ledger1795609844063 } from '../../src/database/migrations/1795609844063-Ledger';
import { emptyDatabase, migrateUpTo } from '../helpers/app';

/*
 * Payments completed before the ledger existed get their `payment` transaction in the migration
 * (docs/ledger.md): the organization's fee rate, else DEFAULT_FEE_BPS, rounded half up; available
 * PAYOUT_DELAY_DAYS after completion; failed and pending payments nothing; the balance follows.
 */
jest.setTimeout(60_000);

let url: string;
let drop: () => Promise<void>;
beforeAll(async () => {
  ({ url, drop } = await emptyDatabase());
});
afterAll(() => drop());

it('backfills one payment transaction per completed payment, with the fee and availability of today’s rules', async () => {
  await migrateUpTo(url, Ledger1795609844063);

  const db = new Client({ connectionString: url });
  await db.connect();
  try {
    const organization = async (feeBps: number | null) => {
      const id = randomUUID();
      await db.query(`INSERT INTO organizations (id, name, fee_bps) VALUES ($1, 'Old shop', $2)`, [
        id,
        feeBps,
      ]);
      const environmentId = randomUUID();
      await db.query(`INSERT INTO environments (id, organization_id, kind) VALUES ($1, $2, 'production')`, [
        environmentId,
        id,
      ]);
      const [method] = (
        await db.query(
          `INSERT INTO payment_methods (environment_id, type, name, requires_pass_code, code)
           VALUES ($1, 'masrivi', 'Masrivi', false, 'masrivi') RETURNING id`,
          [environmentId],
        )
      ).rows;
      return { id, environmentId, methodId: method.id as string };
    };
    let n = 0;
    const payment = async (
      o: { environmentId: string; methodId: string },
      amount: number,
      status: string,
    ) => {
      const request = randomUUID();
      await db.query(
        `INSERT INTO payment_requests (id, environment_id, transaction_id, amount) VALUES ($1, $2, $3, $4)`,
        [request, o.environmentId, `old-${++n}`, amount],
      );
      const id = randomUUID();
      await db.query(
        `INSERT INTO payments (id, environment_id, payment_request_id, payment_method_id, amount, phone_number,
                               status, completed_at, next_check_at)
         VALUES ($1, $2, $3, $4, $5, '22123456', $6,
                 CASE WHEN $6 = 'completed' THEN now() - interval '3 days' END, now())`,
        [id, o.environmentId, request, o.methodId, amount, status],
      );
      return id;
    };
    const rated = await organization(300);
    const plain = await organization(null);
    const a = await payment(rated, 1000, 'completed'); // 3 % -> 30
    const b = await payment(rated, 1050, 'completed'); // 31.5 -> 32
    await payment(rated, 900, 'failed');
    await payment(rated, 800, 'pending');
    const c = await payment(plain, 1250, 'completed'); // DEFAULT_FEE_BPS 100: 12.5 -> 13

    process.env.DEFAULT_FEE_BPS = '100';
    try {
      await runMigrations(url);
    } finally {
      delete process.env.DEFAULT_FEE_BPS;
    }

    const rows = (
      await db.query(
        `SELECT t.source_id, t.type, t.amount::int, t.fee::int, t.net::int, t.payment_id = t.source_id AS own,
                t.available_on = p.completed_at + interval '1 day' AS available_next_day, t.organization_id
           FROM balance_transactions t JOIN payments p ON p.id = t.source_id ORDER BY t.amount`,
      )
    ).rows;
    expect(rows).toEqual([
      {
        source_id: a,
        type: 'payment',
        amount: 1000,
        fee: 30,
        net: 970,
        own: true,
        available_next_day: true,
        organization_id: rated.id,
      },
      {
        source_id: b,
        type: 'payment',
        amount: 1050,
        fee: 32,
        net: 1018,
        own: true,
        available_next_day: true,
        organization_id: rated.id,
      },
      {
        source_id: c,
        type: 'payment',
        amount: 1250,
        fee: 13,
        net: 1237,
        own: true,
        available_next_day: true,
        organization_id: plain.id,
      },
    ]);
    // The balance reads what the trigger added: available, since a day has passed.
    const days = (
      await db.query(`SELECT environment_id, sum(net)::int AS net FROM balance_days GROUP BY 1 ORDER BY 2`)
    ).rows;
    expect(days).toEqual([
      { environment_id: plain.environmentId, net: 1237 },
      { environment_id: rated.environmentId, net: 1988 },
    ]);
  } finally {
    await db.end();
  }
});
