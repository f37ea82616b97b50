import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The webhook claim caps an organization's deliveries in flight to its slow endpoints
 * (docs/architecture.md, "Webhook delivery"): it counts the leases of every endpoint of each
 * organization it claims for, found by this index.
 */
export class WebhookOrganizationCap1795610067057 implements MigrationInterface {
  name = 'WebhookOrganizationCap1795610067057';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE INDEX webhook_endpoints_organization_idx ON webhook_endpoints (organization_id);
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX webhook_endpoints_organization_idx');
  }
}
