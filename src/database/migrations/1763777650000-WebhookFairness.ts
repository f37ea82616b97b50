import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Fair webhook claiming (docs/api.md, "Webhooks"): the claim walks the endpoints that have pending
 * deliveries and takes each one's oldest due ones, up to its free slots, which it counts from the
 * deliveries leased to workers. Both need an index by endpoint.
 */
export class WebhookFairness1763777650000 implements MigrationInterface {
  name = 'WebhookFairness1763777650000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE INDEX webhook_deliveries_endpoint_due_idx ON webhook_deliveries (endpoint_id, next_attempt_at)
        WHERE status = 'pending';
      CREATE INDEX webhook_deliveries_leased_idx ON webhook_deliveries (endpoint_id, locked_until)
        WHERE locked_until IS NOT NULL;
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX webhook_deliveries_endpoint_due_idx; DROP INDEX webhook_deliveries_leased_idx');
  }
}
