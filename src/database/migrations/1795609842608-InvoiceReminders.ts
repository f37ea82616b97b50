import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Invoices the customer pays (docs/billing.md "Reminders, SMS and dunning"): an environment's
 * billing settings, the reminder state of each invoice, the customer's language and the log of
 * the SMS sent for an invoice.
 */
export class InvoiceReminders1795609842608 implements MigrationInterface {
  name = 'InvoiceReminders1795609842608';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      -- One row per environment once its settings were changed; none means the defaults.
      CREATE TABLE billing_settings (
        environment_id uuid PRIMARY KEY REFERENCES environments(id) ON DELETE CASCADE,
        reminder_before_due_days integer[] NOT NULL DEFAULT '{3}'
          CHECK (0 <= ALL (reminder_before_due_days) AND 60 >= ALL (reminder_before_due_days)),
        reminder_after_due_days integer[] NOT NULL DEFAULT '{1,3,7}'
          CHECK (0 <= ALL (reminder_after_due_days) AND 60 >= ALL (reminder_after_due_days)),
        sms_enabled boolean NOT NULL DEFAULT false,
        dunning_after_days_overdue integer CHECK (dunning_after_days_overdue BETWEEN 1 AND 365),
        dunning_action text NOT NULL DEFAULT 'cancel' CHECK (dunning_action IN ('cancel', 'pause')),
        portal_allow_cancel boolean NOT NULL DEFAULT true,
        updated_at timestamptz NOT NULL DEFAULT now()
      );

      -- reminder_at: when the reminder run next looks at the invoice (-infinity: never looked at
      -- yet; null: no reminder day left). reminder_step: the latest reminder sent, as an ordered
      -- step (src/billing/reminder-days.ts), so an older one is never sent after it.
      ALTER TABLE invoices ADD COLUMN reminder_at timestamptz DEFAULT '-infinity',
                           ADD COLUMN reminder_step integer;
      CREATE INDEX invoices_reminder_idx ON invoices (environment_id, reminder_at)
        WHERE status = 'pending' AND reminder_at IS NOT NULL;
      CREATE INDEX invoices_reminder_all_idx ON invoices (reminder_at)
        WHERE status = 'pending' AND reminder_at IS NOT NULL;

      ALTER TABLE customers ADD COLUMN language text NOT NULL DEFAULT 'fr'
        CHECK (language IN ('fr', 'ar', 'en'));

      -- Each SMS Khoums sends (or, in Sandbox, only logs) for an invoice, with its attempts.
      CREATE TABLE sms_messages (
        id uuid PRIMARY KEY,
        organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
        environment_id uuid NOT NULL REFERENCES environments(id) ON DELETE CASCADE,
        invoice_id uuid NOT NULL REFERENCES invoices(id) ON DELETE CASCADE,
        phone text NOT NULL,
        language text NOT NULL CHECK (language IN ('fr', 'ar', 'en')),
        body text NOT NULL,
        status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sent', 'failed', 'logged')),
        attempts integer NOT NULL DEFAULT 0,
        last_error text,
        next_attempt_at timestamptz,
        locked_until timestamptz,
        sent_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CHECK ((status = 'pending') = (next_attempt_at IS NOT NULL))
      );
      CREATE INDEX sms_messages_invoice_idx ON sms_messages (invoice_id, created_at);
      CREATE INDEX sms_messages_due_idx ON sms_messages (next_attempt_at) WHERE status = 'pending';
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      DROP TABLE sms_messages;
      ALTER TABLE customers DROP COLUMN language;
      DROP INDEX invoices_reminder_all_idx;
      DROP INDEX invoices_reminder_idx;
      ALTER TABLE invoices DROP COLUMN reminder_at, DROP COLUMN reminder_step;
      DROP TABLE billing_settings;
    `);
  }
}
