import { Ledger1795609844063 } from '../../src/database/migrations/1795609844063-Ledger';
import { migrationDatabase, OldEnvironment, oldOrganization, oldPayment } from '../helpers/migrations';

/*
 * Payments completed before the ledger existed get their `payment` transaction in the migration
 * (docs/ledger.md): the organization's fee rate, else DEFAULT_FEE_BPS, rounded half up; available
 * PAYOUT_DELAY_DAYS after completion; failed and pending payments nothing; the balance follows.
 */
jest.setTimeout(60_000);

const m = migrationDatabase(Ledger1795609844063);

it('backfills one payment transaction per completed payment, with the fee and availability of today’s rules', async () => {
  const db = m.db;
  const organization = async (feeBps: number | null) => {
    const o = await oldOrganization(db, { feeBps });
    return { id: o.id, ...o.environments.production };
  };
  const payment = (o: OldEnvironment, amount: number, status: string) =>
    oldPayment(db, o, { amount, status, completedAgo: '3 days' });
  const rated = await organization(300);
  const plain = await organization(null);
  const a = await payment(rated, 1000, 'completed'); // 3 % -> 30
  const b = await payment(rated, 1050, 'completed'); // 31.5 -> 32
  await payment(rated, 900, 'failed');
  await payment(rated, 800, 'pending');
  const c = await payment(plain, 1250, 'completed'); // DEFAULT_FEE_BPS 100: 12.5 -> 13

  await m.migrateRest({ DEFAULT_FEE_BPS: '100' });

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
});
