-- The SQL of src/invoices/ as sent to PostgreSQL. Written by `npm run queries`: do not edit.

-- InvoicesRepository.nextMomentOnClock (prepared)
SELECT least((SELECT min(i.reminder_at) FROM invoices i
                     WHERE i.test_clock_id = $1::uuid AND i.status = 'pending'
                       AND i.reminder_at IS NOT NULL AND i.reminder_at > $2), (SELECT min(i.due_date) + make_interval(days => $3::int) FROM invoices i
              WHERE i.test_clock_id = $4::uuid AND i.status = 'pending'
                AND i.due_date > $5::timestamptz - make_interval(days => $6::int))) AS at;

-- InvoicesRepository.markRefunded
WITH refunded AS (
        UPDATE invoices i SET status = 'refunded', updated_at = $1
         WHERE i.payment_request_id = $2 AND i.status = 'paid'
        RETURNING i.*
      ), event AS (INSERT INTO events (id, organization_id, environment_id, kind, data, created_at)
    SELECT gen_random_uuid(), i.organization_id, i.environment_id, $3, jsonb_build_object(
    'id', i.id, 'number', i.number, 'customerId', i.customer_id, 'subscriptionId', i.subscription_id, 'status', i.status,
    'amount', i.amount::text, 'subtotal', i.subtotal::numeric(12, 2)::text, 'discount', i.discount::numeric(12, 2)::text,
    'creditApplied', i.credit_applied::numeric(12, 2)::text, 'lines', i.lines, 'dueDate', to_char(i.due_date AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'paymentRequestId', i.payment_request_id,
    'checkoutUrl', $4::text || i.id,
    'amountPaid', CASE WHEN i.status IN ('paid', 'refunded') THEN i.amount ELSE i.amount_paid END::text,
    'amountDue', CASE WHEN i.status = 'pending' THEN i.amount - i.amount_paid ELSE 0 END::numeric(12, 2)::text,
    'manualPayments', (SELECT coalesce(jsonb_agg(jsonb_build_object('id', m.id, 'amount', m.amount, 'method', m.method,
             'reference', m.reference, 'paidAt', to_char(m.paid_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'createdAt', to_char(m.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
           ORDER BY m.created_at, m.id), '[]'::jsonb) FROM manual_payments m WHERE m.invoice_id = i.id),
    'periodStart', to_char(i.period_start AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
    'periodEnd', to_char(i.period_end AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'organizationId', i.organization_id, 'environmentId', i.environment_id,
    'createdAt', to_char(i.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')), $5
      FROM refunded i)
      SELECT count(*)::int AS n FROM refunded;

-- InvoicesRepository.organizationOf
SELECT organization_id AS "organizationId" FROM invoices WHERE id = $1;

-- InvoicesRepository.numberPrefix
SELECT prefix FROM invoice_counters WHERE environment_id = $1;

-- InvoicesRepository.setNumberPrefix
INSERT INTO invoice_counters AS k (environment_id, organization_id, last_number, prefix)
      SELECT e.id, e.organization_id, 0, $1::text FROM environments e
  JOIN organizations o ON o.id = e.organization_id WHERE e.id = $2
      ON CONFLICT (environment_id) DO UPDATE SET prefix = excluded.prefix
      RETURNING k.prefix;

-- InvoicesRepository.byId
SELECT i.id, i.organization_id AS "organizationId", i.environment_id AS "environmentId",
   i.customer_id AS "customerId", i.subscription_id AS "subscriptionId", i.status, i.amount::text AS amount,
   i.number, i.subtotal::numeric(12, 2)::text AS subtotal, i.discount::numeric(12, 2)::text AS discount,
   i.credit_applied::numeric(12, 2)::text AS "creditApplied", i.lines,
   i.period_start AS "periodStart", i.period_end AS "periodEnd", i.due_date AS "dueDate",
   i.payment_request_id AS "paymentRequestId", i.created_at AS "createdAt", i.amount_paid::text AS "amountPaid",
   (SELECT coalesce(jsonb_agg(jsonb_build_object('id', m.id, 'amount', m.amount, 'method', m.method,
             'reference', m.reference, 'paidAt', to_char(m.paid_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
             'createdAt', to_char(m.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
           ORDER BY m.created_at, m.id), '[]'::jsonb)
      FROM manual_payments m WHERE m.invoice_id = i.id) AS "manualPayments" FROM invoices i WHERE i.id = $1 AND i.organization_id = $2;

-- InvoicesRepository.list
SELECT i.id, i.organization_id AS "organizationId", i.environment_id AS "environmentId",
   i.customer_id AS "customerId", i.subscription_id AS "subscriptionId", i.status, i.amount::text AS amount,
   i.number, i.subtotal::numeric(12, 2)::text AS subtotal, i.discount::numeric(12, 2)::text AS discount,
   i.credit_applied::numeric(12, 2)::text AS "creditApplied", i.lines,
   i.period_start AS "periodStart", i.period_end AS "periodEnd", i.due_date AS "dueDate",
   i.payment_request_id AS "paymentRequestId", i.created_at AS "createdAt", i.amount_paid::text AS "amountPaid",
   (SELECT coalesce(jsonb_agg(jsonb_build_object('id', m.id, 'amount', m.amount, 'method', m.method,
             'reference', m.reference, 'paidAt', to_char(m.paid_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
             'createdAt', to_char(m.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
           ORDER BY m.created_at, m.id), '[]'::jsonb)
      FROM manual_payments m WHERE m.invoice_id = i.id) AS "manualPayments"
          FROM (SELECT i.id FROM invoices i WHERE i.organization_id = $1 AND i.id = $2 AND i.subscription_id = $3 AND i.customer_id = (SELECT c.id FROM customers c
        WHERE c.organization_id = $4 AND c.external_user_id = $5)
                 ORDER BY i.created_at DESC, i.period_start DESC, i.id DESC LIMIT $6 OFFSET $7) page
          JOIN invoices i ON i.id = page.id
         ORDER BY i.created_at DESC, i.period_start DESC, i.id DESC;

-- InvoicesRepository.list
SELECT count(*)::int AS total FROM invoices i WHERE i.organization_id = $1 AND i.id = $2 AND i.subscription_id = $3 AND i.customer_id = (SELECT c.id FROM customers c
        WHERE c.organization_id = $4 AND c.external_user_id = $5);

-- InvoicesRepository.recordManualPayment
WITH payment AS (
        INSERT INTO manual_payments (id, invoice_id, organization_id, amount, method, reference, paid_at, created_at)
        VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
        RETURNING id
      ), invoice AS (
        UPDATE invoices i SET amount_paid = i.amount_paid + $9, updated_at = $10,
               status = CASE WHEN $11 THEN 'paid' ELSE i.status END,
               paid_at = CASE WHEN $12 THEN $13::timestamptz ELSE i.paid_at END
         WHERE i.id = $14 AND i.status = 'pending'
        RETURNING i.*
      ), request AS (UPDATE payment_requests SET amount = $15, application_fee = $16::int, updated_at = $17
          WHERE id = $18 AND status = 'pending'
         RETURNING id)
      SELECT 1;

-- InvoicesRepository.lockForManualPayment
SELECT id FROM payment_requests WHERE id = $1 FOR UPDATE;

-- InvoicesRepository.lockForManualPayment
SELECT i.id, i.organization_id AS "organizationId", i.environment_id AS "environmentId",
   i.customer_id AS "customerId", i.subscription_id AS "subscriptionId", i.status, i.amount::text AS amount,
   i.number, i.subtotal::numeric(12, 2)::text AS subtotal, i.discount::numeric(12, 2)::text AS discount,
   i.credit_applied::numeric(12, 2)::text AS "creditApplied", i.lines,
   i.period_start AS "periodStart", i.period_end AS "periodEnd", i.due_date AS "dueDate",
   i.payment_request_id AS "paymentRequestId", i.created_at AS "createdAt", i.amount_paid::text AS "amountPaid",
   (SELECT coalesce(jsonb_agg(jsonb_build_object('id', m.id, 'amount', m.amount, 'method', m.method,
             'reference', m.reference, 'paidAt', to_char(m.paid_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
             'createdAt', to_char(m.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
           ORDER BY m.created_at, m.id), '[]'::jsonb)
      FROM manual_payments m WHERE m.invoice_id = i.id) AS "manualPayments", EXISTS (SELECT 1 FROM payments pay WHERE pay.payment_request_id = i.payment_request_id AND pay.status = 'pending') AS "paymentInProgress",
             (SELECT application_fee FROM payment_requests WHERE id = i.payment_request_id) AS "applicationFee"
        FROM invoices i WHERE i.id = $1 FOR UPDATE OF i;

-- InvoicesRepository.listAll
SELECT i.id, i.organization_id AS "organizationId", i.environment_id AS "environmentId",
   i.customer_id AS "customerId", i.subscription_id AS "subscriptionId", i.status, i.amount::text AS amount,
   i.number, i.subtotal::numeric(12, 2)::text AS subtotal, i.discount::numeric(12, 2)::text AS discount,
   i.credit_applied::numeric(12, 2)::text AS "creditApplied", i.lines,
   i.period_start AS "periodStart", i.period_end AS "periodEnd", i.due_date AS "dueDate",
   i.payment_request_id AS "paymentRequestId", i.created_at AS "createdAt", i.amount_paid::text AS "amountPaid",
   (SELECT coalesce(jsonb_agg(jsonb_build_object('id', m.id, 'amount', m.amount, 'method', m.method,
             'reference', m.reference, 'paidAt', to_char(m.paid_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
             'createdAt', to_char(m.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
           ORDER BY m.created_at, m.id), '[]'::jsonb)
      FROM manual_payments m WHERE m.invoice_id = i.id) AS "manualPayments", to_char(i.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') || ',' || i.id AS cursor FROM invoices i WHERE i.organization_id = $1 AND i.id = $2 AND i.subscription_id = $3 AND i.customer_id = (SELECT c.id FROM customers c
        WHERE c.organization_id = $4 AND c.external_user_id = $5)
       ORDER BY i.created_at DESC, i.id DESC LIMIT $6;

-- InvoicesRepository.lockStatus
SELECT status FROM invoices WHERE id = $1 FOR UPDATE;

-- InvoicesRepository.forPage
SELECT i.id, i.number, i.status, pr.amount, i.period_start AS "periodStart", i.period_end AS "periodEnd",
             i.organization_id AS "organizationId", i.environment_id AS "environmentId", e.kind AS environment,
             o.name AS "merchantName", o.verification_status AS verification, (SELECT product.name FROM subscriptions sub
      JOIN prices price ON price.id = sub.price_id JOIN products product ON product.id = price.product_id
     WHERE sub.id = i.subscription_id) AS "productName",
             pr.id AS "paymentRequestId",
             pr.transaction_id AS "transactionId", pr.phone_number AS "phoneNumber",
             (SELECT pay.status FROM payments pay WHERE pay.payment_request_id = pr.id
               ORDER BY pay.created_at DESC, pay.id DESC LIMIT 1) AS "paymentStatus"
        FROM invoices i
        JOIN payment_requests pr ON pr.id = i.payment_request_id
        JOIN (environments e
  JOIN organizations o ON o.id = e.organization_id) ON e.id = i.environment_id AND o.id = i.organization_id
       WHERE i.id = $1;

-- InvoicesRepository.search
SELECT i.id, i.organization_id AS "organizationId", i.environment_id AS "environmentId",
   i.customer_id AS "customerId", i.subscription_id AS "subscriptionId", i.status, i.amount::text AS amount,
   i.number, i.subtotal::numeric(12, 2)::text AS subtotal, i.discount::numeric(12, 2)::text AS discount,
   i.credit_applied::numeric(12, 2)::text AS "creditApplied", i.lines,
   i.period_start AS "periodStart", i.period_end AS "periodEnd", i.due_date AS "dueDate",
   i.payment_request_id AS "paymentRequestId", i.created_at AS "createdAt", i.amount_paid::text AS "amountPaid",
   (SELECT coalesce(jsonb_agg(jsonb_build_object('id', m.id, 'amount', m.amount, 'method', m.method,
             'reference', m.reference, 'paidAt', to_char(m.paid_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
             'createdAt', to_char(m.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
           ORDER BY m.created_at, m.id), '[]'::jsonb)
      FROM manual_payments m WHERE m.invoice_id = i.id) AS "manualPayments", c.external_user_id AS "customerExternalUserId",
  c.phone AS "customerPhone", (SELECT product.name FROM subscriptions sub
      JOIN prices price ON price.id = sub.price_id JOIN products product ON product.id = price.product_id
     WHERE sub.id = i.subscription_id) AS "productName", to_char(i.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') || ',' || i.id AS cursor
        FROM (SELECT i.id FROM invoices i WHERE i.environment_id = $1 AND i.status = $2 AND i.customer_id = $3 AND i.subscription_id = $4 AND (i.created_at, i.id) < ($5::timestamptz, $6::uuid)
               ORDER BY i.created_at DESC, i.id DESC LIMIT $7) page
        JOIN invoices i ON i.id = page.id JOIN customers c ON c.id = i.customer_id
       ORDER BY i.created_at DESC, i.id DESC;

-- InvoicesRepository.detail
SELECT i.id, i.organization_id AS "organizationId", i.environment_id AS "environmentId",
   i.customer_id AS "customerId", i.subscription_id AS "subscriptionId", i.status, i.amount::text AS amount,
   i.number, i.subtotal::numeric(12, 2)::text AS subtotal, i.discount::numeric(12, 2)::text AS discount,
   i.credit_applied::numeric(12, 2)::text AS "creditApplied", i.lines,
   i.period_start AS "periodStart", i.period_end AS "periodEnd", i.due_date AS "dueDate",
   i.payment_request_id AS "paymentRequestId", i.created_at AS "createdAt", i.amount_paid::text AS "amountPaid",
   (SELECT coalesce(jsonb_agg(jsonb_build_object('id', m.id, 'amount', m.amount, 'method', m.method,
             'reference', m.reference, 'paidAt', to_char(m.paid_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
             'createdAt', to_char(m.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
           ORDER BY m.created_at, m.id), '[]'::jsonb)
      FROM manual_payments m WHERE m.invoice_id = i.id) AS "manualPayments", c.external_user_id AS "customerExternalUserId",
  c.phone AS "customerPhone", (SELECT product.name FROM subscriptions sub
      JOIN prices price ON price.id = sub.price_id JOIN products product ON product.id = price.product_id
     WHERE sub.id = i.subscription_id) AS "productName" FROM invoices i JOIN customers c ON c.id = i.customer_id
       WHERE i.id = $1 AND i.environment_id = $2;
