import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Payouts (docs/payouts.md): the payout schedule of each environment and the payouts themselves.
 *
 * Every environment has its schedule row (daily, minimum 1000 MRU by default): new environments get
 * theirs when they are created, existing ones here. The payout job claims the rows of the
 * environments due today (`last_paid_on` before today) with FOR UPDATE SKIP LOCKED, and every payout
 * of an environment is made under its row's lock, so a balance is paid out once whatever runs at once.
 *
 * A payout keeps the destination it was sent to (the IBAN whole, for the gateway; the API shows its
 * last four digits), and `next_attempt_at`: when the job may next ask the gateway about it (a lease,
 * so a payout whose sender died is sent again, idempotently, by another instance).
 */
export class Payouts1795610234370 implements MigrationInterface {
  name = 'Payouts1795610234370';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE payout_schedules (
        environment_id uuid PRIMARY KEY REFERENCES environments(id) ON DELETE CASCADE,
        organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        interval text NOT NULL DEFAULT 'daily' CHECK (interval IN ('daily', 'weekly', 'manual')),
        weekly_day text CHECK (weekly_day IN ('monday', 'tuesday', 'wednesday', 'thursday', 'friday',
                                              'saturday', 'sunday')),
        minimum_amount bigint NOT NULL DEFAULT 1000 CHECK (minimum_amount BETWEEN 1 AND 100000000),
        -- The UTC day the job last considered this environment (paid it, or found nothing to pay).
        last_paid_on date,
        updated_at timestamptz NOT NULL DEFAULT now(),
        CHECK ((interval = 'weekly') = (weekly_day IS NOT NULL))
      );
      CREATE INDEX payout_schedules_due_idx ON payout_schedules (last_paid_on) WHERE interval <> 'manual';
      INSERT INTO payout_schedules (environment_id, organization_id) SELECT id, organization_id FROM environments;

      CREATE TABLE payouts (
        id uuid PRIMARY KEY,
        environment_id uuid NOT NULL REFERENCES environments(id) ON DELETE CASCADE,
        organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        amount bigint NOT NULL CHECK (amount > 0),
        status text NOT NULL CHECK (status IN ('pending', 'in_transit', 'paid', 'failed')),
        -- Made by the schedule (true) or by POST /payouts (false).
        automatic boolean NOT NULL,
        bank text NOT NULL,
        holder_name text NOT NULL,
        iban text NOT NULL CHECK (iban ~ '^MR[0-9]{25}$'),
        failure_reason text CHECK (length(failure_reason) <= 200),
        bank_reference text CHECK (length(bank_reference) <= 200),
        arrived_at timestamptz,
        attempts integer NOT NULL DEFAULT 0,
        next_attempt_at timestamptz NOT NULL DEFAULT now(),
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CHECK ((status = 'failed') = (failure_reason IS NOT NULL)),
        CHECK ((status = 'paid') = (arrived_at IS NOT NULL))
      );
      CREATE INDEX payouts_list_idx ON payouts (environment_id, created_at DESC, id DESC);
      CREATE INDEX payouts_status_idx ON payouts (environment_id, status, created_at DESC, id DESC);
      CREATE INDEX payouts_unsettled_idx ON payouts (next_attempt_at) WHERE status IN ('pending', 'in_transit');

      -- What a payout of the whole balance links: the environment's transactions not yet paid out,
      -- found without walking its whole history.
      CREATE INDEX balance_transactions_unpaid_idx ON balance_transactions (environment_id, available_on)
        WHERE payout_id IS NULL;
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX balance_transactions_unpaid_idx; DROP TABLE payouts, payout_schedules;`);
  }
}
