import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The customer portal (docs/billing.md "Customer portal"). `portal_sessions`: a signed-in
 * customer of one environment, from a link the merchant handed out or a code sent by SMS; the
 * cookie holds a random token whose SHA-256 is stored. `portal_codes`: the 6-digit codes asked
 * for by phone, stored as an HMAC (never the code), with their tries; the last hour's rows of a
 * phone are what limits how many codes it gets.
 */
export class CustomerPortal1795616000000 implements MigrationInterface {
  name = 'CustomerPortal1795616000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE portal_sessions (
        id uuid PRIMARY KEY,
        token_hash text NOT NULL UNIQUE,
        organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        environment_id uuid NOT NULL REFERENCES environments(id) ON DELETE CASCADE,
        customer_ids uuid[] NOT NULL,
        origin text NOT NULL CHECK (origin IN ('link', 'phone')),
        return_url text CHECK (length(return_url) <= 2048),
        expires_at timestamptz NOT NULL,
        created_at timestamptz NOT NULL
      );
      CREATE INDEX portal_sessions_expiry_idx ON portal_sessions (expires_at);
      CREATE TABLE portal_codes (
        id uuid PRIMARY KEY,
        organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        environment_id uuid NOT NULL REFERENCES environments(id) ON DELETE CASCADE,
        phone text NOT NULL CHECK (phone ~ '^[234][0-9]{7}$'),
        code_hash text NOT NULL,
        tries integer NOT NULL DEFAULT 0 CHECK (tries BETWEEN 0 AND 5),
        used_at timestamptz,
        expires_at timestamptz NOT NULL,
        created_at timestamptz NOT NULL
      );
      CREATE INDEX portal_codes_phone_idx ON portal_codes (environment_id, phone, created_at);
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE portal_codes; DROP TABLE portal_sessions;');
  }
}
