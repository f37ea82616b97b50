import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Idempotency-Key records (docs/api.md "Safe retries: Idempotency-Key"): one per key and scope (the API key's
 * environment, or a checkout session for the hosted page), kept 24 h. A record holds either the
 * stored answer of its first request, or (pay) the payment that request opened, whose state is the
 * answer. Neither the key nor the body is stored: the id is a SHA-256 of the scope and the key, and
 * the request hash an HMAC of the method, path and raw body keyed by the key itself, so the table
 * says nothing about the requests (a pass code in a pay body included) to whoever reads it.
 */
export class Idempotency1763777300000 implements MigrationInterface {
  name = 'Idempotency1763777300000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE idempotency_keys (
        id bytea PRIMARY KEY CHECK (length(id) = 32),
        environment_id uuid NOT NULL REFERENCES environments(id) ON DELETE CASCADE,
        checkout_session_id uuid REFERENCES checkout_sessions(id) ON DELETE CASCADE,
        request_hash bytea NOT NULL CHECK (length(request_hash) = 32),
        status integer CHECK (status BETWEEN 200 AND 599),
        body text,
        payment_id uuid REFERENCES payments(id) ON DELETE CASCADE,
        created_at timestamptz NOT NULL DEFAULT now(),
        CHECK ((status IS NULL) = (body IS NULL)),
        CHECK ((status IS NULL) <> (payment_id IS NULL))
      );
      -- The expiry job's claim, oldest first. (Environments, sessions and payments are never deleted
      -- but by cascade, so their foreign keys get no index: none is paid for on every insert.)
      CREATE INDEX idempotency_keys_expiry_idx ON idempotency_keys (created_at);
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE idempotency_keys`);
  }
}
