import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Events and their deliveries are kept EVENT_RETENTION_DAYS, then pruned oldest first
 * (`PruneEventsJob`): the job finds them by age across every environment, so `events` needs an
 * index on `created_at` alone. Its entries arrive in time order, at the right edge of the index.
 * IF NOT EXISTS: on a database that already holds many events, an operator builds it beforehand
 * with CREATE INDEX CONCURRENTLY, without blocking writes (docs/operations.md), and this does nothing.
 */
export class EventRetention1763777740000 implements MigrationInterface {
  name = 'EventRetention1763777740000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX IF NOT EXISTS events_created_idx ON events (created_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX events_created_idx`);
  }
}
