import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Invoices an accountant can file (docs/billing.md "Invoice numbers and lines"):
 *
 * - `number_seq` and `number` (`<prefix>-000001`): gapless and increasing per environment (so per
 *   organization and environment). `invoice_counters` holds each environment's last number; the
 *   statement that inserts invoices increments it for the invoices it inserts, in the invoices'
 *   transaction, so a rolled-back batch takes its numbers back with it and two instances wait on
 *   the counter's row lock rather than take the same number. The unique index refuses a duplicate
 *   whatever the code does.
 * - `subtotal` (the lines' sum), `discount`, `credit_applied`: `amount` is what the customer pays,
 *   subtotal − discount − credit, and may be 0 (such an invoice is paid at once, without a payment
 *   request).
 * - `lines`: the invoice's lines as the API shows them.
 * - `proration`: an invoice for the rest of a period after a change (its period starts at the
 *   change, possibly on a period's first instant, beside that period's own invoice): the key is one
 *   invoice per subscription, period start and kind. It still leads with the subscription, so it
 *   still finds a subscription's invoices (no second index for the billing run to write).
 *
 * Existing invoices are numbered in the order they were created, per environment, and given the one
 * line they bill.
 */
export class InvoiceNumbers1796800100000 implements MigrationInterface {
  name = 'InvoiceNumbers1796800100000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE invoice_counters (
        environment_id uuid PRIMARY KEY REFERENCES environments(id) ON DELETE CASCADE,
        organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        last_number integer NOT NULL CHECK (last_number >= 0)
      );

      ALTER TABLE invoices
        ADD COLUMN number_seq integer,
        ADD COLUMN number text,
        ADD COLUMN subtotal integer,
        ADD COLUMN discount integer NOT NULL DEFAULT 0 CHECK (discount >= 0),
        ADD COLUMN credit_applied integer NOT NULL DEFAULT 0 CHECK (credit_applied >= 0),
        ADD COLUMN lines jsonb,
        ADD COLUMN proration boolean NOT NULL DEFAULT false;

      WITH numbered AS (
        SELECT i.id, row_number() OVER (PARTITION BY i.environment_id ORDER BY i.created_at, i.period_start, i.id) AS seq,
               coalesce(nullif(upper(left(regexp_replace(o.name, '[^[:alnum:]]', '', 'g'), 4)), ''), 'INV') AS prefix,
               coalesce(pd.name, 'Subscription') AS description
          FROM invoices i JOIN organizations o ON o.id = i.organization_id
          LEFT JOIN subscriptions s ON s.id = i.subscription_id
          LEFT JOIN prices p ON p.id = s.price_id LEFT JOIN products pd ON pd.id = p.product_id
      )
      UPDATE invoices i SET number_seq = n.seq,
             number = n.prefix || '-' || CASE WHEN n.seq < 1000000 THEN lpad(n.seq::text, 6, '0') ELSE n.seq::text END,
             subtotal = i.amount::integer,
             lines = jsonb_build_array(jsonb_build_object(
               'description', n.description, 'quantity', 1, 'unitAmount', i.amount::text, 'amount', i.amount::text,
               'periodStart', to_char(i.period_start AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
               'periodEnd', to_char(i.period_end AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
               'proration', false))
        FROM numbered n WHERE n.id = i.id;

      INSERT INTO invoice_counters (environment_id, organization_id, last_number)
      SELECT environment_id, min(organization_id::text)::uuid, max(number_seq) FROM invoices GROUP BY environment_id;

      ALTER TABLE invoices
        ALTER COLUMN number_seq SET NOT NULL, ALTER COLUMN number SET NOT NULL,
        ALTER COLUMN subtotal SET NOT NULL, ALTER COLUMN lines SET NOT NULL,
        DROP CONSTRAINT invoices_amount_check, ADD CONSTRAINT invoices_amount_check CHECK (amount >= 0),
        ADD CONSTRAINT invoices_subtotal_check CHECK (subtotal >= 0 AND amount = subtotal - discount - credit_applied),
        -- Nothing to pay, nothing to ask: an invoice of 0 has no payment request, and is paid.
        ADD CONSTRAINT invoices_zero_check CHECK (amount > 0 OR (payment_request_id IS NULL AND status <> 'pending'));
      CREATE UNIQUE INDEX invoices_number_key ON invoices (environment_id, number_seq);
      DROP INDEX invoices_period_key;
      CREATE UNIQUE INDEX invoices_period_key ON invoices (subscription_id, period_start, proration);
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      DROP INDEX invoices_period_key;
      CREATE UNIQUE INDEX invoices_period_key ON invoices (subscription_id, period_start);
      DROP INDEX invoices_number_key;
      ALTER TABLE invoices DROP CONSTRAINT invoices_zero_check, DROP CONSTRAINT invoices_subtotal_check,
        DROP CONSTRAINT invoices_amount_check, ADD CONSTRAINT invoices_amount_check CHECK (amount > 0),
        DROP COLUMN number_seq, DROP COLUMN number, DROP COLUMN subtotal, DROP COLUMN discount,
        DROP COLUMN credit_applied, DROP COLUMN lines, DROP COLUMN proration;
      DROP TABLE invoice_counters;
    `);
  }
}
