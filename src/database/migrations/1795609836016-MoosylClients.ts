import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What Moosyl's generated clients read (docs/moosyl.md): a payment request counts the payments
 * opened for it (its `retryCount` is the count after the first; pay's opening statement adds one),
 * a payment method knows when it last changed, and an organization has a public support phone
 * and website its owner sets in the dashboard (never the legal representative's phone).
 */
export class MoosylClients1795609836016 implements MigrationInterface {
  name = 'MoosylClients1795609836016';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE payment_requests ADD COLUMN payment_count integer NOT NULL DEFAULT 0 CHECK (payment_count >= 0);
      UPDATE payment_requests pr SET payment_count = c.n
        FROM (SELECT payment_request_id, count(*)::int AS n FROM payments GROUP BY payment_request_id) c
       WHERE c.payment_request_id = pr.id;

      ALTER TABLE payment_methods ADD COLUMN updated_at timestamptz;
      UPDATE payment_methods SET updated_at = created_at;
      ALTER TABLE payment_methods ALTER COLUMN updated_at SET NOT NULL, ALTER COLUMN updated_at SET DEFAULT now();

      ALTER TABLE organizations
        ADD COLUMN support_phone text NOT NULL DEFAULT '' CHECK (support_phone = '' OR support_phone ~ '^[234][0-9]{7}$'),
        ADD COLUMN website text CHECK (length(website) <= 2048);
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE organizations DROP COLUMN support_phone, DROP COLUMN website;
      ALTER TABLE payment_methods DROP COLUMN updated_at;
      ALTER TABLE payment_requests DROP COLUMN payment_count;
    `);
  }
}
