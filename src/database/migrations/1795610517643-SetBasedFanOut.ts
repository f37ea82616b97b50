import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The webhook fan-out, once per statement instead of once per event: the trigger reads the events
 * the statement inserted (a transition table) and writes all their deliveries in one insert. A
 * billing batch inserts three events per invoice in one statement; a trigger per row ran an
 * insert (planned, executed, through the procedural language) for each of them, most of which
 * match no endpoint. Same rows, same transaction, same notification as before.
 */
export class SetBasedFanOut1795610517643 implements MigrationInterface {
  name = 'SetBasedFanOut1795610517643';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE FUNCTION webhook_fan_out_statement() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO webhook_deliveries (event_id, endpoint_id, environment_id, event, next_attempt_at)
        SELECT n.id, e.id, n.environment_id, n.kind, now()
          FROM inserted_events n
          JOIN webhook_endpoints e ON e.environment_id = n.environment_id
         WHERE CASE WHEN n.endpoint_id IS NULL THEN e.enabled AND n.kind = ANY (e.events)
                    ELSE e.id = n.endpoint_id END;
        IF FOUND THEN
          -- Delivered at commit, once per transaction however many rows: wakes the workers.
          PERFORM pg_notify('khoums_webhook_deliveries', '');
        END IF;
        RETURN NULL;
      END
      $$;
      DROP TRIGGER events_webhook_fan_out ON events;
      CREATE TRIGGER events_webhook_fan_out AFTER INSERT ON events
        REFERENCING NEW TABLE AS inserted_events
        FOR EACH STATEMENT EXECUTE FUNCTION webhook_fan_out_statement();
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      DROP TRIGGER events_webhook_fan_out ON events;
      CREATE TRIGGER events_webhook_fan_out AFTER INSERT ON events
        FOR EACH ROW EXECUTE FUNCTION webhook_fan_out();
      DROP FUNCTION webhook_fan_out_statement();
    `);
  }
}
