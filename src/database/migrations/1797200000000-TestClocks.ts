import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Sandbox test clocks (docs/billing.md "Testing with test clocks"). A clock has the time its
 * objects live at: `frozen_time` is the time asked for (the API's `frozenTime`), `position` the time
 * the advance has reached (equal to `frozen_time` once `ready`). An advance is claimed by a lease
 * (`claimed_by`, `claimed_until`): one instance works on a clock at a time, and a process killed
 * mid-advance leaves the clock at the last moment it finished, which the next claim resumes from.
 *
 * Customers created on a clock carry its id, and so do their subscriptions and invoices (copied at
 * insertion): every time-driven run filters on it, the real clock's on `test_clock_id IS NULL`
 * (partial indexes of their own), a clock's on its id. Deleting a clock deletes its customers, and
 * so their subscriptions and invoices (ON DELETE CASCADE).
 */
export class TestClocks1797200000000 implements MigrationInterface {
  name = 'TestClocks1797200000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE test_clocks (
        id uuid PRIMARY KEY,
        organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        environment_id uuid NOT NULL REFERENCES environments(id) ON DELETE CASCADE,
        name text CHECK (char_length(name) <= 200),
        frozen_time timestamptz NOT NULL,
        position timestamptz NOT NULL,
        status text NOT NULL CHECK (status IN ('ready', 'advancing')),
        claimed_by uuid,
        claimed_until timestamptz,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        CHECK (position <= frozen_time)
      );
      CREATE INDEX test_clocks_environment_idx ON test_clocks (environment_id, created_at DESC, id DESC);
      CREATE INDEX test_clocks_advancing_idx ON test_clocks (claimed_until) WHERE status = 'advancing';

      ALTER TABLE customers ADD COLUMN test_clock_id uuid REFERENCES test_clocks(id) ON DELETE CASCADE;
      CREATE INDEX customers_test_clock_idx ON customers (test_clock_id) WHERE test_clock_id IS NOT NULL;
      ALTER TABLE subscriptions ADD COLUMN test_clock_id uuid;
      ALTER TABLE invoices ADD COLUMN test_clock_id uuid;

      DROP INDEX subscriptions_due_idx;
      DROP INDEX subscriptions_environment_due_idx;
      CREATE INDEX subscriptions_due_idx ON subscriptions (due_at) WHERE due_at IS NOT NULL AND test_clock_id IS NULL;
      CREATE INDEX subscriptions_environment_due_idx ON subscriptions (environment_id, due_at)
        WHERE due_at IS NOT NULL AND test_clock_id IS NULL;
      CREATE INDEX subscriptions_test_clock_due_idx ON subscriptions (test_clock_id, due_at)
        WHERE due_at IS NOT NULL AND test_clock_id IS NOT NULL;

      DROP INDEX invoices_reminder_idx;
      DROP INDEX invoices_reminder_all_idx;
      CREATE INDEX invoices_reminder_idx ON invoices (environment_id, reminder_at)
        WHERE status = 'pending' AND reminder_at IS NOT NULL AND test_clock_id IS NULL;
      CREATE INDEX invoices_reminder_all_idx ON invoices (reminder_at)
        WHERE status = 'pending' AND reminder_at IS NOT NULL AND test_clock_id IS NULL;
      CREATE INDEX invoices_test_clock_reminder_idx ON invoices (test_clock_id, reminder_at)
        WHERE status = 'pending' AND reminder_at IS NOT NULL AND test_clock_id IS NOT NULL;
      CREATE INDEX invoices_test_clock_due_idx ON invoices (test_clock_id, due_date)
        WHERE status = 'pending' AND test_clock_id IS NOT NULL;
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      DROP INDEX invoices_test_clock_due_idx;
      DROP INDEX invoices_test_clock_reminder_idx;
      DROP INDEX invoices_reminder_idx;
      DROP INDEX invoices_reminder_all_idx;
      CREATE INDEX invoices_reminder_idx ON invoices (environment_id, reminder_at)
        WHERE status = 'pending' AND reminder_at IS NOT NULL;
      CREATE INDEX invoices_reminder_all_idx ON invoices (reminder_at)
        WHERE status = 'pending' AND reminder_at IS NOT NULL;
      DROP INDEX subscriptions_test_clock_due_idx;
      DROP INDEX subscriptions_due_idx;
      DROP INDEX subscriptions_environment_due_idx;
      CREATE INDEX subscriptions_due_idx ON subscriptions (due_at) WHERE due_at IS NOT NULL;
      CREATE INDEX subscriptions_environment_due_idx ON subscriptions (environment_id, due_at) WHERE due_at IS NOT NULL;
      ALTER TABLE invoices DROP COLUMN test_clock_id;
      ALTER TABLE subscriptions DROP COLUMN test_clock_id;
      ALTER TABLE customers DROP COLUMN test_clock_id;
      DROP TABLE test_clocks;
    `);
  }
}
