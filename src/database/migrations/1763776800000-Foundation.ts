import { MigrationInterface, QueryRunner } from 'typeorm';

/** Organizations, their two environments, dashboard users, API keys, payment requests and the event outbox. */
export class Foundation1763776800000 implements MigrationInterface {
  name = 'Foundation1763776800000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE organizations (
        id uuid PRIMARY KEY,
        name text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
        created_at timestamptz NOT NULL DEFAULT now()
      );

      CREATE TABLE environments (
        id uuid PRIMARY KEY,
        organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        kind text NOT NULL CHECK (kind IN ('sandbox', 'production')),
        created_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (organization_id, kind)
      );

      CREATE TABLE users (
        id uuid PRIMARY KEY,
        organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        email text NOT NULL CHECK (email = lower(email)),
        password_hash text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE UNIQUE INDEX users_email_key ON users (email);

      CREATE TABLE api_keys (
        id uuid PRIMARY KEY,
        organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        environment_id uuid NOT NULL REFERENCES environments(id) ON DELETE CASCADE,
        kind text NOT NULL CHECK (kind IN ('secret', 'publishable')),
        key_hash bytea NOT NULL CHECK (length(key_hash) = 32),
        display text NOT NULL,
        name text,
        created_at timestamptz NOT NULL DEFAULT now(),
        revoked_at timestamptz,
        last_used_at timestamptz
      );
      CREATE UNIQUE INDEX api_keys_key_hash_key ON api_keys (key_hash);
      CREATE INDEX api_keys_environment_idx ON api_keys (environment_id);

      CREATE TABLE payment_requests (
        id uuid PRIMARY KEY,
        environment_id uuid NOT NULL REFERENCES environments(id) ON DELETE CASCADE,
        transaction_id text NOT NULL CHECK (length(transaction_id) BETWEEN 1 AND 128),
        amount integer NOT NULL CHECK (amount BETWEEN 1 AND 100000000),
        phone_number text CHECK (phone_number ~ '^[234][0-9]{7}$'),
        status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'paid')),
        paid_at timestamptz,
        invoice_id uuid,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CHECK ((status = 'paid') = (paid_at IS NOT NULL))
      );
      CREATE UNIQUE INDEX payment_requests_transaction_key ON payment_requests (environment_id, transaction_id);
      CREATE INDEX payment_requests_list_idx ON payment_requests (environment_id, created_at DESC, id DESC);

      -- The outbox: every webhook event is written here in the transaction of the change that caused it.
      CREATE TABLE events (
        id uuid PRIMARY KEY,
        organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        environment_id uuid NOT NULL REFERENCES environments(id) ON DELETE CASCADE,
        kind text NOT NULL,
        data jsonb NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX events_environment_idx ON events (environment_id, created_at DESC);
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE events, payment_requests, api_keys, users, environments, organizations`);
  }
}
