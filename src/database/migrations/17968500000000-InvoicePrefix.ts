import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The invoice number prefix set in billing settings (docs/billing.md "Invoice numbers and lines"):
 * `invoice_counters.prefix`, beside the counter it prefixes, so the statement that numbers invoices
 * reads it from the row it already locks. Null: the default (the organization's first four letters
 * or digits). Numbers already given keep theirs (`invoices.number` is stored whole). A counter row
 * may now exist before any invoice (`last_number` 0) to hold a prefix set first.
 */
export class InvoicePrefix17968500000000 implements MigrationInterface {
  name = 'InvoicePrefix17968500000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE invoice_counters ADD COLUMN prefix text CHECK (prefix ~ '^[A-Z0-9]{1,10}$')`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE invoice_counters DROP COLUMN prefix`);
  }
}
