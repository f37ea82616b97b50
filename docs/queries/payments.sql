-- The SQL of src/payments/ as sent to PostgreSQL. Written by `npm run queries`: do not edit.

-- pay: lookUpStatement (prepared)
SELECT
    (SELECT json_build_object('id', m.id, 'type', m.type, 'requiresPassCode', m.requires_pass_code, 'flow', m.flow,
                              'receivingBank', m.receiving_bank, 'receivingPhone', m.receiving_phone)
       FROM payment_methods m WHERE m.id = $1 AND m.environment_id = $2 AND m.enabled) AS method,
    (SELECT row_to_json(pr) FROM payment_requests pr
      WHERE pr.environment_id = $3 AND pr.transaction_id = $4) AS request;

-- pay: lookUpStatement with an Idempotency-Key (prepared)
SELECT
    (SELECT json_build_object('id', m.id, 'type', m.type, 'requiresPassCode', m.requires_pass_code, 'flow', m.flow,
                              'receivingBank', m.receiving_bank, 'receivingPhone', m.receiving_phone)
       FROM payment_methods m WHERE m.id = $1 AND m.environment_id = $2 AND m.enabled) AS method,
    (SELECT row_to_json(pr) FROM payment_requests pr
      WHERE pr.environment_id = $3 AND pr.transaction_id = $4) AS request, (SELECT json_build_object('requestHash', encode(k.request_hash, 'hex'), 'status', k.status, 'body', k.body,
                        'paymentId', k.payment_id, 'extra', (SELECT row_to_json(x) FROM (SELECT p.*, (SELECT transaction_id FROM payment_requests WHERE id = p.payment_request_id) AS transaction_id
    FROM payments p WHERE p.id = k.payment_id) x)) FROM idempotency_keys k WHERE k.id = $5) AS keyed;

-- pay: openStatement (prepared)
WITH req AS (
         SELECT id FROM payment_requests WHERE id = $1 AND status = 'pending' AND voided_at IS NULL FOR UPDATE
       ), failures AS (
         SELECT count(*)::int AS n, min(updated_at) AS oldest FROM payments
          WHERE payment_request_id = $2 AND phone_number = $3 AND status = 'failed'
            AND updated_at > now() - make_interval(mins => $4)
       ), created AS (
         INSERT INTO payments (id, environment_id, payment_request_id, payment_method_id, amount, phone_number,
                               status, next_check_at, created_at, updated_at, claim_expires_at, receiving_bank,
                               receiving_phone, test_clock_id)
         SELECT $5, $6, req.id, $7, $8,
                $9, 'pending', $10, $11, $12, $13::timestamptz,
                $14::text, $15::text, $16::uuid
           FROM req WHERE (SELECT n FROM failures) < $17
         ON CONFLICT (payment_request_id) WHERE status = 'pending' DO NOTHING
         RETURNING id
       ), counted AS (UPDATE payment_requests SET payment_count = payment_count + 1 WHERE id = $18 AND EXISTS (SELECT 1 FROM created) RETURNING id
       ), event AS (INSERT INTO events (id, organization_id, environment_id, kind, data, created_at)
    SELECT $19, $20, $21, $22, $23, $24
      FROM created)
       SELECT (SELECT count(*) FROM req)::int AS payable, (SELECT count(*) FROM created)::int AS opened,
              (SELECT CASE WHEN n >= $25 THEN greatest(1, ceil(extract(epoch FROM
                        oldest + make_interval(mins => $26) - now())))::int END
                 FROM failures) AS retry_after;

-- pay: openStatement with an Idempotency-Key (prepared)
WITH req AS (
         SELECT id FROM payment_requests WHERE id = $1 AND status = 'pending' AND voided_at IS NULL FOR UPDATE
       ), failures AS (
         SELECT count(*)::int AS n, min(updated_at) AS oldest FROM payments
          WHERE payment_request_id = $2 AND phone_number = $3 AND status = 'failed'
            AND updated_at > now() - make_interval(mins => $4)
       ), created AS (
         INSERT INTO payments (id, environment_id, payment_request_id, payment_method_id, amount, phone_number,
                               status, next_check_at, created_at, updated_at, claim_expires_at, receiving_bank,
                               receiving_phone, test_clock_id)
         SELECT $5, $6, req.id, $7, $8,
                $9, 'pending', $10, $11, $12, $13::timestamptz,
                $14::text, $15::text, $16::uuid
           FROM req WHERE (SELECT n FROM failures) < $17
         ON CONFLICT (payment_request_id) WHERE status = 'pending' DO NOTHING
         RETURNING id
       ), counted AS (UPDATE payment_requests SET payment_count = payment_count + 1 WHERE id = $18 AND EXISTS (SELECT 1 FROM created) RETURNING id
       ), event AS (INSERT INTO events (id, organization_id, environment_id, kind, data, created_at)
    SELECT $19, $20, $21, $22, $23, $24
      FROM created), keyed AS (INSERT INTO idempotency_keys (id, environment_id, checkout_session_id, request_hash, payment_id)
    SELECT $25, $26, $27, $28, s.id FROM created s)
       SELECT (SELECT count(*) FROM req)::int AS payable, (SELECT count(*) FROM created)::int AS opened,
              (SELECT CASE WHEN n >= $29 THEN greatest(1, ceil(extract(epoch FROM
                        oldest + make_interval(mins => $30) - now())))::int END
                 FROM failures) AS retry_after;

-- pay: keyedStatement
SELECT (SELECT json_build_object('requestHash', encode(k.request_hash, 'hex'), 'status', k.status, 'body', k.body,
                        'paymentId', k.payment_id, 'extra', (SELECT row_to_json(x) FROM (SELECT p.*, (SELECT transaction_id FROM payment_requests WHERE id = p.payment_request_id) AS transaction_id
    FROM payments p WHERE p.id = k.payment_id) x)) FROM idempotency_keys k WHERE k.id = $1) AS keyed;

-- pay: settleStatement, with the checkout, billing and ledger settlement extensions (prepared)
WITH req AS (
         SELECT id FROM payment_requests WHERE id = $1 FOR UPDATE
       ), settled AS (
         UPDATE payments
            SET status = $2, reference_id = COALESCE($3, reference_id),
                failure_reason = $4, completed_at = $5, updated_at = $6
          WHERE id = $7 AND status = 'pending' AND EXISTS (SELECT 1 FROM req)
         RETURNING *
       ), event AS (INSERT INTO events (id, organization_id, environment_id, kind, data, created_at)
    SELECT $8, $9, $10, $11, $12, $13
      FROM settled),
       paid AS (
         UPDATE payment_requests SET status = 'paid', paid_at = $14, updated_at = $15
          WHERE id = $16 AND status = 'pending' AND $17::boolean AND EXISTS (SELECT 1 FROM settled)
         RETURNING id
       ), paid_event AS (INSERT INTO events (id, organization_id, environment_id, kind, data, created_at)
    SELECT $18, $19, $20, $21, $22, $23
      FROM paid), checkout_completed AS (
      UPDATE checkout_sessions s
         SET status = 'completed', completed_at = $24, updated_at = $25,
             selected_configuration_id = COALESCE($26::uuid, s.selected_configuration_id)
       WHERE s.payment_request_id IN (SELECT id FROM paid) AND s.status = 'open'
      RETURNING s.*
    ), checkout_completed_event AS (INSERT INTO events (id, organization_id, environment_id, kind, data, created_at)
    SELECT gen_random_uuid(), (SELECT organization_id FROM environments WHERE id = s.environment_id), s.environment_id, $27, jsonb_build_object(
  'id', s.id, 'paymentRequestId', s.payment_request_id, 'status', s.status,
  'successUrl', s.success_url, 'cancelUrl', s.cancel_url, 'expiresAt', to_char(s.expires_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
  'environmentId', s.environment_id, 'selectedConfigurationId', s.selected_configuration_id,
  'completedAt', to_char(s.completed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'createdAt', to_char(s.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'updatedAt', to_char(s.updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')), $28
      FROM checkout_completed s), billing_invoice_paid AS (
      UPDATE invoices i SET status = 'paid', paid_at = $29, updated_at = $30
       WHERE i.payment_request_id IN (SELECT id FROM paid) AND i.status = 'pending'
      RETURNING i.*
    ), billing_invoice_paid_event AS (INSERT INTO events (id, organization_id, environment_id, kind, data, created_at)
    SELECT gen_random_uuid(), i.organization_id, i.environment_id, $31, jsonb_build_object(
    'id', i.id, 'number', i.number, 'customerId', i.customer_id, 'subscriptionId', i.subscription_id, 'status', i.status,
    'amount', i.amount::text, 'subtotal', i.subtotal::numeric(12, 2)::text, 'discount', i.discount::numeric(12, 2)::text,
    'creditApplied', i.credit_applied::numeric(12, 2)::text, 'lines', i.lines, 'dueDate', to_char(i.due_date AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'paymentRequestId', i.payment_request_id,
    'checkoutUrl', $32::text || i.id,
    'amountPaid', CASE WHEN i.status IN ('paid', 'refunded') THEN i.amount ELSE i.amount_paid END::text,
    'amountDue', CASE WHEN i.status = 'pending' THEN i.amount - i.amount_paid ELSE 0 END::numeric(12, 2)::text,
    'manualPayments', (SELECT coalesce(jsonb_agg(jsonb_build_object('id', m.id, 'amount', m.amount, 'method', m.method,
             'reference', m.reference, 'paidAt', to_char(m.paid_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'createdAt', to_char(m.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
           ORDER BY m.created_at, m.id), '[]'::jsonb) FROM manual_payments m WHERE m.invoice_id = i.id),
    'periodStart', to_char(i.period_start AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
    'periodEnd', to_char(i.period_end AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'organizationId', i.organization_id, 'environmentId', i.environment_id,
    'createdAt', to_char(i.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')), $33
      FROM billing_invoice_paid i), billing_reactivated AS (INSERT INTO events (id, organization_id, environment_id, kind, data, created_at)
    SELECT gen_random_uuid(), s.organization_id, s.environment_id, $34, jsonb_build_object(
    'id', s.id, 'customerId', s.customer_id, 'priceId', s.price_id, 'quantity', s.quantity,
    'pendingChange', CASE WHEN s.pending_price_id IS NOT NULL THEN jsonb_build_object('priceId', s.pending_price_id,
      'quantity', s.pending_quantity, 'effectiveAt', to_char(s.next_billing_date AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')) END,
    'discount', CASE WHEN s.coupon_id IS NOT NULL THEN jsonb_build_object('couponId', s.coupon_id,
      'endsAfterPeriods', s.discount_ends_after, 'periodsApplied', s.discount_periods_applied) END,
    'status', 'active',
    'trialEnd', to_char(s.trial_end AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'startedAt', to_char(s.started_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
    'currentPeriodStart', to_char(s.current_period_start AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'currentPeriodEnd', to_char(s.current_period_end AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
    'nextBillingDate', to_char(s.next_billing_date AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'expiresAt', to_char(s.expires_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
    'cancelledAt', to_char(s.cancelled_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'applicationFeeBps', s.application_fee_bps,
    'environmentId', s.environment_id,
    'organizationId', s.organization_id, 'createdAt', to_char(s.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'updatedAt', to_char(s.updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')), $35
      FROM billing_invoice_paid paid JOIN subscriptions s ON s.id = paid.subscription_id
       WHERE s.status = 'active' AND paid.due_date <= $36
         AND NOT EXISTS (SELECT 1 FROM invoices o WHERE o.subscription_id = s.id
                        AND o.status = 'pending' AND o.due_date <= $37 AND o.id <> paid.id)), ledger_payment AS (
      INSERT INTO balance_transactions (id, type, amount, fee, net, source_id, payment_id, available_on,
                                        environment_id, organization_id, created_at)
      SELECT gen_random_uuid(), x.type, x.amount, x.fee, x.amount - x.fee, s.id, s.id,
             s.completed_at + make_interval(days => $38::int), x.environment_id,
             x.organization_id, s.completed_at
        FROM settled s
       CROSS JOIN LATERAL (SELECT e.organization_id, o.fee_bps FROM environments e
      JOIN organizations o ON o.id = e.organization_id WHERE e.id = s.environment_id) o
       CROSS JOIN LATERAL (SELECT (SELECT application_fee FROM payment_requests WHERE id = s.payment_request_id)::bigint AS fee) a
        LEFT JOIN LATERAL (SELECT * FROM (SELECT pe.id AS environment_id, pe.organization_id FROM environments ae
      JOIN organizations ao ON ao.id = ae.organization_id
      JOIN environments pe ON pe.organization_id = ao.platform_id AND pe.kind = ae.kind
     WHERE ae.id = s.environment_id) pp WHERE a.fee > 0) p ON true
       CROSS JOIN LATERAL (VALUES
               ('payment', s.amount::bigint, (s.amount::bigint * COALESCE(o.fee_bps, $39::int) + 5000) / 10000,
                s.environment_id, o.organization_id),
               ('application_fee', -a.fee, 0, s.environment_id, o.organization_id),
               ('application_fee_received', a.fee, 0, p.environment_id, p.organization_id))
             AS x(type, amount, fee, environment_id, organization_id)
       WHERE s.status = 'completed' AND (x.type = 'payment' OR p.environment_id IS NOT NULL)
      RETURNING id
    )
       SELECT id, environment_id, payment_request_id, payment_method_id, amount, phone_number, status, reference_id, failure_reason, completed_at, refunded_amount, next_check_at, created_at, updated_at, claim_expires_at, receiving_bank, receiving_phone, (SELECT count(*) FROM paid)::int AS paid FROM settled;

-- PaymentsRepository.lookUp (prepared)
SELECT
    (SELECT json_build_object('id', m.id, 'type', m.type, 'requiresPassCode', m.requires_pass_code, 'flow', m.flow,
                              'receivingBank', m.receiving_bank, 'receivingPhone', m.receiving_phone)
       FROM payment_methods m WHERE m.id = $1 AND m.environment_id = $2 AND m.enabled) AS method,
    (SELECT row_to_json(pr) FROM payment_requests pr
      WHERE pr.environment_id = $3 AND pr.transaction_id = $4) AS request, (SELECT json_build_object('requestHash', encode(k.request_hash, 'hex'), 'status', k.status, 'body', k.body,
                        'paymentId', k.payment_id, 'extra', (SELECT row_to_json(x) FROM (SELECT p.*, (SELECT transaction_id FROM payment_requests WHERE id = p.payment_request_id) AS transaction_id
    FROM payments p WHERE p.id = k.payment_id) x)) FROM idempotency_keys k WHERE k.id = $5) AS keyed;

-- PaymentsRepository.keyRecordWithPayment
SELECT (SELECT json_build_object('requestHash', encode(k.request_hash, 'hex'), 'status', k.status, 'body', k.body,
                        'paymentId', k.payment_id, 'extra', (SELECT row_to_json(x) FROM (SELECT p.*, (SELECT transaction_id FROM payment_requests WHERE id = p.payment_request_id) AS transaction_id
    FROM payments p WHERE p.id = k.payment_id) x)) FROM idempotency_keys k WHERE k.id = $1) AS keyed;

-- PaymentsRepository.open (prepared)
WITH req AS (
         SELECT id FROM payment_requests WHERE id = $1 AND status = 'pending' AND voided_at IS NULL FOR UPDATE
       ), failures AS (
         SELECT count(*)::int AS n, min(updated_at) AS oldest FROM payments
          WHERE payment_request_id = $2 AND phone_number = $3 AND status = 'failed'
            AND updated_at > now() - make_interval(mins => $4)
       ), created AS (
         INSERT INTO payments (id, environment_id, payment_request_id, payment_method_id, amount, phone_number,
                               status, next_check_at, created_at, updated_at, claim_expires_at, receiving_bank,
                               receiving_phone, test_clock_id)
         SELECT $5, $6, req.id, $7, $8,
                $9, 'pending', $10, $11, $12, $13::timestamptz,
                $14::text, $15::text, $16::uuid
           FROM req WHERE (SELECT n FROM failures) < $17
         ON CONFLICT (payment_request_id) WHERE status = 'pending' DO NOTHING
         RETURNING id
       ), counted AS (UPDATE payment_requests SET payment_count = payment_count + 1 WHERE id = $18 AND EXISTS (SELECT 1 FROM created) RETURNING id
       ), event AS (INSERT INTO events (id, organization_id, environment_id, kind, data, created_at)
    SELECT $19, $20, $21, $22, $23, $24
      FROM created)
       SELECT (SELECT count(*) FROM req)::int AS payable, (SELECT count(*) FROM created)::int AS opened,
              (SELECT CASE WHEN n >= $25 THEN greatest(1, ceil(extract(epoch FROM
                        oldest + make_interval(mins => $26) - now())))::int END
                 FROM failures) AS retry_after;

-- PaymentsRepository.settle (prepared)
WITH req AS (
         SELECT id FROM payment_requests WHERE id = $1 FOR UPDATE
       ), settled AS (
         UPDATE payments
            SET status = $2, reference_id = COALESCE($3, reference_id),
                failure_reason = $4, completed_at = $5, updated_at = $6
          WHERE id = $7 AND status = 'pending' AND EXISTS (SELECT 1 FROM req)
         RETURNING *
       ), event AS (INSERT INTO events (id, organization_id, environment_id, kind, data, created_at)
    SELECT $8, $9, $10, $11, $12, $13
      FROM settled),
       paid AS (
         UPDATE payment_requests SET status = 'paid', paid_at = $14, updated_at = $15
          WHERE id = $16 AND status = 'pending' AND $17::boolean AND EXISTS (SELECT 1 FROM settled)
         RETURNING id
       ), paid_event AS (INSERT INTO events (id, organization_id, environment_id, kind, data, created_at)
    SELECT $18, $19, $20, $21, $22, $23
      FROM paid), checkout_completed AS (
      UPDATE checkout_sessions s
         SET status = 'completed', completed_at = $24, updated_at = $25,
             selected_configuration_id = COALESCE($26::uuid, s.selected_configuration_id)
       WHERE s.payment_request_id IN (SELECT id FROM paid) AND s.status = 'open'
      RETURNING s.*
    ), checkout_completed_event AS (INSERT INTO events (id, organization_id, environment_id, kind, data, created_at)
    SELECT gen_random_uuid(), (SELECT organization_id FROM environments WHERE id = s.environment_id), s.environment_id, $27, jsonb_build_object(
  'id', s.id, 'paymentRequestId', s.payment_request_id, 'status', s.status,
  'successUrl', s.success_url, 'cancelUrl', s.cancel_url, 'expiresAt', to_char(s.expires_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
  'environmentId', s.environment_id, 'selectedConfigurationId', s.selected_configuration_id,
  'completedAt', to_char(s.completed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'createdAt', to_char(s.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'updatedAt', to_char(s.updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')), $28
      FROM checkout_completed s), billing_invoice_paid AS (
      UPDATE invoices i SET status = 'paid', paid_at = $29, updated_at = $30
       WHERE i.payment_request_id IN (SELECT id FROM paid) AND i.status = 'pending'
      RETURNING i.*
    ), billing_invoice_paid_event AS (INSERT INTO events (id, organization_id, environment_id, kind, data, created_at)
    SELECT gen_random_uuid(), i.organization_id, i.environment_id, $31, jsonb_build_object(
    'id', i.id, 'number', i.number, 'customerId', i.customer_id, 'subscriptionId', i.subscription_id, 'status', i.status,
    'amount', i.amount::text, 'subtotal', i.subtotal::numeric(12, 2)::text, 'discount', i.discount::numeric(12, 2)::text,
    'creditApplied', i.credit_applied::numeric(12, 2)::text, 'lines', i.lines, 'dueDate', to_char(i.due_date AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'paymentRequestId', i.payment_request_id,
    'checkoutUrl', $32::text || i.id,
    'amountPaid', CASE WHEN i.status IN ('paid', 'refunded') THEN i.amount ELSE i.amount_paid END::text,
    'amountDue', CASE WHEN i.status = 'pending' THEN i.amount - i.amount_paid ELSE 0 END::numeric(12, 2)::text,
    'manualPayments', (SELECT coalesce(jsonb_agg(jsonb_build_object('id', m.id, 'amount', m.amount, 'method', m.method,
             'reference', m.reference, 'paidAt', to_char(m.paid_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'createdAt', to_char(m.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
           ORDER BY m.created_at, m.id), '[]'::jsonb) FROM manual_payments m WHERE m.invoice_id = i.id),
    'periodStart', to_char(i.period_start AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
    'periodEnd', to_char(i.period_end AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'organizationId', i.organization_id, 'environmentId', i.environment_id,
    'createdAt', to_char(i.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')), $33
      FROM billing_invoice_paid i), billing_reactivated AS (INSERT INTO events (id, organization_id, environment_id, kind, data, created_at)
    SELECT gen_random_uuid(), s.organization_id, s.environment_id, $34, jsonb_build_object(
    'id', s.id, 'customerId', s.customer_id, 'priceId', s.price_id, 'quantity', s.quantity,
    'pendingChange', CASE WHEN s.pending_price_id IS NOT NULL THEN jsonb_build_object('priceId', s.pending_price_id,
      'quantity', s.pending_quantity, 'effectiveAt', to_char(s.next_billing_date AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')) END,
    'discount', CASE WHEN s.coupon_id IS NOT NULL THEN jsonb_build_object('couponId', s.coupon_id,
      'endsAfterPeriods', s.discount_ends_after, 'periodsApplied', s.discount_periods_applied) END,
    'status', 'active',
    'trialEnd', to_char(s.trial_end AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'startedAt', to_char(s.started_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
    'currentPeriodStart', to_char(s.current_period_start AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'currentPeriodEnd', to_char(s.current_period_end AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
    'nextBillingDate', to_char(s.next_billing_date AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'expiresAt', to_char(s.expires_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
    'cancelledAt', to_char(s.cancelled_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'applicationFeeBps', s.application_fee_bps,
    'environmentId', s.environment_id,
    'organizationId', s.organization_id, 'createdAt', to_char(s.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'updatedAt', to_char(s.updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')), $35
      FROM billing_invoice_paid paid JOIN subscriptions s ON s.id = paid.subscription_id
       WHERE s.status = 'active' AND paid.due_date <= $36
         AND NOT EXISTS (SELECT 1 FROM invoices o WHERE o.subscription_id = s.id
                        AND o.status = 'pending' AND o.due_date <= $37 AND o.id <> paid.id)), ledger_payment AS (
      INSERT INTO balance_transactions (id, type, amount, fee, net, source_id, payment_id, available_on,
                                        environment_id, organization_id, created_at)
      SELECT gen_random_uuid(), x.type, x.amount, x.fee, x.amount - x.fee, s.id, s.id,
             s.completed_at + make_interval(days => $38::int), x.environment_id,
             x.organization_id, s.completed_at
        FROM settled s
       CROSS JOIN LATERAL (SELECT e.organization_id, o.fee_bps FROM environments e
      JOIN organizations o ON o.id = e.organization_id WHERE e.id = s.environment_id) o
       CROSS JOIN LATERAL (SELECT (SELECT application_fee FROM payment_requests WHERE id = s.payment_request_id)::bigint AS fee) a
        LEFT JOIN LATERAL (SELECT * FROM (SELECT pe.id AS environment_id, pe.organization_id FROM environments ae
      JOIN organizations ao ON ao.id = ae.organization_id
      JOIN environments pe ON pe.organization_id = ao.platform_id AND pe.kind = ae.kind
     WHERE ae.id = s.environment_id) pp WHERE a.fee > 0) p ON true
       CROSS JOIN LATERAL (VALUES
               ('payment', s.amount::bigint, (s.amount::bigint * COALESCE(o.fee_bps, $39::int) + 5000) / 10000,
                s.environment_id, o.organization_id),
               ('application_fee', -a.fee, 0, s.environment_id, o.organization_id),
               ('application_fee_received', a.fee, 0, p.environment_id, p.organization_id))
             AS x(type, amount, fee, environment_id, organization_id)
       WHERE s.status = 'completed' AND (x.type = 'payment' OR p.environment_id IS NOT NULL)
      RETURNING id
    )
       SELECT id, environment_id, payment_request_id, payment_method_id, amount, phone_number, status, reference_id, failure_reason, completed_at, refunded_amount, next_check_at, created_at, updated_at, claim_expires_at, receiving_bank, receiving_phone, (SELECT count(*) FROM paid)::int AS paid FROM settled;

-- PaymentsRepository.settleGated (prepared)
WITH req AS (
         SELECT id FROM payment_requests WHERE id = $1 AND status = 'pending' AND voided_at IS NULL FOR UPDATE
       ), payable AS (
         SELECT id FROM payments WHERE id = $2 AND status = 'pending' AND EXISTS (SELECT 1 FROM req)
            FOR UPDATE
       ), transfer_stored AS (INSERT INTO transfers AS t (id, environment_id, organization_id, live, bank_reference, receiving_bank,
                                  receiving_phone, payer_phone, payer_app, amount, memo, received_at, status,
                                  payment_id, payment_request_id, created_at, updated_at)
      VALUES ($3, $4::uuid, $5::uuid, $6, $7, $8,
              $9, $10, $11, $12, $13, $14::timestamptz,
              COALESCE(CASE WHEN EXISTS (SELECT 1 FROM payable) THEN 'matched' END, 'unmatched'), CASE WHEN EXISTS (SELECT 1 FROM payable) THEN $15::uuid END, CASE WHEN EXISTS (SELECT 1 FROM payable) THEN $16::uuid END, $17::timestamptz, $18::timestamptz)
      ON CONFLICT (receiving_bank, bank_reference) WHERE live DO NOTHING
      RETURNING t.status, t.payment_id, t.payment_request_id), transfer_received AS (INSERT INTO events (id, organization_id, environment_id, kind, data, created_at)
    SELECT gen_random_uuid(), $19::uuid, $20::uuid, $21, $22::jsonb || jsonb_build_object('status', s.status,
                  'paymentId', s.payment_id, 'paymentRequestId', s.payment_request_id), $23
      FROM transfer_stored s), settled AS (
         UPDATE payments
            SET status = $24, reference_id = COALESCE($25, reference_id),
                failure_reason = $26, completed_at = $27, updated_at = $28
          WHERE id = $29 AND status = 'pending' AND EXISTS (SELECT 1 FROM req) AND EXISTS (SELECT 1 FROM transfer_stored WHERE status = 'matched')
         RETURNING *
       ), event AS (INSERT INTO events (id, organization_id, environment_id, kind, data, created_at)
    SELECT $30, $31, $32, $33, $34, $35
      FROM settled),
       paid AS (
         UPDATE payment_requests SET status = 'paid', paid_at = $36, updated_at = $37
          WHERE id = $38 AND status = 'pending' AND $39::boolean AND EXISTS (SELECT 1 FROM settled)
         RETURNING id
       ), paid_event AS (INSERT INTO events (id, organization_id, environment_id, kind, data, created_at)
    SELECT $40, $41, $42, $43, $44, $45
      FROM paid), checkout_completed AS (
      UPDATE checkout_sessions s
         SET status = 'completed', completed_at = $46, updated_at = $47,
             selected_configuration_id = COALESCE($48::uuid, s.selected_configuration_id)
       WHERE s.payment_request_id IN (SELECT id FROM paid) AND s.status = 'open'
      RETURNING s.*
    ), checkout_completed_event AS (INSERT INTO events (id, organization_id, environment_id, kind, data, created_at)
    SELECT gen_random_uuid(), (SELECT organization_id FROM environments WHERE id = s.environment_id), s.environment_id, $49, jsonb_build_object(
  'id', s.id, 'paymentRequestId', s.payment_request_id, 'status', s.status,
  'successUrl', s.success_url, 'cancelUrl', s.cancel_url, 'expiresAt', to_char(s.expires_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
  'environmentId', s.environment_id, 'selectedConfigurationId', s.selected_configuration_id,
  'completedAt', to_char(s.completed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'createdAt', to_char(s.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'updatedAt', to_char(s.updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')), $50
      FROM checkout_completed s), billing_invoice_paid AS (
      UPDATE invoices i SET status = 'paid', paid_at = $51, updated_at = $52
       WHERE i.payment_request_id IN (SELECT id FROM paid) AND i.status = 'pending'
      RETURNING i.*
    ), billing_invoice_paid_event AS (INSERT INTO events (id, organization_id, environment_id, kind, data, created_at)
    SELECT gen_random_uuid(), i.organization_id, i.environment_id, $53, jsonb_build_object(
    'id', i.id, 'number', i.number, 'customerId', i.customer_id, 'subscriptionId', i.subscription_id, 'status', i.status,
    'amount', i.amount::text, 'subtotal', i.subtotal::numeric(12, 2)::text, 'discount', i.discount::numeric(12, 2)::text,
    'creditApplied', i.credit_applied::numeric(12, 2)::text, 'lines', i.lines, 'dueDate', to_char(i.due_date AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'paymentRequestId', i.payment_request_id,
    'checkoutUrl', $54::text || i.id,
    'amountPaid', CASE WHEN i.status IN ('paid', 'refunded') THEN i.amount ELSE i.amount_paid END::text,
    'amountDue', CASE WHEN i.status = 'pending' THEN i.amount - i.amount_paid ELSE 0 END::numeric(12, 2)::text,
    'manualPayments', (SELECT coalesce(jsonb_agg(jsonb_build_object('id', m.id, 'amount', m.amount, 'method', m.method,
             'reference', m.reference, 'paidAt', to_char(m.paid_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'createdAt', to_char(m.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
           ORDER BY m.created_at, m.id), '[]'::jsonb) FROM manual_payments m WHERE m.invoice_id = i.id),
    'periodStart', to_char(i.period_start AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
    'periodEnd', to_char(i.period_end AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'organizationId', i.organization_id, 'environmentId', i.environment_id,
    'createdAt', to_char(i.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')), $55
      FROM billing_invoice_paid i), billing_reactivated AS (INSERT INTO events (id, organization_id, environment_id, kind, data, created_at)
    SELECT gen_random_uuid(), s.organization_id, s.environment_id, $56, jsonb_build_object(
    'id', s.id, 'customerId', s.customer_id, 'priceId', s.price_id, 'quantity', s.quantity,
    'pendingChange', CASE WHEN s.pending_price_id IS NOT NULL THEN jsonb_build_object('priceId', s.pending_price_id,
      'quantity', s.pending_quantity, 'effectiveAt', to_char(s.next_billing_date AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')) END,
    'discount', CASE WHEN s.coupon_id IS NOT NULL THEN jsonb_build_object('couponId', s.coupon_id,
      'endsAfterPeriods', s.discount_ends_after, 'periodsApplied', s.discount_periods_applied) END,
    'status', 'active',
    'trialEnd', to_char(s.trial_end AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'startedAt', to_char(s.started_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
    'currentPeriodStart', to_char(s.current_period_start AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'currentPeriodEnd', to_char(s.current_period_end AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
    'nextBillingDate', to_char(s.next_billing_date AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'expiresAt', to_char(s.expires_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
    'cancelledAt', to_char(s.cancelled_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'applicationFeeBps', s.application_fee_bps,
    'environmentId', s.environment_id,
    'organizationId', s.organization_id, 'createdAt', to_char(s.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'updatedAt', to_char(s.updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')), $57
      FROM billing_invoice_paid paid JOIN subscriptions s ON s.id = paid.subscription_id
       WHERE s.status = 'active' AND paid.due_date <= $58
         AND NOT EXISTS (SELECT 1 FROM invoices o WHERE o.subscription_id = s.id
                        AND o.status = 'pending' AND o.due_date <= $59 AND o.id <> paid.id)), ledger_payment AS (
      INSERT INTO balance_transactions (id, type, amount, fee, net, source_id, payment_id, available_on,
                                        environment_id, organization_id, created_at)
      SELECT gen_random_uuid(), x.type, x.amount, x.fee, x.amount - x.fee, s.id, s.id,
             s.completed_at + make_interval(days => $60::int), x.environment_id,
             x.organization_id, s.completed_at
        FROM settled s
       CROSS JOIN LATERAL (SELECT e.organization_id, o.fee_bps FROM environments e
      JOIN organizations o ON o.id = e.organization_id WHERE e.id = s.environment_id) o
       CROSS JOIN LATERAL (SELECT (SELECT application_fee FROM payment_requests WHERE id = s.payment_request_id)::bigint AS fee) a
        LEFT JOIN LATERAL (SELECT * FROM (SELECT pe.id AS environment_id, pe.organization_id FROM environments ae
      JOIN organizations ao ON ao.id = ae.organization_id
      JOIN environments pe ON pe.organization_id = ao.platform_id AND pe.kind = ae.kind
     WHERE ae.id = s.environment_id) pp WHERE a.fee > 0) p ON true
       CROSS JOIN LATERAL (VALUES
               ('payment', s.amount::bigint, (s.amount::bigint * COALESCE(o.fee_bps, $61::int) + 5000) / 10000,
                s.environment_id, o.organization_id),
               ('application_fee', -a.fee, 0, s.environment_id, o.organization_id),
               ('application_fee_received', a.fee, 0, p.environment_id, p.organization_id))
             AS x(type, amount, fee, environment_id, organization_id)
       WHERE s.status = 'completed' AND (x.type = 'payment' OR p.environment_id IS NOT NULL)
      RETURNING id
    )
       SELECT (SELECT status FROM transfer_stored) AS gate, s.* FROM (VALUES (1)) AS one (x)
                   LEFT JOIN (SELECT id, environment_id, payment_request_id, payment_method_id, amount, phone_number, status, reference_id, failure_reason, completed_at, refunded_amount, next_check_at, created_at, updated_at, claim_expires_at, receiving_bank, receiving_phone, (SELECT count(*) FROM paid)::int AS paid FROM settled) s ON true;

-- PaymentsRepository.setReference
UPDATE payments SET reference_id = $1 WHERE id = $2 AND status = 'pending';

-- PaymentsRepository.byId
SELECT * FROM payments WHERE id = $1;

-- PaymentsRepository.paymentJson
SELECT p.*, (SELECT transaction_id FROM payment_requests WHERE id = p.payment_request_id) AS transaction_id, (SELECT bt.payout_id FROM balance_transactions bt WHERE bt.source_id = p.id AND bt.type = 'payment') AS payout_id FROM payments p WHERE p.id = $1 AND p.environment_id = $2;

-- PaymentsRepository.latestOfRequest
SELECT p.*, (SELECT transaction_id FROM payment_requests WHERE id = p.payment_request_id) AS transaction_id FROM payments p
       WHERE p.payment_request_id = $1 AND p.environment_id = $2
       ORDER BY p.created_at DESC, p.id DESC LIMIT 1;

-- PaymentsRepository.latestPaymentOfRequest
SELECT * FROM payments
       WHERE payment_request_id = $1 AND environment_id = $2
       ORDER BY created_at DESC, id DESC LIMIT 1;

-- PaymentsRepository.list
SELECT p.*, (SELECT transaction_id FROM payment_requests WHERE id = p.payment_request_id) AS transaction_id, (SELECT bt.payout_id FROM balance_transactions bt WHERE bt.source_id = p.id AND bt.type = 'payment') AS payout_id FROM payments p WHERE p.environment_id = $1 AND p.payment_request_id = (SELECT id FROM payment_requests WHERE environment_id = $2 AND transaction_id = $3) AND p.payment_request_id = $4 AND p.status = $5 ORDER BY p.created_at DESC, p.id DESC LIMIT $6 OFFSET $7;

-- PaymentsRepository.list
SELECT count(*)::int AS total FROM payments p WHERE p.environment_id = $1 AND p.payment_request_id = (SELECT id FROM payment_requests WHERE environment_id = $2 AND transaction_id = $3) AND p.payment_request_id = $4 AND p.status = $5;

-- PaymentsRepository.listAll
SELECT p.*, (SELECT transaction_id FROM payment_requests WHERE id = p.payment_request_id) AS transaction_id, (SELECT bt.payout_id FROM balance_transactions bt WHERE bt.source_id = p.id AND bt.type = 'payment') AS payout_id, (SELECT pm.name FROM payment_methods pm WHERE pm.id = p.payment_method_id) AS payment_method_name, to_char(p.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') || ',' || p.id AS cursor FROM payments p WHERE p.environment_id = $1 AND p.payment_request_id = (SELECT id FROM payment_requests WHERE environment_id = $2 AND transaction_id = $3) AND p.payment_request_id = $4 AND p.status = $5
       ORDER BY p.created_at DESC, p.id DESC LIMIT $6;

-- PaymentsRepository.search
SELECT p.*, (SELECT transaction_id FROM payment_requests WHERE id = p.payment_request_id) AS transaction_id, pm.name AS method_name,
           pm.type AS method_type, to_char(p.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') || ',' || p.id AS cursor
    FROM payments p
    JOIN payment_methods pm ON pm.id = p.payment_method_id
    WHERE p.environment_id = $1 AND (p.payment_request_id = (SELECT id FROM payment_requests WHERE environment_id = $2 AND transaction_id = $3)) AND p.status = $4 AND p.payment_request_id = (SELECT id FROM payment_requests WHERE environment_id = $5 AND transaction_id = $6) AND p.phone_number = $7 AND p.payment_method_id = $8 AND p.created_at >= $9 AND p.created_at < $10 AND p.amount >= $11 AND p.amount <= $12 AND (p.created_at, p.id) < ($13::timestamptz, $14::uuid) ORDER BY p.created_at DESC, p.id DESC LIMIT $15;

-- PaymentsRepository.ofRequest
SELECT p.*, (SELECT transaction_id FROM payment_requests WHERE id = p.payment_request_id) AS transaction_id, (SELECT bt.payout_id FROM balance_transactions bt WHERE bt.source_id = p.id AND bt.type = 'payment') AS payout_id, pm.name AS method_name, pm.type AS method_type
        FROM payments p
        JOIN payment_methods pm ON pm.id = p.payment_method_id
       WHERE p.payment_request_id = $1 AND p.environment_id = $2
       ORDER BY p.created_at DESC, p.id DESC;

-- PaymentsRepository.methods
SELECT * FROM payment_methods WHERE environment_id = $1 ORDER BY position, name;

-- PaymentsRepository.claimForReconciliation
WITH due AS (
        SELECT id FROM payments
         WHERE status = 'pending' AND claim_expires_at IS NULL AND next_check_at <= now() AND created_at <= now() - $1::int * interval '1 millisecond'
         ORDER BY next_check_at
         LIMIT $2
         FOR UPDATE SKIP LOCKED
      )
      UPDATE payments p SET next_check_at = now() + $3::int * interval '1 millisecond'
        FROM due WHERE p.id = due.id
      RETURNING p.id;

-- PaymentsRepository.pending
SELECT p.*, pm.type AS method_type, (SELECT kind FROM environments WHERE id = p.environment_id) AS environment_kind,
             (SELECT organization_id FROM environments WHERE id = p.environment_id) AS organization_id
        FROM payments p
        JOIN payment_methods pm ON pm.id = p.payment_method_id
       WHERE p.status = 'pending' AND p.claim_expires_at IS NULL AND p.id = ANY($1::uuid[])
       ORDER BY p.created_at;

-- PaymentsRepository.enabledMethods
SELECT * FROM payment_methods WHERE environment_id = $1 AND enabled ORDER BY position, name;

-- PaymentsRepository.enabledMethod
SELECT * FROM payment_methods WHERE id = $1 AND environment_id = $2 AND enabled;

-- PaymentsRepository.insertDefaultMethods
INSERT INTO payment_methods (environment_id, type, name, requires_pass_code, code, position, flow, enabled,
                                   receiving_bank, receiving_phone)
      SELECT $1::uuid, m.type, m.name, m.requires_pass_code, m.type, m.position, 'push', true, NULL, NULL
        FROM jsonb_to_recordset($2::jsonb) AS m(type text, name text, requires_pass_code boolean, position integer)
      UNION ALL
      SELECT $3::uuid, $4::text, $5::text, false,
             $6::text, $7::int, 'transfer', false, $8::text,
             $9::text;

-- PaymentsRepository.transferMethod
SELECT * FROM payment_methods WHERE environment_id = $1 AND flow = 'transfer';

-- PaymentsRepository.setTransferMethod
UPDATE payment_methods SET enabled = $1, receiving_bank = $2,
             receiving_phone = $3, updated_at = now()
       WHERE environment_id = $4 AND flow = 'transfer'
      RETURNING *;

-- PaymentsRepository.pendingOfRequest
SELECT * FROM payments WHERE payment_request_id = $1 AND status = 'pending';

-- PaymentsRepository.expiredTransferClaims
SELECT *, (SELECT organization_id FROM environments WHERE id = environment_id) AS organization_id
        FROM payments WHERE status = 'pending' AND claim_expires_at IS NOT NULL AND test_clock_id IS NULL AND claim_expires_at < $1::timestamptz - make_interval(mins => $2) ORDER BY claim_expires_at, id LIMIT $3;

-- PaymentsRepository.nextClaimExpiryOnClock (prepared)
SELECT claim_expires_at + make_interval(mins => $1) + interval '1 millisecond' AS at
        FROM payments
       WHERE test_clock_id = $2::uuid AND status = 'pending' AND claim_expires_at IS NOT NULL
         AND claim_expires_at >= $3::timestamptz - make_interval(mins => $4)
       ORDER BY claim_expires_at LIMIT 1;

-- PaymentsRepository.clockTime
SELECT (SELECT tc.position FROM test_clocks tc WHERE tc.id = $1::uuid) AS at;

-- PaymentsRepository.gimtelApps
SELECT code, name FROM gimtel_apps ORDER BY position, code;

-- PaymentsRepository.replaceGimtelApps
DELETE FROM gimtel_apps WHERE code <> ALL($1::text[]);

-- PaymentsRepository.replaceGimtelApps
INSERT INTO gimtel_apps (code, name, position, updated_at)
        SELECT a.code, a.name, a.position, now()
          FROM jsonb_to_recordset($1::jsonb) AS a(code text, name text, position integer)
        ON CONFLICT (code) DO UPDATE SET name = EXCLUDED.name, position = EXCLUDED.position, updated_at = now();

-- PaymentsRepository.transferCandidates (prepared)
SELECT w.environment_id AS owner_environment_id, w.organization_id AS owner_organization_id, c.*
        FROM (SELECT $1::uuid AS environment_id, $2::uuid AS organization_id) w
        LEFT JOIN LATERAL (
          SELECT p.*, to_jsonb(pr) AS request
            FROM payments p JOIN payment_requests pr ON pr.id = p.payment_request_id
           WHERE p.environment_id = w.environment_id AND p.phone_number = $3
             AND p.amount = $4 AND p.status = 'pending' AND p.claim_expires_at IS NOT NULL
             AND p.receiving_bank = $5 AND p.receiving_phone = $6
             AND p.claim_expires_at + make_interval(mins => $7)
                 >= CASE WHEN p.test_clock_id IS NULL THEN $8::timestamptz
                         ELSE (SELECT tc.position FROM test_clocks tc WHERE tc.id = p.test_clock_id) END
           ORDER BY p.created_at, p.id
           LIMIT 2) c ON true;

-- PaymentsRepository.lockForRefund
SELECT p.*, (SELECT transaction_id FROM payment_requests WHERE id = p.payment_request_id) AS transaction_id, pm.type AS method_type, (SELECT kind FROM environments WHERE id = p.environment_id) AS environment,
             (SELECT organization_id FROM environments WHERE id = p.environment_id) AS organization_id
        FROM payments p JOIN payment_methods pm ON pm.id = p.payment_method_id
       WHERE p.id = $1 AND p.environment_id = $2
         FOR UPDATE OF p;

-- PaymentsRepository.addRefunded
UPDATE payments SET refunded_amount = refunded_amount + $1, updated_at = now()
       WHERE id = $2 AND status = 'completed';

-- PaymentsRepository.settledDays
SELECT to_char(day, 'YYYY-MM-DD') AS day, "methodId", status, count, amount FROM (
        SELECT date_trunc('day', p.created_at AT TIME ZONE 'UTC') AS day, p.payment_method_id AS "methodId", p.status,
               count(*)::int AS count, sum(p.amount)::float8 AS amount
          FROM payments p
         WHERE p.environment_id = $1 AND p.created_at >= $2
           AND p.created_at < COALESCE($3::timestamptz, 'infinity') AND p.status <> 'pending'
         GROUP BY 1, 2, 3) days;
