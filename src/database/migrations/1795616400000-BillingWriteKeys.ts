import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Fewer foreign-key checks per row on the billing run's hot tables (docs/billing.md "National
 * scale"). A billing batch inserts, per invoice, the invoice, its payment request and three events;
 * each foreign key of each row is one more lookup of its parent, locked FOR KEY SHARE, at the end of
 * the statement: 13 per invoice before, 9 after. The guarantees only grow:
 *
 * - events and invoices: (environment_id, organization_id) references environments
 *   (id, organization_id), instead of one key to environments and one to organizations. The
 *   environment exists, as before; the organization is the environment's, which the environment's
 *   own organization_id (a key to organizations, ON DELETE CASCADE) guarantees exists, and which
 *   the two keys did not check. Deleting an organization deletes its environments, which delete
 *   their events and invoices, as the organization's key did directly.
 *
 * The new keys need a unique constraint on environments (id, organization_id): a handful of rows,
 * never written by billing. Not taken: one key from invoices to subscriptions
 * (id, customer_id, environment_id, organization_id) in place of four, which saves two more
 * checks per invoice but needs that unique index on subscriptions, one more entry at a random place
 * each time the run moves a subscription on: over 1,000,000 due subscriptions it cost PostgreSQL as
 * much (full-page writes after each checkpoint) as the checks saved.
 *
 * Rows written before whose organization was not their environment's, if any, are given it first:
 * the environment is where an event is listed and delivered, where an invoice is billed.
 */
export class BillingWriteKeys1795616400000 implements MigrationInterface {
  name = 'BillingWriteKeys1795616400000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE environments ADD CONSTRAINT environments_id_organization_key UNIQUE (id, organization_id);
      UPDATE events v SET organization_id = e.organization_id
        FROM environments e WHERE e.id = v.environment_id AND v.organization_id <> e.organization_id;
      ALTER TABLE events DROP CONSTRAINT events_environment_id_fkey, DROP CONSTRAINT events_organization_id_fkey,
        ADD CONSTRAINT events_environment_fkey FOREIGN KEY (environment_id, organization_id)
          REFERENCES environments (id, organization_id) ON DELETE CASCADE;
      UPDATE invoices i SET organization_id = e.organization_id
        FROM environments e WHERE e.id = i.environment_id AND i.organization_id <> e.organization_id;
      ALTER TABLE invoices DROP CONSTRAINT invoices_environment_id_fkey, DROP CONSTRAINT invoices_organization_id_fkey,
        ADD CONSTRAINT invoices_environment_fkey FOREIGN KEY (environment_id, organization_id)
          REFERENCES environments (id, organization_id) ON DELETE CASCADE;
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE invoices DROP CONSTRAINT invoices_environment_fkey,
        ADD CONSTRAINT invoices_environment_id_fkey FOREIGN KEY (environment_id)
          REFERENCES environments (id) ON DELETE CASCADE,
        ADD CONSTRAINT invoices_organization_id_fkey FOREIGN KEY (organization_id)
          REFERENCES organizations (id) ON DELETE CASCADE;
      ALTER TABLE events DROP CONSTRAINT events_environment_fkey,
        ADD CONSTRAINT events_environment_id_fkey FOREIGN KEY (environment_id)
          REFERENCES environments (id) ON DELETE CASCADE,
        ADD CONSTRAINT events_organization_id_fkey FOREIGN KEY (organization_id)
          REFERENCES organizations (id) ON DELETE CASCADE;
      ALTER TABLE environments DROP CONSTRAINT environments_id_organization_key;
    `);
  }
}
