import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Platforms and their connected accounts (docs/platforms.md): the platform that connected an
 * organization, its single-use onboarding links, application fees on payment requests and
 * subscriptions, and webhook endpoints of a platform that receive its accounts' events. The fan-out
 * trigger learns the last: an event of a connected organization also goes to its platform's
 * `connected` endpoints of the same environment kind, and that delivery is listed in the platform's
 * environment.
 */
export class Platforms1795609846118 implements MigrationInterface {
  name = 'Platforms1795609846118';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE organizations
        ADD COLUMN platform_id uuid REFERENCES organizations(id) ON DELETE SET NULL,
        ADD CONSTRAINT organizations_not_own_platform CHECK (platform_id <> id);
      CREATE INDEX organizations_platform_idx ON organizations (platform_id, created_at DESC, id DESC)
        WHERE platform_id IS NOT NULL;

      CREATE TABLE onboarding_links (
        id uuid PRIMARY KEY,
        organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        token_hash bytea NOT NULL UNIQUE,
        return_url text NOT NULL CHECK (return_url ~ '^https?://' AND length(return_url) <= 2048),
        refresh_url text NOT NULL CHECK (refresh_url ~ '^https?://' AND length(refresh_url) <= 2048),
        created_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL,
        used_at timestamptz
      );
      CREATE INDEX onboarding_links_organization_idx ON onboarding_links (organization_id);

      ALTER TABLE payment_requests
        ADD COLUMN application_fee integer CHECK (application_fee >= 0 AND application_fee <= amount);
      ALTER TABLE subscriptions
        ADD COLUMN application_fee_bps integer CHECK (application_fee_bps BETWEEN 0 AND 10000);
      ALTER TABLE webhook_endpoints ADD COLUMN connected boolean NOT NULL DEFAULT false;

      CREATE OR REPLACE FUNCTION webhook_fan_out() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        platform_environment uuid;
      BEGIN
        IF NEW.endpoint_id IS NULL THEN
          -- The same kind of environment of the platform that connected the event's organization, if any.
          SELECT pe.id INTO platform_environment
            FROM environments ae
            JOIN organizations ao ON ao.id = ae.organization_id
            JOIN environments pe ON pe.organization_id = ao.platform_id AND pe.kind = ae.kind
           WHERE ae.id = NEW.environment_id;
        END IF;
        INSERT INTO webhook_deliveries (event_id, endpoint_id, environment_id, event, next_attempt_at)
        SELECT NEW.id, e.id, e.environment_id, NEW.kind, now()
        FROM webhook_endpoints e
        WHERE CASE WHEN NEW.endpoint_id IS NULL
                   THEN e.environment_id IN (NEW.environment_id, platform_environment)
                        AND (e.environment_id = NEW.environment_id OR e.connected)
                        AND e.enabled AND NEW.kind = ANY (e.events)
                   ELSE e.id = NEW.endpoint_id AND e.environment_id = NEW.environment_id END;
        IF FOUND THEN
          -- Delivered at commit, once per transaction however many rows: wakes the workers.
          PERFORM pg_notify('khoums_webhook_deliveries', '');
        END IF;
        RETURN NULL;
      END
      $$;
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE OR REPLACE FUNCTION webhook_fan_out() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO webhook_deliveries (event_id, endpoint_id, environment_id, event, next_attempt_at)
        SELECT NEW.id, e.id, NEW.environment_id, NEW.kind, now()
        FROM webhook_endpoints e
        WHERE e.environment_id = NEW.environment_id
          AND CASE WHEN NEW.endpoint_id IS NULL THEN e.enabled AND NEW.kind = ANY (e.events)
                   ELSE e.id = NEW.endpoint_id END;
        IF FOUND THEN
          PERFORM pg_notify('khoums_webhook_deliveries', '');
        END IF;
        RETURN NULL;
      END
      $$;
      ALTER TABLE webhook_endpoints DROP COLUMN connected;
      ALTER TABLE subscriptions DROP COLUMN application_fee_bps;
      ALTER TABLE payment_requests DROP COLUMN application_fee;
      DROP TABLE onboarding_links;
      ALTER TABLE organizations DROP COLUMN platform_id;
    `);
  }
}
