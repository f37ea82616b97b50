import { MigrationInterface, QueryRunner } from 'typeorm';

/** Keys the service generates for itself once (e.g. of CSRF tokens), shared by every instance. */
export class ServerSecrets1763777150000 implements MigrationInterface {
  name = 'ServerSecrets1763777150000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE server_secrets (
        name text PRIMARY KEY,
        value text NOT NULL CHECK (length(value) >= 32),
        created_at timestamptz NOT NULL DEFAULT now()
      );
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE server_secrets');
  }
}
