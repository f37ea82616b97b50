import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The dashboard's billing pages (docs/dashboard.md): their lists are keyset pages in the order
 * `created_at DESC, id DESC`, each read off an index that ends in that order. Products and
 * subscriptions already have theirs; invoices are listed per environment (the API lists them per
 * organization, on invoices_list_idx), and customers are found by phone number.
 */
export class DashboardBilling1763777600000 implements MigrationInterface {
  name = 'DashboardBilling1763777600000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE INDEX invoices_environment_list_idx ON invoices (environment_id, created_at DESC, id DESC);
      CREATE INDEX invoices_environment_status_idx ON invoices (environment_id, status, created_at DESC, id DESC);
      CREATE INDEX customers_phone_idx ON customers (organization_id, phone, created_at DESC, id DESC) WHERE phone IS NOT NULL;
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(
      `DROP INDEX invoices_environment_list_idx, invoices_environment_status_idx, customers_phone_idx`,
    );
  }
}
