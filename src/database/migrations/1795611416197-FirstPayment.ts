import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Subscriptions that start only once paid (docs/billing.md "Subscriptions that require a first
 * payment"): `first_payment_due_by`, set at creation, is when an unpaid first invoice expires the
 * subscription (`incomplete_expired`, a new stored status); the billing run claims the
 * subscription then (`due_at`), and clears it whether it expires or was paid.
 */
export class FirstPayment1795611416197 implements MigrationInterface {
  name = 'FirstPayment1795611416197';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE subscriptions ADD COLUMN first_payment_due_by timestamptz;
      ALTER TABLE subscriptions DROP CONSTRAINT subscriptions_status_check;
      ALTER TABLE subscriptions ADD CONSTRAINT subscriptions_status_check CHECK (status IN
        ('trialing', 'active', 'paused', 'pending_cancellation', 'cancelled', 'expired', 'incomplete_expired'));
      ALTER TABLE subscriptions DROP COLUMN due_at;
      ALTER TABLE subscriptions ADD COLUMN due_at timestamptz GENERATED ALWAYS AS (
        CASE
          WHEN status IN ('trialing', 'active') THEN least(next_billing_date, expires_at, first_payment_due_by)
          WHEN status = 'pending_cancellation' THEN least(current_period_end, expires_at)
          WHEN status = 'paused' THEN expires_at
        END
      ) STORED;
      CREATE INDEX subscriptions_due_idx ON subscriptions (due_at) WHERE due_at IS NOT NULL;
      CREATE INDEX subscriptions_environment_due_idx ON subscriptions (environment_id, due_at) WHERE due_at IS NOT NULL;
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE subscriptions DROP COLUMN due_at;
      ALTER TABLE subscriptions ADD COLUMN due_at timestamptz GENERATED ALWAYS AS (
        CASE
          WHEN status IN ('trialing', 'active') THEN least(next_billing_date, expires_at)
          WHEN status = 'pending_cancellation' THEN least(current_period_end, expires_at)
          WHEN status = 'paused' THEN expires_at
        END
      ) STORED;
      CREATE INDEX subscriptions_due_idx ON subscriptions (due_at) WHERE due_at IS NOT NULL;
      CREATE INDEX subscriptions_environment_due_idx ON subscriptions (environment_id, due_at) WHERE due_at IS NOT NULL;
      ALTER TABLE subscriptions DROP CONSTRAINT subscriptions_status_check;
      ALTER TABLE subscriptions ADD CONSTRAINT subscriptions_status_check CHECK (status IN
        ('trialing', 'active', 'paused', 'pending_cancellation', 'cancelled', 'expired'));
      ALTER TABLE subscriptions DROP COLUMN first_payment_due_by;
    `);
  }
}
