import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The webhook fan-out, once per statement (it reads the events the statement inserted, a
 * transition table), now also to connected endpoints (docs/platforms.md): an event of an
 * organization a platform connected goes, besides its own endpoints, to that platform's endpoints
 * made with `connected: true` in its environment of the same kind, the delivery listed in the
 * platform's environment. Defined whole here, so it holds whether or not the statement-level
 * fan-out was already installed.
 */
export class ConnectedFanOut1795615734720 implements MigrationInterface {
  name = 'ConnectedFanOut1795615734720';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE OR REPLACE FUNCTION webhook_fan_out_statement() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO webhook_deliveries (event_id, endpoint_id, environment_id, event, next_attempt_at)
        SELECT n.id, e.id, e.environment_id, n.kind, now()
          FROM inserted_events n
          JOIN webhook_endpoints e ON e.environment_id = n.environment_id
         WHERE CASE WHEN n.endpoint_id IS NULL THEN e.enabled AND n.kind = ANY (e.events)
                    ELSE e.id = n.endpoint_id END
        UNION ALL
        SELECT n.id, e.id, e.environment_id, n.kind, now()
          FROM inserted_events n
          JOIN environments ae ON ae.id = n.environment_id
          JOIN organizations ao ON ao.id = ae.organization_id AND ao.platform_id IS NOT NULL
          JOIN environments pe ON pe.organization_id = ao.platform_id AND pe.kind = ae.kind
          JOIN webhook_endpoints e ON e.environment_id = pe.id AND e.connected
         WHERE n.endpoint_id IS NULL AND e.enabled AND n.kind = ANY (e.events);
        IF FOUND THEN
          -- Delivered at commit, once per transaction however many rows: wakes the workers.
          PERFORM pg_notify('khoums_webhook_deliveries', '');
        END IF;
        RETURN NULL;
      END
      $$;
      DROP TRIGGER IF EXISTS events_webhook_fan_out ON events;
      CREATE TRIGGER events_webhook_fan_out AFTER INSERT ON events
        REFERENCING NEW TABLE AS inserted_events
        FOR EACH STATEMENT EXECUTE FUNCTION webhook_fan_out_statement();
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    // Back to the per-row fan-out (which knows connected endpoints too, since Platforms).
    await q.query(`
      DROP TRIGGER events_webhook_fan_out ON events;
      CREATE TRIGGER events_webhook_fan_out AFTER INSERT ON events
        FOR EACH ROW EXECUTE FUNCTION webhook_fan_out();
    `);
  }
}
