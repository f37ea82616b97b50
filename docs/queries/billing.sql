-- The SQL of src/billing/ as sent to PostgreSQL. Written by `npm run queries`: do not edit.

-- BillingRepository.settings
SELECT reminder_before_due_days AS "beforeDueDays", reminder_after_due_days AS "afterDueDays",
  sms_enabled AS "smsEnabled", dunning_after_days_overdue AS "dunningAfterDaysOverdue",
  dunning_action AS "dunningAction", portal_allow_cancel AS "portalAllowCancel" FROM billing_settings WHERE environment_id = $1;

-- BillingRepository.lockSettings
INSERT INTO billing_settings (environment_id) VALUES ($1) ON CONFLICT DO NOTHING;

-- BillingRepository.lockSettings
SELECT reminder_before_due_days AS "beforeDueDays", reminder_after_due_days AS "afterDueDays",
  sms_enabled AS "smsEnabled", dunning_after_days_overdue AS "dunningAfterDaysOverdue",
  dunning_action AS "dunningAction", portal_allow_cancel AS "portalAllowCancel" FROM billing_settings WHERE environment_id = $1 FOR UPDATE;

-- BillingRepository.claimReminders
SELECT r.*, s."beforeDueDays", s."afterDueDays", s."smsEnabled"
        FROM (SELECT i.id, i.organization_id AS "organizationId", i.environment_id AS "environmentId",
   i.customer_id AS "customerId", i.subscription_id AS "subscriptionId", i.status, i.amount::text AS amount,
   i.number, i.subtotal::numeric(12, 2)::text AS subtotal, i.discount::numeric(12, 2)::text AS discount,
   i.credit_applied::numeric(12, 2)::text AS "creditApplied", i.lines,
   i.period_start AS "periodStart", i.period_end AS "periodEnd", i.due_date AS "dueDate",
   i.payment_request_id AS "paymentRequestId", i.created_at AS "createdAt", i.amount_paid::text AS "amountPaid",
   (SELECT coalesce(jsonb_agg(jsonb_build_object('id', m.id, 'amount', m.amount, 'method', m.method,
             'reference', m.reference, 'paidAt', to_char(m.paid_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
             'createdAt', to_char(m.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
           ORDER BY m.created_at, m.id), '[]'::jsonb)
      FROM manual_payments m WHERE m.invoice_id = i.id) AS "manualPayments", i.reminder_step AS "reminderStep", c.phone AS "customerPhone",
         c.language AS "customerLanguage", o.name AS "merchantName", e.kind AS environment
    FROM (SELECT i.id FROM invoices i
           WHERE i.status = 'pending' AND i.reminder_at IS NOT NULL AND i.reminder_at <= $1
             AND i.test_clock_id IS NULL AND i.environment_id = $2
           ORDER BY i.reminder_at LIMIT $3 FOR UPDATE OF i SKIP LOCKED) claimed
    JOIN invoices i ON i.id = claimed.id
    JOIN customers c ON c.id = i.customer_id
    JOIN (environments e
  JOIN organizations o ON o.id = e.organization_id) ON e.id = i.environment_id AND o.id = i.organization_id) r,
             LATERAL (SELECT coalesce(b.reminder_before_due_days, $4::int[]) AS "beforeDueDays",
                     coalesce(b.reminder_after_due_days, $5::int[]) AS "afterDueDays",
                     coalesce(b.sms_enabled, $6) AS "smsEnabled",
                     b.dunning_after_days_overdue AS "dunningAfterDaysOverdue",
                     coalesce(b.dunning_action, $7) AS "dunningAction",
                     coalesce(b.portal_allow_cancel, $8) AS "portalAllowCancel"
                FROM (SELECT 1) one LEFT JOIN billing_settings b ON b.environment_id = r."environmentId") s;

-- BillingRepository.writeReminders
WITH recorded AS (UPDATE invoices i SET reminder_at = x.next_at, reminder_step = coalesce(x.step, i.reminder_step)
      FROM jsonb_to_recordset($1::jsonb) AS x(id uuid, next_at timestamptz, step integer)
     WHERE i.id = x.id AND i.status = 'pending'
    RETURNING i.id
      ), new_events AS (
        SELECT * FROM jsonb_to_recordset($2::jsonb) AS e(
          id uuid, organization_id uuid, environment_id uuid, kind text, data jsonb, created_at timestamptz)
      ), events_created AS (INSERT INTO events (id, organization_id, environment_id, kind, data, created_at)
    SELECT id, organization_id, environment_id, kind, data, created_at FROM new_events RETURNING id
      ), sms_created AS (
        INSERT INTO sms_messages (id, organization_id, environment_id, invoice_id, phone, language, body, status,
                                  next_attempt_at, created_at, updated_at)
        SELECT id, organization_id, environment_id, invoice_id, phone, language, body, status, next_attempt_at,
               created_at, created_at
          FROM jsonb_to_recordset($3::jsonb) AS m(
            id uuid, organization_id uuid, environment_id uuid, invoice_id uuid, phone text, language text, body text,
            status text, next_attempt_at timestamptz, created_at timestamptz)
      )
      SELECT (SELECT count(*) FROM events_created)::int AS events;

-- BillingRepository.deleteInvoicesOnClock
WITH gone_requests AS (
      SELECT payment_request_id AS id FROM invoices WHERE test_clock_id = $1::uuid AND payment_request_id IS NOT NULL
    ), gone AS (DELETE FROM invoices WHERE test_clock_id = $2::uuid RETURNING id),
           gone_payment_requests AS (DELETE FROM payment_requests WHERE id IN (SELECT id FROM gone_requests) RETURNING id)
      SELECT 1;

-- BillingRepository.rescheduleReminders
UPDATE invoices SET reminder_at = '-infinity'
     WHERE environment_id = $1 AND status = 'pending' AND due_date IS NOT NULL;

-- BillingRepository.claimSms
UPDATE sms_messages m SET attempts = m.attempts + 1, locked_until = $1,
                                updated_at = $2
       WHERE m.id IN (SELECT id FROM sms_messages
                       WHERE status = 'pending' AND next_attempt_at <= $3
                         AND (locked_until IS NULL OR locked_until <= $4) AND environment_id = $5
                       ORDER BY next_attempt_at LIMIT $6 FOR UPDATE SKIP LOCKED)
      RETURNING m.id, m.invoice_id AS "invoiceId", m.phone, m.body, m.attempts;

-- BillingRepository.recordSmsOutcome
UPDATE sms_messages SET status = $1, last_error = $2,
             next_attempt_at = $3, locked_until = NULL,
             sent_at = CASE WHEN $4 = 'sent' THEN $5::timestamptz END, updated_at = $6
       WHERE id = $7 AND attempts = $8 AND status = 'pending';

-- BillingRepository.smsOfInvoice
SELECT id, phone, language, body, status, attempts, last_error AS "lastError", sent_at AS "sentAt",
             created_at AS "createdAt"
        FROM sms_messages WHERE environment_id = $1 AND invoice_id = $2
       ORDER BY created_at, id;

-- BillingRepository.dunningEnvironments
SELECT b.environment_id AS "environmentId", e.organization_id AS "organizationId", e.kind AS environment,
             b.dunning_after_days_overdue AS "afterDaysOverdue", b.dunning_action AS action
        FROM billing_settings b JOIN (environments e
  JOIN organizations o ON o.id = e.organization_id) ON e.id = b.environment_id
       WHERE b.dunning_after_days_overdue IS NOT NULL AND b.environment_id = $1;

-- BillingRepository.saveSettings
INSERT INTO billing_settings AS b (environment_id, reminder_before_due_days, reminder_after_due_days, sms_enabled,
                                    dunning_after_days_overdue, dunning_action, portal_allow_cancel, updated_at)
      VALUES ($1, $2::int[], $3::int[], $4,
              $5::int, $6, $7, $8)
      ON CONFLICT (environment_id) DO UPDATE SET
        reminder_before_due_days = excluded.reminder_before_due_days,
        reminder_after_due_days = excluded.reminder_after_due_days, sms_enabled = excluded.sms_enabled,
        dunning_after_days_overdue = excluded.dunning_after_days_overdue, dunning_action = excluded.dunning_action,
        portal_allow_cancel = excluded.portal_allow_cancel, updated_at = excluded.updated_at
      RETURNING reminder_before_due_days AS "beforeDueDays", reminder_after_due_days AS "afterDueDays",
  sms_enabled AS "smsEnabled", dunning_after_days_overdue AS "dunningAfterDaysOverdue",
  dunning_action AS "dunningAction", portal_allow_cancel AS "portalAllowCancel";
