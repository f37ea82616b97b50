import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Payment methods (the bank apps each environment enables) and payments. The money invariants
 * live here: a payment request has at most one `completed` payment and at most one `pending`
 * one (so at most one charge is in flight at the bank for it).
 */
export class Payments1763776900000 implements MigrationInterface {
  name = 'Payments1763776900000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE payment_methods (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        environment_id uuid NOT NULL REFERENCES environments(id) ON DELETE CASCADE,
        type text NOT NULL CHECK (type IN ('bankily', 'masrivi', 'sedad', 'bim_bank', 'amanty', 'bci_pay')),
        name text NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
        requires_pass_code boolean NOT NULL DEFAULT false,
        code text NOT NULL,
        enabled boolean NOT NULL DEFAULT true,
        position integer NOT NULL DEFAULT 0,
        created_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (environment_id, type)
      );
      CREATE INDEX payment_methods_environment_idx ON payment_methods (environment_id, position);

      INSERT INTO payment_methods (environment_id, type, name, requires_pass_code, code, position)
      SELECT e.id, m.type, m.name, m.requires_pass_code, m.type, m.position
      FROM environments e
      CROSS JOIN (VALUES ('bankily', 'Bankily', true, 1), ('masrivi', 'Masrivi', false, 2), ('sedad', 'Sedad', false, 3))
        AS m(type, name, requires_pass_code, position);

      CREATE TABLE payments (
        id uuid PRIMARY KEY,
        environment_id uuid NOT NULL REFERENCES environments(id) ON DELETE CASCADE,
        payment_request_id uuid NOT NULL REFERENCES payment_requests(id) ON DELETE CASCADE,
        payment_method_id uuid NOT NULL REFERENCES payment_methods(id),
        amount integer NOT NULL CHECK (amount BETWEEN 1 AND 100000000),
        phone_number text NOT NULL CHECK (phone_number ~ '^[234][0-9]{7}$'),
        status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'completed', 'failed')),
        reference_id text,
        failure_reason text,
        completed_at timestamptz,
        -- Reconciliation: when this pending payment may next be claimed to ask the bank about it.
        next_check_at timestamptz NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CHECK ((status = 'completed') = (completed_at IS NOT NULL))
      );
      CREATE UNIQUE INDEX payments_one_completed_per_request ON payments (payment_request_id) WHERE status = 'completed';
      CREATE UNIQUE INDEX payments_one_pending_per_request ON payments (payment_request_id) WHERE status = 'pending';
      CREATE INDEX payments_list_idx ON payments (environment_id, created_at DESC, id DESC);
      CREATE INDEX payments_request_idx ON payments (payment_request_id);
      CREATE INDEX payments_reconcile_idx ON payments (next_check_at) WHERE status = 'pending';
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE payments, payment_methods`);
  }
}
