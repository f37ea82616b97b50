import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Every prorated change has its invoice (docs/billing.md "Changing plan"): `proration_seq` numbers
 * the proration invoices of a subscription that start at the same instant (1, 2, … — two changes in
 * one millisecond, or a change on a period's first instant, beside that period's own invoice), 0 for
 * a period's invoice. The key becomes one invoice per subscription, period start and `proration_seq`:
 * still one invoice per billed period (the billing run's dedupe), and as many prorations as changes.
 * It still leads with the subscription, so it still finds a subscription's invoices.
 *
 * Existing proration invoices (at most one per subscription and instant under the old key) take 1.
 */
export class ProrationSeq1796860000000 implements MigrationInterface {
  name = 'ProrationSeq1796860000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE invoices ADD COLUMN proration_seq integer NOT NULL DEFAULT 0;
      UPDATE invoices SET proration_seq = 1 WHERE proration;
      ALTER TABLE invoices ADD CONSTRAINT invoices_proration_seq_check CHECK (proration = (proration_seq > 0));
      DROP INDEX invoices_period_key;
      CREATE UNIQUE INDEX invoices_period_key ON invoices (subscription_id, period_start, proration_seq);
    `);
  }

  /** Refused (by the old unique index) while two prorations of a subscription start at the same instant: invoices are never dropped. */
  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      DROP INDEX invoices_period_key;
      CREATE UNIQUE INDEX invoices_period_key ON invoices (subscription_id, period_start, proration);
      ALTER TABLE invoices DROP CONSTRAINT invoices_proration_seq_check, DROP COLUMN proration_seq;
    `);
  }
}
