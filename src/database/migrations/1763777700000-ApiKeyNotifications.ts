import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Every instance keeps the keys it has looked up in memory (docs/architecture.md, "The API-key
 * cache"). A key that stops working (revoked, its expiry set by a roll, deleted with its
 * environment or organization) is announced on `api_keys_ended` with its id, by a trigger, so in
 * the very transaction that ends it whatever path ends it; the instances LISTEN and drop it.
 */
export class ApiKeyNotifications1763777700000 implements MigrationInterface {
  name = 'ApiKeyNotifications1763777700000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE FUNCTION api_keys_notify_ended() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_notify('api_keys_ended', OLD.id::text);
        RETURN NULL;
      END $$;
      CREATE TRIGGER api_keys_ended AFTER UPDATE OF revoked_at, expires_at OR DELETE ON api_keys
        FOR EACH ROW EXECUTE FUNCTION api_keys_notify_ended();
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      DROP TRIGGER api_keys_ended ON api_keys;
      DROP FUNCTION api_keys_notify_ended();
    `);
  }
}
