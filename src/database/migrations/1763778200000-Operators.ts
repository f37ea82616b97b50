import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The operators who run Khoums (docs/going-live.md): their password (changed at first sign-in) and
 * their TOTP secret, sealed with the documents' key; `last_totp_step` makes each code usable once.
 */
export class Operators1763778200000 implements MigrationInterface {
  name = 'Operators1763778200000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE operators (
        id uuid PRIMARY KEY,
        email text NOT NULL CHECK (email = lower(email) AND length(email) BETWEEN 3 AND 320),
        password_hash text NOT NULL,
        must_change_password boolean NOT NULL DEFAULT true,
        totp_key_id text NOT NULL,
        totp_sealed bytea NOT NULL,
        last_totp_step bigint,
        created_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE UNIQUE INDEX operators_email_key ON operators (email);
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE operators`);
  }
}
