import { MigrationInterface, QueryRunner } from 'typeorm';

/** Hosted checkout sessions: at most one `open` session per payment request, enforced by the schema. */
export class Checkout1763777100000 implements MigrationInterface {
  name = 'Checkout1763777100000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE checkout_sessions (
        id uuid PRIMARY KEY,
        payment_request_id uuid NOT NULL REFERENCES payment_requests(id) ON DELETE CASCADE,
        environment_id uuid NOT NULL REFERENCES environments(id) ON DELETE CASCADE,
        status text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'completed', 'expired', 'cancelled')),
        success_url text CHECK (length(success_url) <= 2048),
        cancel_url text CHECK (length(cancel_url) <= 2048),
        expires_at timestamptz NOT NULL,
        -- The bank app the customer chose on the page (or that paid the request).
        selected_configuration_id uuid REFERENCES payment_methods(id) ON DELETE SET NULL,
        completed_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CHECK ((status = 'completed') = (completed_at IS NOT NULL))
      );
      CREATE UNIQUE INDEX checkout_sessions_one_open_key ON checkout_sessions (payment_request_id) WHERE status = 'open';
      CREATE INDEX checkout_sessions_payment_request_idx ON checkout_sessions (payment_request_id);
      -- The expiry job's claim: open sessions by deadline.
      CREATE INDEX checkout_sessions_expiry_idx ON checkout_sessions (expires_at) WHERE status = 'open';
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE checkout_sessions`);
  }
}
