import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The billing run's hot tables check their owners once per statement instead of once per row
 * (docs/billing.md "Performance"). A foreign key is a trigger per inserted row that looks its parent
 * up and locks it FOR KEY SHARE: a billing batch of 500 invoices ran 4,500 of them, and the key
 * from an invoice to its customer wrote a row lock into a different customer's page for every
 * invoice (a dirty page, its WAL and, after a checkpoint, its full-page image), and the one to its
 * payment request a row lock into the request just inserted. Over 1,000,000 due subscriptions these
 * checks were about a quarter of PostgreSQL's work.
 *
 * - events: (environment_id, organization_id) must be an environment and its organization. Checked
 *   by a statement trigger over the inserted rows (the transition table the webhook fan-out already
 *   reads): each distinct pair is looked up and locked FOR KEY SHARE once, as the key did per row,
 *   so an environment deleted meanwhile either waits for the insert or makes it fail. Deleting an
 *   environment deletes its events, as the key's ON DELETE CASCADE did.
 * - invoices: its subscription must exist, locked FOR KEY SHARE as the key did (the billing run and
 *   every change through the API hold it locked FOR UPDATE already, so this costs no write), with
 *   the same customer_id, environment_id and organization_id; and its payment request, when it has
 *   one, must exist in its environment and name it as its invoice (payment_requests keeps its own
 *   key to invoices). Checked by a statement trigger over the inserted rows. Deleting a
 *   subscription deletes its invoices (a trigger, as the key's ON DELETE CASCADE did); deleting a
 *   customer, an environment or an organization deletes its subscriptions, so their invoices, as the
 *   keys to customers and environments did directly. A payment request is deleted only with its
 *   environment, which deletes the invoice too; nothing else deletes either.
 * - Neither table's owners, nor a subscription's, can be changed by an UPDATE (no code does): the
 *   checks at insert stay true.
 *
 * The error is the key's: SQLSTATE 23503 (foreign_key_violation).
 */
export class StatementKeys1795618000000 implements MigrationInterface {
  name = 'StatementKeys1795618000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE FUNCTION events_check_environments() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF EXISTS (SELECT 1 FROM (SELECT DISTINCT environment_id, organization_id FROM inserted_events) n
                    WHERE NOT EXISTS (SELECT 1 FROM (SELECT 1 FROM environments e
                                                      WHERE e.id = n.environment_id
                                                        AND e.organization_id = n.organization_id
                                                        FOR KEY SHARE) locked)) THEN
          RAISE EXCEPTION 'insert on table "events" violates its environment: (environment_id, organization_id) is not an environment and its organization'
            USING ERRCODE = 'foreign_key_violation', TABLE = 'events';
        END IF;
        RETURN NULL;
      END
      $$;
      CREATE TRIGGER events_environment_check AFTER INSERT ON events
        REFERENCING NEW TABLE AS inserted_events
        FOR EACH STATEMENT EXECUTE FUNCTION events_check_environments();

      CREATE FUNCTION environments_delete_events() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        DELETE FROM events WHERE environment_id = OLD.id;
        RETURN NULL;
      END
      $$;
      CREATE TRIGGER environments_events_cascade AFTER DELETE ON environments
        FOR EACH ROW EXECUTE FUNCTION environments_delete_events();

      CREATE FUNCTION invoices_check_subscriptions() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF EXISTS (SELECT 1 FROM inserted_invoices i
                     LEFT JOIN LATERAL (SELECT s.customer_id, s.environment_id, s.organization_id
                                          FROM subscriptions s WHERE s.id = i.subscription_id FOR KEY SHARE) s ON true
                    WHERE s.customer_id IS NULL
                       OR (s.customer_id, s.environment_id, s.organization_id)
                          IS DISTINCT FROM (i.customer_id, i.environment_id, i.organization_id)) THEN
          RAISE EXCEPTION 'insert on table "invoices" violates its subscription: it must exist, with the invoice''s customer_id, environment_id and organization_id'
            USING ERRCODE = 'foreign_key_violation', TABLE = 'invoices';
        END IF;
        IF EXISTS (SELECT 1 FROM inserted_invoices i
                    WHERE i.payment_request_id IS NOT NULL
                      AND NOT EXISTS (SELECT 1 FROM payment_requests r
                                       WHERE r.id = i.payment_request_id AND r.invoice_id = i.id
                                         AND r.environment_id = i.environment_id)) THEN
          RAISE EXCEPTION 'insert on table "invoices" violates its payment request: it must exist in the invoice''s environment and name the invoice'
            USING ERRCODE = 'foreign_key_violation', TABLE = 'invoices';
        END IF;
        RETURN NULL;
      END
      $$;
      CREATE TRIGGER invoices_subscription_check AFTER INSERT ON invoices
        REFERENCING NEW TABLE AS inserted_invoices
        FOR EACH STATEMENT EXECUTE FUNCTION invoices_check_subscriptions();

      CREATE FUNCTION subscriptions_delete_invoices() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        DELETE FROM invoices WHERE subscription_id = OLD.id;
        RETURN NULL;
      END
      $$;
      CREATE TRIGGER subscriptions_invoices_cascade AFTER DELETE ON subscriptions
        FOR EACH ROW EXECUTE FUNCTION subscriptions_delete_invoices();

      CREATE FUNCTION refuse_owner_change() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        RAISE EXCEPTION 'the owners of a row of "%" (%) cannot change', TG_TABLE_NAME, array_to_string(TG_ARGV, ', ')
          USING ERRCODE = 'foreign_key_violation', TABLE = TG_TABLE_NAME;
      END
      $$;
      CREATE TRIGGER events_owners_fixed BEFORE UPDATE OF environment_id, organization_id ON events
        FOR EACH ROW WHEN ((OLD.environment_id, OLD.organization_id) IS DISTINCT FROM (NEW.environment_id, NEW.organization_id))
        EXECUTE FUNCTION refuse_owner_change('environment_id', 'organization_id');
      CREATE TRIGGER invoices_owners_fixed BEFORE UPDATE OF customer_id, environment_id, organization_id, subscription_id,
                                                   payment_request_id ON invoices
        FOR EACH ROW WHEN ((OLD.customer_id, OLD.environment_id, OLD.organization_id, OLD.subscription_id, OLD.payment_request_id)
                           IS DISTINCT FROM (NEW.customer_id, NEW.environment_id, NEW.organization_id, NEW.subscription_id,
                                             NEW.payment_request_id))
        EXECUTE FUNCTION refuse_owner_change('customer_id', 'environment_id', 'organization_id', 'subscription_id',
                                             'payment_request_id');
      CREATE TRIGGER subscriptions_owners_fixed BEFORE UPDATE OF customer_id, environment_id, organization_id ON subscriptions
        FOR EACH ROW WHEN ((OLD.customer_id, OLD.environment_id, OLD.organization_id)
                           IS DISTINCT FROM (NEW.customer_id, NEW.environment_id, NEW.organization_id))
        EXECUTE FUNCTION refuse_owner_change('customer_id', 'environment_id', 'organization_id');
      CREATE TRIGGER environments_owner_fixed BEFORE UPDATE OF id, organization_id ON environments
        FOR EACH ROW WHEN ((OLD.id, OLD.organization_id) IS DISTINCT FROM (NEW.id, NEW.organization_id))
        EXECUTE FUNCTION refuse_owner_change('id', 'organization_id');

      ALTER TABLE events DROP CONSTRAINT events_environment_fkey;
      ALTER TABLE invoices DROP CONSTRAINT invoices_environment_fkey, DROP CONSTRAINT invoices_customer_id_fkey,
        DROP CONSTRAINT invoices_subscription_id_fkey, DROP CONSTRAINT invoices_payment_request_id_fkey;
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE invoices
        ADD CONSTRAINT invoices_payment_request_id_fkey FOREIGN KEY (payment_request_id) REFERENCES payment_requests (id),
        ADD CONSTRAINT invoices_subscription_id_fkey FOREIGN KEY (subscription_id) REFERENCES subscriptions (id)
          ON DELETE CASCADE,
        ADD CONSTRAINT invoices_customer_id_fkey FOREIGN KEY (customer_id) REFERENCES customers (id) ON DELETE CASCADE,
        ADD CONSTRAINT invoices_environment_fkey FOREIGN KEY (environment_id, organization_id)
          REFERENCES environments (id, organization_id) ON DELETE CASCADE;
      ALTER TABLE events ADD CONSTRAINT events_environment_fkey FOREIGN KEY (environment_id, organization_id)
        REFERENCES environments (id, organization_id) ON DELETE CASCADE;
      DROP TRIGGER environments_owner_fixed ON environments;
      DROP TRIGGER subscriptions_owners_fixed ON subscriptions;
      DROP TRIGGER invoices_owners_fixed ON invoices;
      DROP TRIGGER events_owners_fixed ON events;
      DROP FUNCTION refuse_owner_change();
      DROP TRIGGER subscriptions_invoices_cascade ON subscriptions;
      DROP FUNCTION subscriptions_delete_invoices();
      DROP TRIGGER invoices_subscription_check ON invoices;
      DROP FUNCTION invoices_check_subscriptions();
      DROP TRIGGER environments_events_cascade ON environments;
      DROP FUNCTION environments_delete_events();
      DROP TRIGGER events_environment_check ON events;
      DROP FUNCTION events_check_environments();
    `);
  }
}
