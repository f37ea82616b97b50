import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Coupons (docs/billing.md "Coupons"), organization-scoped like customers. `times_redeemed` is
 * counted by the conditional update that redeems one (under its row lock, checking
 * `max_redemptions` and `expires_at` again), so concurrent redemptions never pass the limit; the
 * CHECK holds it whatever the code does.
 *
 * A subscription's discount: `coupon_id`, the periods it has discounted (`discount_periods_applied`)
 * and after how many it ends (`discount_ends_after`: 1 for once, n for repeating, null for forever).
 */
export class Coupons1796800300000 implements MigrationInterface {
  name = 'Coupons1796800300000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE coupons (
        id uuid PRIMARY KEY,
        organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        code text NOT NULL CHECK (code ~ '^[A-Z0-9_-]{3,40}$'),
        percent_off integer CHECK (percent_off BETWEEN 1 AND 100),
        amount_off integer CHECK (amount_off BETWEEN 1 AND 100000000),
        duration text NOT NULL CHECK (duration IN ('once', 'repeating', 'forever')),
        duration_in_periods integer CHECK (duration_in_periods BETWEEN 1 AND 120),
        max_redemptions integer CHECK (max_redemptions >= 1),
        times_redeemed integer NOT NULL DEFAULT 0 CHECK (times_redeemed >= 0),
        expires_at timestamptz,
        archived boolean NOT NULL DEFAULT false,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        CHECK ((percent_off IS NULL) <> (amount_off IS NULL)),
        CHECK ((duration = 'repeating') = (duration_in_periods IS NOT NULL)),
        CHECK (max_redemptions IS NULL OR times_redeemed <= max_redemptions)
      );
      CREATE UNIQUE INDEX coupons_code_key ON coupons (organization_id, code);
      CREATE INDEX coupons_list_idx ON coupons (organization_id, created_at DESC, id DESC);

      ALTER TABLE subscriptions
        ADD COLUMN coupon_id uuid REFERENCES coupons(id),
        ADD COLUMN discount_periods_applied integer NOT NULL DEFAULT 0 CHECK (discount_periods_applied >= 0),
        ADD COLUMN discount_ends_after integer CHECK (discount_ends_after >= 1);
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE subscriptions DROP COLUMN coupon_id, DROP COLUMN discount_periods_applied, DROP COLUMN discount_ends_after;
      DROP TABLE coupons;
    `);
  }
}
