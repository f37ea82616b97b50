import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Webhook endpoints, one delivery per (event, endpoint) and the log of every attempt.
 * Fan-out is a trigger on the outbox: the delivery rows are written in the transaction of the
 * event (so of the change that caused it), while recordEvent/recordEventWhen stay one insert.
 */
export class Webhooks1763777000000 implements MigrationInterface {
  name = 'Webhooks1763777000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE webhook_endpoints (
        id uuid PRIMARY KEY,
        organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        environment_id uuid NOT NULL REFERENCES environments(id) ON DELETE CASCADE,
        url text NOT NULL CHECK (url ~ '^https?://' AND length(url) <= 2048),
        events text[] NOT NULL CHECK (cardinality(events) > 0),
        enabled boolean NOT NULL DEFAULT true,
        -- Kept in clear because it must sign; never logged, never returned after creation or rotation.
        secret text NOT NULL CHECK (secret LIKE 'whsec_%'),
        previous_secret text,
        previous_secret_expires_at timestamptz,
        disabled_reason text,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CHECK ((previous_secret IS NULL) = (previous_secret_expires_at IS NULL))
      );
      CREATE INDEX webhook_endpoints_list_idx ON webhook_endpoints (environment_id, created_at DESC, id DESC);

      -- A test event is addressed to one endpoint; every other event to all matching endpoints.
      ALTER TABLE events ADD COLUMN endpoint_id uuid REFERENCES webhook_endpoints(id) ON DELETE CASCADE;

      CREATE TABLE webhook_deliveries (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        event_id uuid NOT NULL REFERENCES events(id) ON DELETE CASCADE,
        endpoint_id uuid NOT NULL REFERENCES webhook_endpoints(id) ON DELETE CASCADE,
        environment_id uuid NOT NULL REFERENCES environments(id) ON DELETE CASCADE,
        event text NOT NULL,
        status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'succeeded', 'failed')),
        attempts integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
        -- Failed attempts since the delivery was created or last replayed: the position in the retry schedule.
        retry_index integer NOT NULL DEFAULT 0 CHECK (retry_index >= 0),
        next_attempt_at timestamptz,
        locked_until timestamptz,
        locked_by uuid,
        last_status_code integer,
        last_error text,
        last_response_snippet text,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (event_id, endpoint_id),
        CHECK ((status = 'pending') = (next_attempt_at IS NOT NULL))
      );
      CREATE INDEX webhook_deliveries_due_idx ON webhook_deliveries (next_attempt_at) WHERE status = 'pending';
      CREATE INDEX webhook_deliveries_list_idx ON webhook_deliveries (environment_id, created_at DESC, id DESC);
      CREATE INDEX webhook_deliveries_endpoint_idx ON webhook_deliveries (endpoint_id, created_at DESC);

      CREATE TABLE webhook_attempts (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        delivery_id uuid NOT NULL REFERENCES webhook_deliveries(id) ON DELETE CASCADE,
        status_code integer,
        duration_ms integer NOT NULL CHECK (duration_ms >= 0),
        error text,
        response_snippet text,
        created_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX webhook_attempts_delivery_idx ON webhook_attempts (delivery_id, created_at);

      CREATE FUNCTION webhook_fan_out() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO webhook_deliveries (event_id, endpoint_id, environment_id, event, next_attempt_at)
        SELECT NEW.id, e.id, NEW.environment_id, NEW.kind, now()
        FROM webhook_endpoints e
        WHERE e.environment_id = NEW.environment_id
          AND CASE WHEN NEW.endpoint_id IS NULL THEN e.enabled AND NEW.kind = ANY (e.events)
                   ELSE e.id = NEW.endpoint_id END;
        IF FOUND THEN
          -- Delivered at commit, once per transaction however many rows: wakes the workers.
          PERFORM pg_notify('khoums_webhook_deliveries', '');
        END IF;
        RETURN NULL;
      END
      $$;
      CREATE TRIGGER events_webhook_fan_out AFTER INSERT ON events
        FOR EACH ROW EXECUTE FUNCTION webhook_fan_out();
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      DROP TRIGGER events_webhook_fan_out ON events;
      DROP FUNCTION webhook_fan_out();
      DROP TABLE webhook_attempts, webhook_deliveries;
      ALTER TABLE events DROP COLUMN endpoint_id;
      DROP TABLE webhook_endpoints;
    `);
  }
}
