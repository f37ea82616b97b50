import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Transfer claims on test clocks (docs/billing.md "Testing with test clocks", docs/transfers.md
 * "Claims on a test clock"). The payment request of an invoice on a clock carries the clock's id
 * (copied when the billing run inserts it), and so does a payment opened for it: a transfer
 * payment's claim then runs on the clock's time, only the clock's advance expires it, and the real
 * clock's expiry job keeps to `test_clock_id IS NULL` (its partial index). No foreign key: deleting
 * a clock deletes its invoices' requests, as the subscriptions' and invoices' copies of the id do.
 */
export class TransferClaimsOnTestClocks1797400000000 implements MigrationInterface {
  name = 'TransferClaimsOnTestClocks1797400000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE payment_requests ADD COLUMN test_clock_id uuid;
      ALTER TABLE payments ADD COLUMN test_clock_id uuid;

      DROP INDEX payments_transfer_claims_idx;
      CREATE INDEX payments_transfer_claims_idx ON payments (claim_expires_at)
        WHERE status = 'pending' AND claim_expires_at IS NOT NULL AND test_clock_id IS NULL;
      CREATE INDEX payments_test_clock_claims_idx ON payments (test_clock_id, claim_expires_at)
        WHERE status = 'pending' AND claim_expires_at IS NOT NULL AND test_clock_id IS NOT NULL;
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      DROP INDEX payments_test_clock_claims_idx;
      DROP INDEX payments_transfer_claims_idx;
      CREATE INDEX payments_transfer_claims_idx ON payments (claim_expires_at)
        WHERE status = 'pending' AND claim_expires_at IS NOT NULL;
      ALTER TABLE payments DROP COLUMN test_clock_id;
      ALTER TABLE payment_requests DROP COLUMN test_clock_id;
    `);
  }
}
