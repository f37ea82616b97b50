import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Plan changes (docs/billing.md "Changing plan"):
 *
 * - `customers.credit_balance`: whole MRU owed to the customer (a prorated downgrade), taken off
 *   their next invoices. Never below 0: the statement that takes it off checks the row it updates.
 * - `subscriptions.pending_price_id`, `pending_quantity`: a change at period end, applied by the
 *   renewal that bills the next period. Both or neither.
 */
export class PlanChanges1796800200000 implements MigrationInterface {
  name = 'PlanChanges1796800200000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE customers ADD COLUMN credit_balance integer NOT NULL DEFAULT 0 CHECK (credit_balance >= 0);
      ALTER TABLE subscriptions
        ADD COLUMN pending_price_id uuid REFERENCES prices(id),
        ADD COLUMN pending_quantity integer CHECK (pending_quantity BETWEEN 1 AND 10000),
        ADD CONSTRAINT subscriptions_pending_change_check CHECK ((pending_price_id IS NULL) = (pending_quantity IS NULL));
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE subscriptions DROP COLUMN pending_price_id, DROP COLUMN pending_quantity;
      ALTER TABLE customers DROP COLUMN credit_balance;
    `);
  }
}
