import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A subscription bills `quantity` units of its price each period (docs/billing.md "Quantities"):
 * 30 pupils on one school subscription. A constant default, so adding it rewrites no row.
 */
export class SubscriptionQuantity1796800000000 implements MigrationInterface {
  name = 'SubscriptionQuantity1796800000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE subscriptions ADD COLUMN quantity integer NOT NULL DEFAULT 1 CHECK (quantity BETWEEN 1 AND 10000);
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE subscriptions DROP COLUMN quantity;`);
  }
}
