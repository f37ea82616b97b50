import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The pay-attempt limit counts a payment request's failed payments per payer phone (another phone's
 * failures never lock the customer out): this index serves that count in pay's opening statement.
 */
export class PayAttemptsPerPhone1763777750000 implements MigrationInterface {
  name = 'PayAttemptsPerPhone1763777750000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE INDEX payments_failed_per_phone_idx ON payments (payment_request_id, phone_number, updated_at)
        WHERE status = 'failed';
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX payments_failed_per_phone_idx');
  }
}
