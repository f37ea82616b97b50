-- The SQL of src/subscriptions/ as sent to PostgreSQL. Written by `npm run queries`: do not edit.

-- SubscriptionsRepository.insert
WITH created AS (
        INSERT INTO subscriptions (id, organization_id, environment_id, customer_id, price_id, quantity, coupon_id,
                                   discount_periods_applied, discount_ends_after, status, trial_end, started_at,
                                   billing_anchor, billing_interval, next_period, current_period_start, current_period_end,
                                   next_billing_date, expires_at, cancelled_at, paused_at, first_payment_due_by, application_fee_bps, test_clock_id,
                                   created_at, updated_at)
        VALUES ($1, $2, $3, $4, $5, $6, $7,
                $8, $9, $10, $11,
                $12, $13, $14, $15, $16,
                $17, $18, $19, $20, $21,
                $22, $23, $24, $25, $26)
        RETURNING id
      ), event AS (INSERT INTO events (id, organization_id, environment_id, kind, data, created_at)
    SELECT $27, $28, $29, $30, $31, $32
      FROM created)
      SELECT 1;

-- SubscriptionsRepository.byId
SELECT s.id, s.organization_id AS "organizationId", s.environment_id AS "environmentId",
   s.customer_id AS "customerId", s.price_id AS "priceId", s.quantity,
   s.pending_price_id AS "pendingPriceId", s.pending_quantity AS "pendingQuantity", s.coupon_id AS "couponId",
   s.discount_periods_applied AS "discountPeriodsApplied", s.discount_ends_after AS "discountEndsAfter", s.status, s.trial_end AS "trialEnd",
   s.started_at AS "startedAt", s.billing_anchor AS "billingAnchor", s.billing_interval AS "billingInterval",
   s.next_period AS "nextPeriod", s.current_period_start AS "currentPeriodStart",
   s.current_period_end AS "currentPeriodEnd", s.next_billing_date AS "nextBillingDate",
   s.expires_at AS "expiresAt", s.cancelled_at AS "cancelledAt", s.paused_at AS "pausedAt",
   s.first_payment_due_by AS "firstPaymentDueBy", s.application_fee_bps AS "applicationFeeBps",
   s.created_at AS "createdAt", s.updated_at AS "updatedAt", EXISTS (SELECT 1 FROM invoices o WHERE o.subscription_id = s.id AND o.environment_id = s.environment_id
                        AND o.status = 'pending' AND o.due_date <= now()) AS overdue
        FROM subscriptions s WHERE s.id = $1 AND s.environment_id = $2;

-- SubscriptionsRepository.byExternalUser
SELECT s.id, s.organization_id AS "organizationId", s.environment_id AS "environmentId",
   s.customer_id AS "customerId", s.price_id AS "priceId", s.quantity,
   s.pending_price_id AS "pendingPriceId", s.pending_quantity AS "pendingQuantity", s.coupon_id AS "couponId",
   s.discount_periods_applied AS "discountPeriodsApplied", s.discount_ends_after AS "discountEndsAfter", s.status, s.trial_end AS "trialEnd",
   s.started_at AS "startedAt", s.billing_anchor AS "billingAnchor", s.billing_interval AS "billingInterval",
   s.next_period AS "nextPeriod", s.current_period_start AS "currentPeriodStart",
   s.current_period_end AS "currentPeriodEnd", s.next_billing_date AS "nextBillingDate",
   s.expires_at AS "expiresAt", s.cancelled_at AS "cancelledAt", s.paused_at AS "pausedAt",
   s.first_payment_due_by AS "firstPaymentDueBy", s.application_fee_bps AS "applicationFeeBps",
   s.created_at AS "createdAt", s.updated_at AS "updatedAt", EXISTS (SELECT 1 FROM invoices o WHERE o.subscription_id = s.id AND o.environment_id = s.environment_id
                        AND o.status = 'pending' AND o.due_date <= now()) AS overdue
        FROM subscriptions s
       WHERE s.environment_id = $1
         AND s.customer_id = (SELECT c.id FROM customers c
        WHERE c.organization_id = $2 AND c.external_user_id = $3)
       ORDER BY s.status IN ('trialing', 'active', 'paused', 'pending_cancellation') DESC, s.created_at DESC, s.id DESC
       LIMIT 1;

-- SubscriptionsRepository.list
SELECT s.id, s.organization_id AS "organizationId", s.environment_id AS "environmentId",
   s.customer_id AS "customerId", s.price_id AS "priceId", s.quantity,
   s.pending_price_id AS "pendingPriceId", s.pending_quantity AS "pendingQuantity", s.coupon_id AS "couponId",
   s.discount_periods_applied AS "discountPeriodsApplied", s.discount_ends_after AS "discountEndsAfter", s.status, s.trial_end AS "trialEnd",
   s.started_at AS "startedAt", s.billing_anchor AS "billingAnchor", s.billing_interval AS "billingInterval",
   s.next_period AS "nextPeriod", s.current_period_start AS "currentPeriodStart",
   s.current_period_end AS "currentPeriodEnd", s.next_billing_date AS "nextBillingDate",
   s.expires_at AS "expiresAt", s.cancelled_at AS "cancelledAt", s.paused_at AS "pausedAt",
   s.first_payment_due_by AS "firstPaymentDueBy", s.application_fee_bps AS "applicationFeeBps",
   s.created_at AS "createdAt", s.updated_at AS "updatedAt", EXISTS (SELECT 1 FROM invoices o WHERE o.subscription_id = s.id AND o.environment_id = s.environment_id
                        AND o.status = 'pending' AND o.due_date <= now()) AS overdue
          FROM (SELECT s.id FROM subscriptions s WHERE s.environment_id = $1 AND s.status = $2
                 ORDER BY s.created_at DESC, s.id DESC LIMIT $3 OFFSET $4) page
          JOIN subscriptions s ON s.id = page.id
         ORDER BY s.created_at DESC, s.id DESC;

-- SubscriptionsRepository.list
SELECT (SELECT count(*) FROM subscriptions s WHERE s.environment_id = $1 AND s.status = $2)::int AS total;

-- SubscriptionsRepository.lockForRenewal
SELECT s.id FROM subscriptions s WHERE s.id = $1 AND s.environment_id = $2 FOR UPDATE;

-- SubscriptionsRepository.lockForRenewal
SELECT s.id, s.organization_id AS "organizationId", s.environment_id AS "environmentId",
   s.customer_id AS "customerId", s.price_id AS "priceId", s.quantity,
   s.pending_price_id AS "pendingPriceId", s.pending_quantity AS "pendingQuantity", s.coupon_id AS "couponId",
   s.discount_periods_applied AS "discountPeriodsApplied", s.discount_ends_after AS "discountEndsAfter", s.status, s.trial_end AS "trialEnd",
   s.started_at AS "startedAt", s.billing_anchor AS "billingAnchor", s.billing_interval AS "billingInterval",
   s.next_period AS "nextPeriod", s.current_period_start AS "currentPeriodStart",
   s.current_period_end AS "currentPeriodEnd", s.next_billing_date AS "nextBillingDate",
   s.expires_at AS "expiresAt", s.cancelled_at AS "cancelledAt", s.paused_at AS "pausedAt",
   s.first_payment_due_by AS "firstPaymentDueBy", s.application_fee_bps AS "applicationFeeBps",
   s.created_at AS "createdAt", s.updated_at AS "updatedAt", p.amount AS "priceAmount", p.interval AS "priceInterval",
  pd.name AS "productName", c.phone AS "customerPhone", s.test_clock_id AS "testClockId", c.credit_balance AS "customerCredit",
  cp.percent_off AS "couponPercentOff", cp.amount_off AS "couponAmountOff",
  pp.amount AS "pendingPriceAmount", pp.interval AS "pendingPriceInterval", ppd.name AS "pendingProductName",
  (SELECT min(i.due_date) FROM invoices i WHERE i.subscription_id = s.id AND i.status = 'pending') AS "oldestUnpaidDue" FROM subscriptions s JOIN prices p ON p.id = s.price_id JOIN products pd ON pd.id = p.product_id
  JOIN customers c ON c.id = s.customer_id
  LEFT JOIN coupons cp ON cp.id = s.coupon_id
  LEFT JOIN prices pp ON pp.id = s.pending_price_id LEFT JOIN products ppd ON ppd.id = pp.product_id WHERE s.id = $1;

-- SubscriptionsRepository.dunningCandidates
SELECT s.id, o.due FROM (SELECT i.subscription_id, max(i.due_date) AS due FROM invoices i
     WHERE i.environment_id = $1 AND i.status = 'pending' AND i.due_date <= $2
       AND i.test_clock_id IS NULL
     GROUP BY i.subscription_id) o
        JOIN subscriptions s ON s.id = o.subscription_id
       WHERE s.status = ANY($3::text[]) AND (s.dunned_through IS NULL OR s.dunned_through < o.due)
       ORDER BY o.due LIMIT $4;

-- SubscriptionsRepository.markDunned
UPDATE subscriptions SET dunned_through = $1
       WHERE id = $2 AND environment_id = $3 AND status = ANY($4::text[])
         AND (dunned_through IS NULL OR dunned_through < $5);

-- SubscriptionsRepository.nextDueOnClock (prepared)
SELECT min(due_at) AS at FROM subscriptions
       WHERE test_clock_id = $1::uuid AND due_at IS NOT NULL AND due_at > $2;

-- SubscriptionsRepository.claimDue
WITH claimed AS (
        SELECT id, xmin FROM subscriptions
         WHERE due_at <= $1 AND test_clock_id IS NULL AND environment_id = $2
         ORDER BY due_at
         LIMIT $3
         FOR UPDATE SKIP LOCKED
      )
      SELECT s.id, s.organization_id AS "organizationId", s.environment_id AS "environmentId",
   s.customer_id AS "customerId", s.price_id AS "priceId", s.quantity,
   s.pending_price_id AS "pendingPriceId", s.pending_quantity AS "pendingQuantity", s.coupon_id AS "couponId",
   s.discount_periods_applied AS "discountPeriodsApplied", s.discount_ends_after AS "discountEndsAfter", s.status, s.trial_end AS "trialEnd",
   s.started_at AS "startedAt", s.billing_anchor AS "billingAnchor", s.billing_interval AS "billingInterval",
   s.next_period AS "nextPeriod", s.current_period_start AS "currentPeriodStart",
   s.current_period_end AS "currentPeriodEnd", s.next_billing_date AS "nextBillingDate",
   s.expires_at AS "expiresAt", s.cancelled_at AS "cancelledAt", s.paused_at AS "pausedAt",
   s.first_payment_due_by AS "firstPaymentDueBy", s.application_fee_bps AS "applicationFeeBps",
   s.created_at AS "createdAt", s.updated_at AS "updatedAt", p.amount AS "priceAmount", p.interval AS "priceInterval",
  pd.name AS "productName", c.phone AS "customerPhone", s.test_clock_id AS "testClockId", c.credit_balance AS "customerCredit",
  cp.percent_off AS "couponPercentOff", cp.amount_off AS "couponAmountOff",
  pp.amount AS "pendingPriceAmount", pp.interval AS "pendingPriceInterval", ppd.name AS "pendingProductName",
  (SELECT min(i.due_date) FROM invoices i WHERE i.subscription_id = s.id AND i.status = 'pending') AS "oldestUnpaidDue", s.xmin = claimed.xmin AS current
        FROM claimed JOIN subscriptions s ON s.id = claimed.id JOIN prices p ON p.id = s.price_id JOIN products pd ON pd.id = p.product_id
  JOIN customers c ON c.id = s.customer_id
  LEFT JOIN coupons cp ON cp.id = s.coupon_id
  LEFT JOIN prices pp ON pp.id = s.pending_price_id LEFT JOIN products ppd ON ppd.id = pp.product_id
       WHERE s.id = ANY(ARRAY(SELECT id FROM claimed));

-- SubscriptionsRepository.write
SELECT id FROM payment_requests WHERE id IN (SELECT i.payment_request_id FROM invoices i
              WHERE i.subscription_id = ANY($1::uuid[]) AND i.status = 'pending') AND status = 'pending' ORDER BY id FOR UPDATE;

-- SubscriptionsRepository.write
WITH new_invoices AS (
        SELECT * FROM (SELECT x.id, x.organization_id, x.environment_id, x.customer_id, x.subscription_id, x.amount, x.subtotal, x.discount, x.credit_applied, x.lines::jsonb AS lines, x.proration, x.status, x.period_start, x.period_end, x.due_date, x.payment_request_id, x.phone_number, x.application_fee, x.test_clock_id, x.created_at FROM ROWS FROM (unnest($1::uuid[]), unnest($2::uuid[]), unnest($3::uuid[]), unnest($4::uuid[]), unnest($5::uuid[]), unnest($6::integer[]), unnest($7::integer[]), unnest($8::integer[]), unnest($9::integer[]), json_array_elements($10::json), unnest($11::boolean[]), unnest($12::text[]), unnest($13::timestamptz[]), unnest($14::timestamptz[]), unnest($15::timestamptz[]), unnest($16::uuid[]), unnest($17::text[]), unnest($18::integer[]), unnest($19::uuid[]), unnest($20::timestamptz[])) AS x(id, organization_id, environment_id, customer_id, subscription_id, amount, subtotal, discount, credit_applied, lines, proration, status, period_start, period_end, due_date, payment_request_id, phone_number, application_fee, test_clock_id, created_at)) x
      ), invoices_created_new AS (
      SELECT n.*, row_number() OVER (PARTITION BY n.environment_id ORDER BY n.period_start, n.id) AS seq,
             count(*) OVER (PARTITION BY n.environment_id) AS in_environment
        FROM (SELECT s.*,
                     CASE WHEN s.proration
                          THEN (SELECT coalesce(max(i.proration_seq), 0) + 1 FROM invoices i
                                 WHERE i.subscription_id = s.subscription_id AND i.period_start = s.period_start)
                          ELSE 0 END AS proration_seq
                FROM new_invoices s) n
       WHERE NOT EXISTS (SELECT 1 FROM invoices i WHERE i.subscription_id = n.subscription_id
                            AND i.period_start = n.period_start AND i.proration_seq = n.proration_seq)
    ), invoices_created_counted AS (
      INSERT INTO invoice_counters AS k (environment_id, organization_id, last_number)
      SELECT environment_id, organization_id, count(*) FROM invoices_created_new GROUP BY environment_id, organization_id
      ON CONFLICT (environment_id) DO UPDATE SET last_number = k.last_number + excluded.last_number
      RETURNING k.environment_id, k.last_number, coalesce(k.prefix, (SELECT coalesce(nullif(translate(upper(left(regexp_replace(o.name, $21, '', 'g'), 4)),
                                               $22, $23), ''), 'INV')
                FROM environments e
  JOIN organizations o ON o.id = e.organization_id WHERE e.id = k.environment_id)) AS prefix
    ), invoices_created AS (
      INSERT INTO invoices (id, organization_id, environment_id, customer_id, subscription_id, amount, subtotal, discount,
                            credit_applied, lines, proration, proration_seq, status, paid_at, number_seq, number,
                            period_start, period_end, due_date, payment_request_id, test_clock_id, created_at, updated_at,
                            reminder_at)
      SELECT n.id, n.organization_id, n.environment_id, n.customer_id, n.subscription_id, n.amount, n.subtotal, n.discount,
             n.credit_applied, n.lines, n.proration, n.proration_seq, n.status, CASE WHEN n.status = 'paid' THEN n.created_at END,
             k.last_number - n.in_environment + n.seq,
             k.prefix || '-' || CASE WHEN (k.last_number - n.in_environment + n.seq) < 1000000 THEN lpad((k.last_number - n.in_environment + n.seq)::text, 6, '0') ELSE (k.last_number - n.in_environment + n.seq)::text END,
             n.period_start, n.period_end, n.due_date, n.payment_request_id, n.test_clock_id, n.created_at, n.created_at,
             CASE WHEN n.status = 'pending' THEN coalesce((SELECT n.due_date + make_interval(secs => 86400 * min(d.days))
                         FROM (SELECT coalesce(b.reminder_before_due_days, $24::int[]) AS "beforeDueDays",
                     coalesce(b.reminder_after_due_days, $25::int[]) AS "afterDueDays",
                     coalesce(b.sms_enabled, $26) AS "smsEnabled",
                     b.dunning_after_days_overdue AS "dunningAfterDaysOverdue",
                     coalesce(b.dunning_action, $27) AS "dunningAction",
                     coalesce(b.portal_allow_cancel, $28) AS "portalAllowCancel"
                FROM (SELECT 1) one LEFT JOIN billing_settings b ON b.environment_id = n.environment_id) s,
                              LATERAL (SELECT -before FROM unnest(s."beforeDueDays") before
                                       UNION ALL SELECT after FROM unnest(s."afterDueDays") after) d(days)),
                      '-infinity'::timestamptz) END
        FROM invoices_created_new n JOIN invoices_created_counted k ON k.environment_id = n.environment_id
      RETURNING id, customer_id, credit_applied, number
    )
      , requests_created AS (INSERT INTO payment_requests (id, environment_id, transaction_id, amount, phone_number, invoice_id, application_fee, test_clock_id, created_at, updated_at)
    SELECT id, environment_id, transaction_id, amount, phone_number, invoice_id, application_fee, test_clock_id, created_at, created_at FROM (
          SELECT n.payment_request_id AS id, n.environment_id, n.id::text AS transaction_id, n.amount, n.phone_number,
                 n.id AS invoice_id, n.application_fee, n.test_clock_id, n.created_at
            FROM new_invoices n JOIN invoices_created USING (id) WHERE n.payment_request_id IS NOT NULL) r
    RETURNING id
      ), new_events AS (
        SELECT * FROM (SELECT x.id, x.organization_id, x.environment_id, x.kind, x.data::jsonb AS data, x.created_at, x.invoice_id FROM ROWS FROM (unnest($29::uuid[]), unnest($30::uuid[]), unnest($31::uuid[]), unnest($32::text[]), json_array_elements($33::json), unnest($34::timestamptz[]), unnest($35::uuid[])) AS x(id, organization_id, environment_id, kind, data, created_at, invoice_id)) e
      ), events_created AS (INSERT INTO events (id, organization_id, environment_id, kind, data, created_at)
    SELECT id, organization_id, environment_id, kind, data, created_at FROM (
          SELECT e.id, e.organization_id, e.environment_id, e.kind, e.created_at,
                 CASE WHEN e.kind IN ('invoice-created', 'invoice-paid') THEN e.data || jsonb_build_object('number', ic.number)
                      ELSE e.data END AS data
            FROM new_events e LEFT JOIN invoices_created ic ON ic.id = e.invoice_id
           WHERE e.invoice_id IS NULL OR ic.id IS NOT NULL) e
      ), changes AS (
        SELECT * FROM (SELECT x.id, x.price_id, x.quantity, x.pending_price_id, x.pending_quantity, x.coupon_id, x.discount_periods_applied, x.discount_ends_after, x.status, x.billing_anchor, x.billing_interval, x.next_period, x.current_period_start, x.current_period_end, x.next_billing_date, x.cancelled_at, x.paused_at, x.first_payment_due_by, x.updated_at FROM ROWS FROM (unnest($36::uuid[]), unnest($37::uuid[]), unnest($38::integer[]), unnest($39::uuid[]), unnest($40::integer[]), unnest($41::uuid[]), unnest($42::integer[]), unnest($43::integer[]), unnest($44::text[]), unnest($45::timestamptz[]), unnest($46::text[]), unnest($47::integer[]), unnest($48::timestamptz[]), unnest($49::timestamptz[]), unnest($50::timestamptz[]), unnest($51::timestamptz[]), unnest($52::timestamptz[]), unnest($53::timestamptz[]), unnest($54::timestamptz[])) AS x(id, price_id, quantity, pending_price_id, pending_quantity, coupon_id, discount_periods_applied, discount_ends_after, status, billing_anchor, billing_interval, next_period, current_period_start, current_period_end, next_billing_date, cancelled_at, paused_at, first_payment_due_by, updated_at)) u
      ), updated AS (
        UPDATE subscriptions s
           SET price_id = u.price_id, quantity = u.quantity, pending_price_id = u.pending_price_id,
               pending_quantity = u.pending_quantity, coupon_id = u.coupon_id,
               discount_periods_applied = u.discount_periods_applied, discount_ends_after = u.discount_ends_after,
               status = u.status, billing_anchor = u.billing_anchor, billing_interval = u.billing_interval,
               next_period = u.next_period, current_period_start = u.current_period_start,
               current_period_end = u.current_period_end, next_billing_date = u.next_billing_date,
               cancelled_at = u.cancelled_at, paused_at = u.paused_at, first_payment_due_by = u.first_payment_due_by,
               updated_at = u.updated_at
          FROM changes u WHERE s.id = u.id AND s.id = ANY($55::uuid[])
        RETURNING s.id
      ), voided_locked AS (
      SELECT id FROM payment_requests WHERE id IN (SELECT i.payment_request_id FROM invoices i WHERE i.status = 'pending' AND i.subscription_id IN (SELECT unnest($56::uuid[]))
        AND NOT EXISTS (SELECT 1 FROM payments pay WHERE pay.payment_request_id = i.payment_request_id AND pay.status = 'pending')) AND status = 'pending' ORDER BY id FOR UPDATE
    ), voided AS (
      UPDATE invoices i SET status = 'void', voided_at = $57, updated_at = $58
       WHERE i.status = 'pending' AND i.payment_request_id IN (SELECT id FROM voided_locked)
      RETURNING i.*
    ), voided_requests AS (
      UPDATE payment_requests pr SET voided_at = $59, updated_at = $60
       WHERE pr.id IN (SELECT payment_request_id FROM voided) AND pr.status = 'pending'
    ), voided_event AS (INSERT INTO events (id, organization_id, environment_id, kind, data, created_at)
    SELECT gen_random_uuid(), i.organization_id, i.environment_id, $61, jsonb_build_object(
    'id', i.id, 'number', i.number, 'customerId', i.customer_id, 'subscriptionId', i.subscription_id, 'status', i.status,
    'amount', i.amount::text, 'subtotal', i.subtotal::numeric(12, 2)::text, 'discount', i.discount::numeric(12, 2)::text,
    'creditApplied', i.credit_applied::numeric(12, 2)::text, 'lines', i.lines, 'dueDate', to_char(i.due_date AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'paymentRequestId', i.payment_request_id,
    'checkoutUrl', $62::text || i.id,
    'amountPaid', CASE WHEN i.status IN ('paid', 'refunded') THEN i.amount ELSE i.amount_paid END::text,
    'amountDue', CASE WHEN i.status = 'pending' THEN i.amount - i.amount_paid ELSE 0 END::numeric(12, 2)::text,
    'manualPayments', (SELECT coalesce(jsonb_agg(jsonb_build_object('id', m.id, 'amount', m.amount, 'method', m.method,
             'reference', m.reference, 'paidAt', to_char(m.paid_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'createdAt', to_char(m.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
           ORDER BY m.created_at, m.id), '[]'::jsonb) FROM manual_payments m WHERE m.invoice_id = i.id),
    'periodStart', to_char(i.period_start AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
    'periodEnd', to_char(i.period_end AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'organizationId', i.organization_id, 'environmentId', i.environment_id,
    'createdAt', to_char(i.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')), $63
      FROM voided i), credits_adjusted AS (UPDATE customers c SET credit_balance = c.credit_balance + d.delta, updated_at = $64
      FROM (SELECT customer_id, sum(delta)::int AS delta
             FROM (SELECT customer_id, -credit_applied AS delta FROM invoices_created WHERE credit_applied > 0
                   UNION ALL SELECT k.customer_id, k.delta FROM (SELECT x.customer_id, x.delta FROM ROWS FROM (unnest($65::uuid[]), unnest($66::integer[])) AS x(customer_id, delta)) k) x
            GROUP BY customer_id) d WHERE c.id = d.customer_id AND d.delta <> 0
    RETURNING c.id)
      SELECT (SELECT count(*) FROM invoices_created)::int AS invoices, (SELECT count(*) FROM updated)::int AS subscriptions;

-- SubscriptionsRepository.writeStatement (prepared)
WITH new_invoices AS (
        SELECT * FROM (SELECT x.id, x.organization_id, x.environment_id, x.customer_id, x.subscription_id, x.amount, x.subtotal, x.discount, x.credit_applied, x.lines::jsonb AS lines, x.proration, x.status, x.period_start, x.period_end, x.due_date, x.payment_request_id, x.phone_number, x.application_fee, x.test_clock_id, x.created_at FROM ROWS FROM (unnest($1::uuid[]), unnest($2::uuid[]), unnest($3::uuid[]), unnest($4::uuid[]), unnest($5::uuid[]), unnest($6::integer[]), unnest($7::integer[]), unnest($8::integer[]), unnest($9::integer[]), json_array_elements($10::json), unnest($11::boolean[]), unnest($12::text[]), unnest($13::timestamptz[]), unnest($14::timestamptz[]), unnest($15::timestamptz[]), unnest($16::uuid[]), unnest($17::text[]), unnest($18::integer[]), unnest($19::uuid[]), unnest($20::timestamptz[])) AS x(id, organization_id, environment_id, customer_id, subscription_id, amount, subtotal, discount, credit_applied, lines, proration, status, period_start, period_end, due_date, payment_request_id, phone_number, application_fee, test_clock_id, created_at)) x
      ), invoices_created_new AS (
      SELECT n.*, row_number() OVER (PARTITION BY n.environment_id ORDER BY n.period_start, n.id) AS seq,
             count(*) OVER (PARTITION BY n.environment_id) AS in_environment
        FROM (SELECT s.*,
                     CASE WHEN s.proration
                          THEN (SELECT coalesce(max(i.proration_seq), 0) + 1 FROM invoices i
                                 WHERE i.subscription_id = s.subscription_id AND i.period_start = s.period_start)
                          ELSE 0 END AS proration_seq
                FROM new_invoices s) n
       WHERE NOT EXISTS (SELECT 1 FROM invoices i WHERE i.subscription_id = n.subscription_id
                            AND i.period_start = n.period_start AND i.proration_seq = n.proration_seq)
    ), invoices_created_counted AS (
      INSERT INTO invoice_counters AS k (environment_id, organization_id, last_number)
      SELECT environment_id, organization_id, count(*) FROM invoices_created_new GROUP BY environment_id, organization_id
      ON CONFLICT (environment_id) DO UPDATE SET last_number = k.last_number + excluded.last_number
      RETURNING k.environment_id, k.last_number, coalesce(k.prefix, (SELECT coalesce(nullif(translate(upper(left(regexp_replace(o.name, $21, '', 'g'), 4)),
                                               $22, $23), ''), 'INV')
                FROM environments e
  JOIN organizations o ON o.id = e.organization_id WHERE e.id = k.environment_id)) AS prefix
    ), invoices_created AS (
      INSERT INTO invoices (id, organization_id, environment_id, customer_id, subscription_id, amount, subtotal, discount,
                            credit_applied, lines, proration, proration_seq, status, paid_at, number_seq, number,
                            period_start, period_end, due_date, payment_request_id, test_clock_id, created_at, updated_at,
                            reminder_at)
      SELECT n.id, n.organization_id, n.environment_id, n.customer_id, n.subscription_id, n.amount, n.subtotal, n.discount,
             n.credit_applied, n.lines, n.proration, n.proration_seq, n.status, CASE WHEN n.status = 'paid' THEN n.created_at END,
             k.last_number - n.in_environment + n.seq,
             k.prefix || '-' || CASE WHEN (k.last_number - n.in_environment + n.seq) < 1000000 THEN lpad((k.last_number - n.in_environment + n.seq)::text, 6, '0') ELSE (k.last_number - n.in_environment + n.seq)::text END,
             n.period_start, n.period_end, n.due_date, n.payment_request_id, n.test_clock_id, n.created_at, n.created_at,
             CASE WHEN n.status = 'pending' THEN coalesce((SELECT n.due_date + make_interval(secs => 86400 * min(d.days))
                         FROM (SELECT coalesce(b.reminder_before_due_days, $24::int[]) AS "beforeDueDays",
                     coalesce(b.reminder_after_due_days, $25::int[]) AS "afterDueDays",
                     coalesce(b.sms_enabled, $26) AS "smsEnabled",
                     b.dunning_after_days_overdue AS "dunningAfterDaysOverdue",
                     coalesce(b.dunning_action, $27) AS "dunningAction",
                     coalesce(b.portal_allow_cancel, $28) AS "portalAllowCancel"
                FROM (SELECT 1) one LEFT JOIN billing_settings b ON b.environment_id = n.environment_id) s,
                              LATERAL (SELECT -before FROM unnest(s."beforeDueDays") before
                                       UNION ALL SELECT after FROM unnest(s."afterDueDays") after) d(days)),
                      '-infinity'::timestamptz) END
        FROM invoices_created_new n JOIN invoices_created_counted k ON k.environment_id = n.environment_id
      RETURNING id, customer_id, credit_applied, number
    )
      , requests_created AS (INSERT INTO payment_requests (id, environment_id, transaction_id, amount, phone_number, invoice_id, application_fee, test_clock_id, created_at, updated_at)
    SELECT id, environment_id, transaction_id, amount, phone_number, invoice_id, application_fee, test_clock_id, created_at, created_at FROM (
          SELECT n.payment_request_id AS id, n.environment_id, n.id::text AS transaction_id, n.amount, n.phone_number,
                 n.id AS invoice_id, n.application_fee, n.test_clock_id, n.created_at
            FROM new_invoices n JOIN invoices_created USING (id) WHERE n.payment_request_id IS NOT NULL) r
    RETURNING id
      ), new_events AS (
        SELECT * FROM (SELECT x.id, x.organization_id, x.environment_id, x.kind, x.data::jsonb AS data, x.created_at, x.invoice_id FROM ROWS FROM (unnest($29::uuid[]), unnest($30::uuid[]), unnest($31::uuid[]), unnest($32::text[]), json_array_elements($33::json), unnest($34::timestamptz[]), unnest($35::uuid[])) AS x(id, organization_id, environment_id, kind, data, created_at, invoice_id)) e
      ), events_created AS (INSERT INTO events (id, organization_id, environment_id, kind, data, created_at)
    SELECT id, organization_id, environment_id, kind, data, created_at FROM (
          SELECT e.id, e.organization_id, e.environment_id, e.kind, e.created_at,
                 CASE WHEN e.kind IN ('invoice-created', 'invoice-paid') THEN e.data || jsonb_build_object('number', ic.number)
                      ELSE e.data END AS data
            FROM new_events e LEFT JOIN invoices_created ic ON ic.id = e.invoice_id
           WHERE e.invoice_id IS NULL OR ic.id IS NOT NULL) e
      ), changes AS (
        SELECT * FROM (SELECT x.id, x.price_id, x.quantity, x.pending_price_id, x.pending_quantity, x.coupon_id, x.discount_periods_applied, x.discount_ends_after, x.status, x.billing_anchor, x.billing_interval, x.next_period, x.current_period_start, x.current_period_end, x.next_billing_date, x.cancelled_at, x.paused_at, x.first_payment_due_by, x.updated_at FROM ROWS FROM (unnest($36::uuid[]), unnest($37::uuid[]), unnest($38::integer[]), unnest($39::uuid[]), unnest($40::integer[]), unnest($41::uuid[]), unnest($42::integer[]), unnest($43::integer[]), unnest($44::text[]), unnest($45::timestamptz[]), unnest($46::text[]), unnest($47::integer[]), unnest($48::timestamptz[]), unnest($49::timestamptz[]), unnest($50::timestamptz[]), unnest($51::timestamptz[]), unnest($52::timestamptz[]), unnest($53::timestamptz[]), unnest($54::timestamptz[])) AS x(id, price_id, quantity, pending_price_id, pending_quantity, coupon_id, discount_periods_applied, discount_ends_after, status, billing_anchor, billing_interval, next_period, current_period_start, current_period_end, next_billing_date, cancelled_at, paused_at, first_payment_due_by, updated_at)) u
      ), updated AS (
        UPDATE subscriptions s
           SET price_id = u.price_id, quantity = u.quantity, pending_price_id = u.pending_price_id,
               pending_quantity = u.pending_quantity, coupon_id = u.coupon_id,
               discount_periods_applied = u.discount_periods_applied, discount_ends_after = u.discount_ends_after,
               status = u.status, billing_anchor = u.billing_anchor, billing_interval = u.billing_interval,
               next_period = u.next_period, current_period_start = u.current_period_start,
               current_period_end = u.current_period_end, next_billing_date = u.next_billing_date,
               cancelled_at = u.cancelled_at, paused_at = u.paused_at, first_payment_due_by = u.first_payment_due_by,
               updated_at = u.updated_at
          FROM changes u WHERE s.id = u.id AND s.id = ANY($55::uuid[])
        RETURNING s.id
      )$56, credits_adjusted AS (UPDATE customers c SET credit_balance = c.credit_balance + d.delta, updated_at = $57
      FROM (SELECT customer_id, sum(delta)::int AS delta
             FROM (SELECT customer_id, -credit_applied AS delta FROM invoices_created WHERE credit_applied > 0
                   UNION ALL SELECT k.customer_id, k.delta FROM (SELECT x.customer_id, x.delta FROM ROWS FROM (unnest($58::uuid[]), unnest($59::integer[])) AS x(customer_id, delta)) k) x
            GROUP BY customer_id) d WHERE c.id = d.customer_id AND d.delta <> 0
    RETURNING c.id)
      SELECT (SELECT count(*) FROM invoices_created)::int AS invoices, (SELECT count(*) FROM updated)::int AS subscriptions;

-- SubscriptionsRepository.search
SELECT s.id, s.organization_id AS "organizationId", s.environment_id AS "environmentId",
   s.customer_id AS "customerId", s.price_id AS "priceId", s.quantity,
   s.pending_price_id AS "pendingPriceId", s.pending_quantity AS "pendingQuantity", s.coupon_id AS "couponId",
   s.discount_periods_applied AS "discountPeriodsApplied", s.discount_ends_after AS "discountEndsAfter", s.status, s.trial_end AS "trialEnd",
   s.started_at AS "startedAt", s.billing_anchor AS "billingAnchor", s.billing_interval AS "billingInterval",
   s.next_period AS "nextPeriod", s.current_period_start AS "currentPeriodStart",
   s.current_period_end AS "currentPeriodEnd", s.next_billing_date AS "nextBillingDate",
   s.expires_at AS "expiresAt", s.cancelled_at AS "cancelledAt", s.paused_at AS "pausedAt",
   s.first_payment_due_by AS "firstPaymentDueBy", s.application_fee_bps AS "applicationFeeBps",
   s.created_at AS "createdAt", s.updated_at AS "updatedAt", EXISTS (SELECT 1 FROM invoices o WHERE o.subscription_id = s.id AND o.environment_id = s.environment_id
                        AND o.status = 'pending' AND o.due_date <= now()) AS overdue,
  c.external_user_id AS "customerExternalUserId", c.phone AS "customerPhone", p.id AS "productId",
  p.name AS "productName", p.active AS "productActive", pr.amount AS "priceAmount", pr.interval AS "priceInterval",
  pr.active AS "priceActive", to_char(s.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') || ',' || s.id AS cursor
        FROM (SELECT s.id FROM subscriptions s WHERE s.environment_id = $1 AND s.status = $2 AND s.customer_id = $3 AND (s.created_at, s.id) < ($4::timestamptz, $5::uuid)
               ORDER BY s.created_at DESC, s.id DESC LIMIT $6) page
        JOIN subscriptions s ON s.id = page.id JOIN customers c ON c.id = s.customer_id JOIN prices pr ON pr.id = s.price_id JOIN products p ON p.id = pr.product_id
       ORDER BY s.created_at DESC, s.id DESC;

-- SubscriptionsRepository.detail
SELECT s.id, s.organization_id AS "organizationId", s.environment_id AS "environmentId",
   s.customer_id AS "customerId", s.price_id AS "priceId", s.quantity,
   s.pending_price_id AS "pendingPriceId", s.pending_quantity AS "pendingQuantity", s.coupon_id AS "couponId",
   s.discount_periods_applied AS "discountPeriodsApplied", s.discount_ends_after AS "discountEndsAfter", s.status, s.trial_end AS "trialEnd",
   s.started_at AS "startedAt", s.billing_anchor AS "billingAnchor", s.billing_interval AS "billingInterval",
   s.next_period AS "nextPeriod", s.current_period_start AS "currentPeriodStart",
   s.current_period_end AS "currentPeriodEnd", s.next_billing_date AS "nextBillingDate",
   s.expires_at AS "expiresAt", s.cancelled_at AS "cancelledAt", s.paused_at AS "pausedAt",
   s.first_payment_due_by AS "firstPaymentDueBy", s.application_fee_bps AS "applicationFeeBps",
   s.created_at AS "createdAt", s.updated_at AS "updatedAt", EXISTS (SELECT 1 FROM invoices o WHERE o.subscription_id = s.id AND o.environment_id = s.environment_id
                        AND o.status = 'pending' AND o.due_date <= now()) AS overdue,
  c.external_user_id AS "customerExternalUserId", c.phone AS "customerPhone", p.id AS "productId",
  p.name AS "productName", p.active AS "productActive", pr.amount AS "priceAmount", pr.interval AS "priceInterval",
  pr.active AS "priceActive" FROM subscriptions s JOIN customers c ON c.id = s.customer_id JOIN prices pr ON pr.id = s.price_id JOIN products p ON p.id = pr.product_id
       WHERE s.id = $1 AND s.environment_id = $2;
