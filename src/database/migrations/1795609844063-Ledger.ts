import { MigrationInterface, QueryRunner } from 'typeorm';

/** A whole number from the environment (the service validates the same settings at start-up). */
function setting(name: string, fallback: number, max: number): number {
  const text = process.env[name]?.trim();
  if (text === undefined || text === '') return fallback;
  const value = Number(text);
  if (!/^\d+$/.test(text) || value > max) throw new Error(`${name} must be a whole number from 0 to ${max}`);
  return value;
}

/**
 * The ledger (docs/ledger.md): every money movement of an environment is one balance transaction,
 * append-only, in integer MRU (`amount` and `net` signed, money in positive; `net = amount - fee`).
 * One transaction per (source, type): a payment has exactly one `payment` transaction, a refund
 * one `refund` and at most one `refund_failure`, and so on; the database refuses a second.
 *
 * `balance_days` keeps, per environment and UTC day of `available_on`, the sum of `net`, spread
 * over a few slots so that concurrent payments of one environment do not queue on one row; a
 * trigger adds each transaction to it, so `GET /balance` reads a few rows per day of history
 * instead of summing every transaction.
 *
 * Payments completed before the ledger get their `payment` transaction here, with the fee of their
 * organization's rate (or DEFAULT_FEE_BPS) and available PAYOUT_DELAY_DAYS after completion.
 */
export class Ledger1795609844063 implements MigrationInterface {
  name = 'Ledger1795609844063';

  async up(q: QueryRunner): Promise<void> {
    const defaultFeeBps = setting('DEFAULT_FEE_BPS', 0, 10000);
    const delayDays = setting('PAYOUT_DELAY_DAYS', 1, 365);
    await q.query(`
      CREATE TABLE balance_transactions (
        id uuid PRIMARY KEY,
        type text NOT NULL CHECK (type IN ('payment', 'refund', 'refund_failure', 'payout', 'payout_failure',
                                           'application_fee', 'application_fee_received')),
        amount bigint NOT NULL,
        fee bigint NOT NULL DEFAULT 0 CHECK (fee >= 0),
        net bigint NOT NULL,
        currency text NOT NULL DEFAULT 'MRU' CHECK (currency = 'MRU'),
        source_id uuid NOT NULL,
        -- The payment a payment, refund or application fee concerns (the settlement report's method).
        payment_id uuid,
        available_on timestamptz NOT NULL,
        payout_id uuid,
        environment_id uuid NOT NULL REFERENCES environments(id) ON DELETE CASCADE,
        organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        created_at timestamptz NOT NULL DEFAULT now(),
        CHECK (net = amount - fee)
      );
      CREATE UNIQUE INDEX balance_transactions_one_per_source ON balance_transactions (source_id, type);
      CREATE INDEX balance_transactions_list_idx ON balance_transactions (environment_id, created_at DESC, id DESC);
      CREATE INDEX balance_transactions_type_idx ON balance_transactions (environment_id, type, created_at DESC, id DESC);
      CREATE INDEX balance_transactions_available_idx ON balance_transactions (environment_id, available_on);
      CREATE INDEX balance_transactions_payout_idx ON balance_transactions (payout_id, created_at DESC, id DESC)
        WHERE payout_id IS NOT NULL;

      CREATE TABLE balance_days (
        environment_id uuid NOT NULL REFERENCES environments(id) ON DELETE CASCADE,
        day date NOT NULL,
        slot smallint NOT NULL,
        net bigint NOT NULL,
        PRIMARY KEY (environment_id, day, slot)
      );

      CREATE FUNCTION balance_transactions_add_to_day() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO balance_days (environment_id, day, slot, net)
        VALUES (NEW.environment_id, (NEW.available_on AT TIME ZONE 'UTC')::date,
                abs(hashtext(NEW.id::text)) % 8, NEW.net)
        ON CONFLICT (environment_id, day, slot) DO UPDATE SET net = balance_days.net + EXCLUDED.net;
        RETURN NULL;
      END $$;
      CREATE TRIGGER balance_transactions_added AFTER INSERT ON balance_transactions
        FOR EACH ROW EXECUTE FUNCTION balance_transactions_add_to_day();
      -- Append-only: a transaction is never changed but for the payout that paid it, nor deleted
      -- but with its environment.
      CREATE FUNCTION balance_transactions_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF (NEW.id, NEW.type, NEW.amount, NEW.fee, NEW.net, NEW.source_id, NEW.available_on, NEW.environment_id)
           IS DISTINCT FROM (OLD.id, OLD.type, OLD.amount, OLD.fee, OLD.net, OLD.source_id, OLD.available_on, OLD.environment_id) THEN
          RAISE EXCEPTION 'balance transactions are append-only';
        END IF;
        RETURN NEW;
      END $$;
      CREATE TRIGGER balance_transactions_unchanged BEFORE UPDATE ON balance_transactions
        FOR EACH ROW EXECUTE FUNCTION balance_transactions_append_only();

      ALTER TABLE payments ADD COLUMN refunded_amount integer NOT NULL DEFAULT 0
        CHECK (refunded_amount >= 0 AND refunded_amount <= amount);
    `);
    await q.query(
      `INSERT INTO balance_transactions (id, type, amount, fee, net, source_id, payment_id, available_on,
                                         environment_id, organization_id, created_at)
       SELECT gen_random_uuid(), 'payment', p.amount, f.fee, p.amount - f.fee, p.id, p.id,
              p.completed_at + make_interval(days => $2::int), p.environment_id, e.organization_id, p.completed_at
         FROM payments p
         JOIN environments e ON e.id = p.environment_id
         JOIN organizations o ON o.id = e.organization_id
        CROSS JOIN LATERAL (SELECT (p.amount::bigint * COALESCE(o.fee_bps, $1::int) + 5000) / 10000 AS fee) f
        WHERE p.status = 'completed'
       ON CONFLICT (source_id, type) DO NOTHING`,
      [defaultFeeBps, delayDays],
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE payments DROP COLUMN refunded_amount;
      DROP TABLE balance_days, balance_transactions;
      DROP FUNCTION balance_transactions_add_to_day();
      DROP FUNCTION balance_transactions_append_only();
    `);
  }
}
