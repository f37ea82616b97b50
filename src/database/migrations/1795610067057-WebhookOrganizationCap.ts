import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The webhook claim caps an organization's deliveries in flight to its slow endpoints
 * (docs/architecture.md, "Webhook delivery"): it counts the leases of every endpoint of each
 * organization it claims for, found by the index.
 *
 * `webhook_endpoint_leases` counts an endpoint's live leases (up to `bound`, oldest first) and
 * those of other workers taken before `hanging_before`, with an index scan on
 * webhook_deliveries_leased_idx. Not a bitmap scan, which the planner prefers for the few live
 * leases it expects: every lease taken and finished leaves an index entry whose key (the lease's
 * end) still matches until vacuum, and only an index scan marks such entries dead for the next
 * scans; a bitmap scan reads all of a burst's thousands again at every claim.
 */
export class WebhookOrganizationCap1795610067057 implements MigrationInterface {
  name = 'WebhookOrganizationCap1795610067057';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE INDEX webhook_endpoints_organization_idx ON webhook_endpoints (organization_id);
      CREATE FUNCTION webhook_endpoint_leases(p_endpoint uuid, p_worker uuid, p_hanging_before timestamptz, p_bound int)
        RETURNS TABLE (leased int, hanging int)
        LANGUAGE sql STABLE
        SET enable_bitmapscan = off
        AS $$
          SELECT count(*)::int,
                 count(*) FILTER (WHERE l.locked_by <> p_worker AND l.locked_until < p_hanging_before)::int
            FROM (SELECT d.locked_by, d.locked_until FROM webhook_deliveries d
                   WHERE d.endpoint_id = p_endpoint AND d.locked_until > now()
                   ORDER BY d.locked_until LIMIT p_bound) l
        $$;
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP FUNCTION webhook_endpoint_leases; DROP INDEX webhook_endpoints_organization_idx');
  }
}
