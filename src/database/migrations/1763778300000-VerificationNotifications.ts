import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A cached key carries its organization's verification (the Production gate reads it on every
 * request: docs/architecture.md, "The API-key cache"). When an organization's verification
 * changes, every instance drops the cached keys of that organization: the trigger announces
 * `org:<id>` on the channel of ended keys, in the transaction of the change.
 */
export class VerificationNotifications1763778300000 implements MigrationInterface {
  name = 'VerificationNotifications1763778300000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE FUNCTION organizations_notify_verification() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.verification_status IS DISTINCT FROM OLD.verification_status THEN
          PERFORM pg_notify('api_keys_ended', 'org:' || NEW.id::text);
        END IF;
        RETURN NULL;
      END $$;
      CREATE TRIGGER organizations_verification_changed AFTER UPDATE OF verification_status ON organizations
        FOR EACH ROW EXECUTE FUNCTION organizations_notify_verification();
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      DROP TRIGGER organizations_verification_changed ON organizations;
      DROP FUNCTION organizations_notify_verification();
    `);
  }
}
