import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A payment request whose invoice was voided can no longer be paid: `voided_at` marks it, and
 * opening a payment requires it null (checked under the request's row lock).
 */
export class VoidPaymentRequests1763777500000 implements MigrationInterface {
  name = 'VoidPaymentRequests1763777500000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE payment_requests ADD COLUMN voided_at timestamptz;
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE payment_requests DROP COLUMN voided_at');
  }
}
