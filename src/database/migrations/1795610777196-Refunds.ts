import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Refunds (docs/ledger.md): money sent back to a payer through the bank that was charged. A refund
 * is `pending` from its creation (committed, with its `refund` balance transaction, before the bank
 * is called) until the bank's answer makes it `succeeded` or `failed`; `next_check_at` is when the
 * refunds job may next ask the bank about a pending one (a process that died mid-call).
 */
export class Refunds1795610777196 implements MigrationInterface {
  name = 'Refunds1795610777196';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE refunds (
        id uuid PRIMARY KEY,
        environment_id uuid NOT NULL REFERENCES environments(id) ON DELETE CASCADE,
        organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        payment_id uuid NOT NULL REFERENCES payments(id) ON DELETE CASCADE,
        payment_request_id uuid NOT NULL REFERENCES payment_requests(id) ON DELETE CASCADE,
        amount integer NOT NULL CHECK (amount > 0),
        status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'succeeded', 'failed')),
        reason text,
        failure_reason text,
        bank_reference text,
        next_check_at timestamptz NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX refunds_list_idx ON refunds (environment_id, created_at DESC, id DESC);
      CREATE INDEX refunds_payment_idx ON refunds (payment_id);
      CREATE INDEX refunds_pending_idx ON refunds (next_check_at) WHERE status = 'pending';
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE refunds`);
  }
}
