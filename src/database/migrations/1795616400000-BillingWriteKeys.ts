import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Fewer foreign-key checks per row on the billing run's hot tables (docs/billing.md "National
 * scale"). A billing batch inserts, per invoice, the invoice, its payment request and three events;
 * each foreign key of each row is one more lookup of its parent, locked FOR KEY SHARE, at the end of
 * the statement: 13 per invoice before, 7 after. The guarantees only grow:
 *
 * - events: (environment_id, organization_id) references environments (id, organization_id),
 *   instead of one key to environments and one to organizations. The environment exists, as
 *   before; the organization is the environment's, which an environment's organization_id (itself a
 *   key to organizations, ON DELETE CASCADE) guarantees exists, and which the two keys did not
 *   check. Deleting an organization deletes its environments, which delete their events, as the
 *   organization's key did directly.
 * - invoices: (subscription_id, customer_id, environment_id, organization_id) references
 *   subscriptions, instead of four keys (to subscriptions, customers, environments, organizations).
 *   Every invoice has its subscription (subscription_id is NOT NULL), whose own keys guarantee its
 *   customer, environment and organization; now the invoice's are also its subscription's, which
 *   the four keys did not check. Deleting a customer, an environment or an organization deletes its
 *   subscriptions (ON DELETE CASCADE), which delete their invoices, as the three dropped keys did
 *   directly.
 *
 * The keys need a unique constraint on the referenced columns: environments (id, organization_id)
 * (a handful of rows) and subscriptions (id, customer_id, environment_id, organization_id) (one
 * more index entry per subscription written, cheaper than the three lookups it saves per invoice).
 *
 * Rows written before, whose organization (events) or customer, environment and organization
 * (invoices) were not their environment's or subscription's, if any, are given those first: the
 * environment is where an event is listed and delivered, the subscription what an invoice bills.
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

      ALTER TABLE subscriptions ADD CONSTRAINT subscriptions_owners_key
        UNIQUE (id, customer_id, environment_id, organization_id);
      UPDATE invoices i SET customer_id = s.customer_id, environment_id = s.environment_id,
                            organization_id = s.organization_id
        FROM subscriptions s
       WHERE s.id = i.subscription_id
         AND (i.customer_id, i.environment_id, i.organization_id)
             IS DISTINCT FROM (s.customer_id, s.environment_id, s.organization_id);
      ALTER TABLE invoices DROP CONSTRAINT invoices_subscription_id_fkey, DROP CONSTRAINT invoices_customer_id_fkey,
        DROP CONSTRAINT invoices_environment_id_fkey, DROP CONSTRAINT invoices_organization_id_fkey,
        ADD CONSTRAINT invoices_subscription_fkey
          FOREIGN KEY (subscription_id, customer_id, environment_id, organization_id)
          REFERENCES subscriptions (id, customer_id, environment_id, organization_id) ON DELETE CASCADE;
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE invoices DROP CONSTRAINT invoices_subscription_fkey,
        ADD CONSTRAINT invoices_subscription_id_fkey FOREIGN KEY (subscription_id)
          REFERENCES subscriptions (id) ON DELETE CASCADE,
        ADD CONSTRAINT invoices_customer_id_fkey FOREIGN KEY (customer_id) REFERENCES customers (id) ON DELETE CASCADE,
        ADD CONSTRAINT invoices_environment_id_fkey FOREIGN KEY (environment_id)
          REFERENCES environments (id) ON DELETE CASCADE,
        ADD CONSTRAINT invoices_organization_id_fkey FOREIGN KEY (organization_id)
          REFERENCES organizations (id) ON DELETE CASCADE;
      ALTER TABLE subscriptions DROP CONSTRAINT subscriptions_owners_key;
      ALTER TABLE events DROP CONSTRAINT events_environment_fkey,
        ADD CONSTRAINT events_environment_id_fkey FOREIGN KEY (environment_id)
          REFERENCES environments (id) ON DELETE CASCADE,
        ADD CONSTRAINT events_organization_id_fkey FOREIGN KEY (organization_id)
          REFERENCES organizations (id) ON DELETE CASCADE;
      ALTER TABLE environments DROP CONSTRAINT environments_id_organization_key;
    `);
  }
}
