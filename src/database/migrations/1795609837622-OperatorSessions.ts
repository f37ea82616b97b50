import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The operators' console /admin (docs/admin.md): its own sessions (never the dashboard's: an
 * operator's cookie opens nothing of /dashboard, a merchant's nothing of /admin) and its own
 * record of sign-in attempts, limited like the dashboard's.
 */
export class OperatorSessions1795609837622 implements MigrationInterface {
  name = 'OperatorSessions1795609837622';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE operator_sessions (
        id uuid PRIMARY KEY,
        token_hash bytea NOT NULL UNIQUE CHECK (length(token_hash) = 32),
        operator_id uuid NOT NULL REFERENCES operators(id) ON DELETE CASCADE,
        created_at timestamptz NOT NULL DEFAULT now(),
        last_seen_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL,
        CHECK (expires_at > created_at)
      );
      CREATE INDEX operator_sessions_operator_idx ON operator_sessions (operator_id);
      CREATE INDEX operator_sessions_expiry_idx ON operator_sessions (expires_at);

      CREATE TABLE operator_sign_in_attempts (
        id uuid PRIMARY KEY,
        email text NOT NULL,
        ip text NOT NULL,
        succeeded boolean NOT NULL DEFAULT false,
        created_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX operator_sign_in_attempts_email_idx ON operator_sign_in_attempts (email, created_at) WHERE NOT succeeded;
      CREATE INDEX operator_sign_in_attempts_ip_idx ON operator_sign_in_attempts (ip, created_at) WHERE NOT succeeded;
      CREATE INDEX operator_sign_in_attempts_created_idx ON operator_sign_in_attempts (created_at);
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE operator_sign_in_attempts, operator_sessions`);
  }
}
