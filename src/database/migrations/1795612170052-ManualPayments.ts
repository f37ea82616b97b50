import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Payments recorded by hand on an invoice (docs/billing.md "Payments recorded by hand"): cash at
 * the shop, a transfer, a cheque. `invoices.amount_paid` is their sum, kept in the statement that
 * records one, never more than the invoice's amount.
 */
export class ManualPayments1795612170052 implements MigrationInterface {
  name = 'ManualPayments1795612170052';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE invoices ADD COLUMN amount_paid numeric(12, 2) NOT NULL DEFAULT 0
        CHECK (amount_paid >= 0 AND amount_paid <= amount);
      CREATE TABLE manual_payments (
        id uuid PRIMARY KEY,
        invoice_id uuid NOT NULL REFERENCES invoices(id) ON DELETE CASCADE,
        organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        amount integer NOT NULL CHECK (amount BETWEEN 1 AND 100000000),
        method text NOT NULL CHECK (method IN ('cash', 'bank_transfer', 'cheque', 'other')),
        reference text CHECK (length(reference) BETWEEN 1 AND 128),
        paid_at timestamptz NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX manual_payments_invoice_idx ON manual_payments (invoice_id, created_at);
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE manual_payments; ALTER TABLE invoices DROP COLUMN amount_paid;');
  }
}
