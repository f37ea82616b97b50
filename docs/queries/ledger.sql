-- The SQL of src/ledger/ as sent to PostgreSQL. Written by `npm run queries`: do not edit.

-- LedgerRepository.balance
WITH today AS (SELECT (now() AT TIME ZONE 'UTC')::date AS day),
      days AS (
        SELECT COALESCE(sum(d.net) FILTER (WHERE d.day < today.day), 0) AS before_today, COALESCE(sum(d.net), 0) AS total
          FROM today LEFT JOIN balance_days d ON d.environment_id = $1
          GROUP BY today.day
      ), today_available AS (
        SELECT COALESCE(sum(t.net), 0) AS net FROM balance_transactions t, today
         WHERE t.environment_id = $2
           AND t.available_on >= today.day::timestamp AT TIME ZONE 'UTC' AND t.available_on <= now()
      )
      SELECT (days.before_today + today_available.net)::float8 AS available,
             (days.total - days.before_today - today_available.net)::float8 AS pending
        FROM days, today_available;

-- LedgerRepository.list
SELECT t.id, t.type, t.amount::float8 AS amount, t.fee::float8 AS fee, t.net::float8 AS net,
  t.source_id AS "sourceId", t.payment_id AS "paymentId", t.available_on AS "availableOn", t.payout_id AS "payoutId",
  t.environment_id AS "environmentId", t.organization_id AS "organizationId", t.created_at AS "createdAt" FROM balance_transactions t WHERE t.environment_id = $1 AND t.type = $2 AND t.payout_id = $3 ORDER BY t.created_at DESC, t.id DESC LIMIT $4 OFFSET $5;

-- LedgerRepository.list
SELECT count(*)::int AS total FROM balance_transactions t WHERE t.environment_id = $1 AND t.type = $2 AND t.payout_id = $3;

-- LedgerRepository.ofSource
SELECT t.id, t.type, t.amount::float8 AS amount, t.fee::float8 AS fee, t.net::float8 AS net,
  t.source_id AS "sourceId", t.payment_id AS "paymentId", t.available_on AS "availableOn", t.payout_id AS "payoutId",
  t.environment_id AS "environmentId", t.organization_id AS "organizationId", t.created_at AS "createdAt" FROM balance_transactions t
       WHERE t.source_id = $1 AND t.environment_id = $2
       ORDER BY t.created_at, t.id;

-- LedgerRepository.insert
INSERT INTO balance_transactions (id, type, amount, fee, net, source_id, payment_id, available_on, payout_id,
                                        environment_id, organization_id, created_at)
      VALUES ($1, $2, $3, $4, $5, $6, $7,
              $8, $9, $10, $11, $12)
      ON CONFLICT (source_id, type) DO NOTHING;

-- LedgerRepository.availableForPayout
WITH at AS (SELECT statement_timestamp() AS t, (statement_timestamp() AT TIME ZONE 'UTC')::date AS day),
      days AS (
        SELECT COALESCE(sum(d.net), 0) AS net FROM balance_days d, at
         WHERE d.environment_id = $1 AND d.day < at.day
      ), today AS (
        SELECT COALESCE(sum(t.net), 0) AS net FROM balance_transactions t, at
         WHERE t.environment_id = $2
           AND t.available_on >= at.day::timestamp AT TIME ZONE 'UTC' AND t.available_on <= at.t
      )
      SELECT (days.net + today.net)::float8 AS available, at.t::text AS at FROM days, today, at;

-- LedgerRepository.recordPayout
WITH debit AS (
        INSERT INTO balance_transactions (id, type, amount, fee, net, source_id, available_on, payout_id,
                                          environment_id, organization_id, created_at)
        VALUES (gen_random_uuid(), 'payout', $1, 0, $2, $3,
                statement_timestamp(), $4, $5, $6, now())
        RETURNING id)
      UPDATE balance_transactions SET payout_id = $7
       WHERE $8::timestamptz IS NOT NULL AND environment_id = $9
         AND payout_id IS NULL AND available_on <= $10::timestamptz;

-- LedgerRepository.recordPayoutFailure
WITH credit AS (
        INSERT INTO balance_transactions (id, type, amount, fee, net, source_id, available_on, payout_id,
                                          environment_id, organization_id, created_at)
        VALUES (gen_random_uuid(), 'payout_failure', $1, 0, $2, $3,
                statement_timestamp(), $4, $5, $6, now())
        RETURNING id)
      UPDATE balance_transactions SET payout_id = NULL
       WHERE payout_id = $7 AND environment_id = $8
         AND type NOT IN ('payout', 'payout_failure');

-- LedgerRepository.listAll
SELECT t.id, t.type, t.amount::float8 AS amount, t.fee::float8 AS fee, t.net::float8 AS net,
  t.source_id AS "sourceId", t.payment_id AS "paymentId", t.available_on AS "availableOn", t.payout_id AS "payoutId",
  t.environment_id AS "environmentId", t.organization_id AS "organizationId", t.created_at AS "createdAt", to_char(t.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') || ',' || t.id AS cursor FROM balance_transactions t WHERE t.environment_id = $1 AND t.type = $2 AND t.payout_id = $3
       ORDER BY t.created_at DESC, t.id DESC LIMIT $4;

-- LedgerRepository.check
WITH completed AS (SELECT * FROM (SELECT id, environment_id, amount, refunded_amount, payment_request_id FROM payments
  WHERE status = 'completed') c),
      payment_tx AS (SELECT * FROM balance_transactions WHERE type = 'payment'),
      refund_tx AS (SELECT source_id, sum(amount) FILTER (WHERE type = 'refund') AS debit,
                           count(*) FILTER (WHERE type = 'refund') AS debits,
                           count(*) FILTER (WHERE type = 'refund_failure') AS credits,
                           sum(amount) FILTER (WHERE type = 'refund_failure') AS credit
                      FROM balance_transactions WHERE type IN ('refund', 'refund_failure') GROUP BY source_id),
      fee_tx AS (SELECT source_id, count(*) FILTER (WHERE type = 'application_fee') AS debits,
                        sum(amount) FILTER (WHERE type = 'application_fee') AS debit,
                        count(*) FILTER (WHERE type = 'application_fee_received') AS credits,
                        sum(amount) FILTER (WHERE type = 'application_fee_received') AS credit
                   FROM balance_transactions WHERE type IN ('application_fee', 'application_fee_received')
                  GROUP BY source_id),
      payout_tx AS (SELECT source_id, type, amount, environment_id, payout_id, available_on
                      FROM balance_transactions WHERE type IN ('payout', 'payout_failure')),
      payout_linked AS (SELECT payout_id, count(*) AS n, sum(net) AS net,
                               count(DISTINCT environment_id) AS environments,
                               min(environment_id::text)::uuid AS environment_id, max(available_on) AS latest
                          FROM balance_transactions
                         WHERE payout_id IS NOT NULL AND type NOT IN ('payout', 'payout_failure')
                         GROUP BY payout_id),
      totals AS (
        SELECT COALESCE(t.environment_id, d.environment_id) AS environment_id, COALESCE(t.n, 0) AS transactions,
               COALESCE(t.net, 0) AS net, COALESCE(d.net, 0) AS balance
          FROM (SELECT environment_id, count(*) AS n, sum(net) AS net FROM balance_transactions GROUP BY environment_id) t
          FULL JOIN (SELECT environment_id, sum(net) AS net FROM balance_days GROUP BY environment_id) d
            ON d.environment_id = t.environment_id
      ),
      problems AS (
        SELECT c.environment_id, 'payment_without_transaction' AS kind, c.id, 'a completed payment has no payment transaction' AS detail
          FROM completed c WHERE NOT EXISTS (SELECT 1 FROM payment_tx t WHERE t.source_id = c.id)
        UNION ALL
        SELECT t.environment_id, 'payment_transaction_differs', t.source_id,
               'amount ' || t.amount || ' for a payment of ' || c.amount
          FROM payment_tx t JOIN completed c ON c.id = t.source_id
         WHERE t.amount <> c.amount OR t.environment_id <> c.environment_id
        UNION ALL
        SELECT t.environment_id, 'transaction_without_completed_payment', t.source_id,
               'a payment transaction of a payment that is not completed'
          FROM payment_tx t WHERE NOT EXISTS (SELECT 1 FROM completed c WHERE c.id = t.source_id)
        UNION ALL
        SELECT r.environment_id, 'refund_transactions_differ', r.id,
               'refund of ' || r.amount || ' (' || r.status || '): debited ' || COALESCE(x.debit, 0) || ' in ' ||
               COALESCE(x.debits, 0) || ', credited back ' || COALESCE(x.credit, 0) || ' in ' || COALESCE(x.credits, 0)
          FROM refunds r LEFT JOIN refund_tx x ON x.source_id = r.id
         WHERE COALESCE(x.debits, 0) <> 1 OR x.debit <> -r.amount
            OR COALESCE(x.credits, 0) <> (CASE WHEN r.status = 'failed' THEN 1 ELSE 0 END)
            OR (r.status = 'failed' AND x.credit <> r.amount)
        UNION ALL
        SELECT c.environment_id, 'refunded_amount_differs', c.id,
               'refundedAmount ' || c.refunded_amount || ', refunds pending or succeeded ' || COALESCE(r.total, 0)
          FROM completed c
          LEFT JOIN (SELECT payment_id, sum(amount) AS total FROM refunds WHERE status <> 'failed' GROUP BY payment_id) r
            ON r.payment_id = c.id
         WHERE c.refunded_amount <> COALESCE(r.total, 0)
        UNION ALL
        SELECT c.environment_id, 'application_fee_differs', c.id,
               'application fee ' || COALESCE(f.fee, 0) || ': debited ' || COALESCE(x.debit, 0) || ' in ' ||
               COALESCE(x.debits, 0) || ', received ' || COALESCE(x.credit, 0) || ' in ' || COALESCE(x.credits, 0)
          FROM completed c
         CROSS JOIN LATERAL (SELECT (SELECT application_fee FROM payment_requests WHERE id = c.payment_request_id) AS fee) f
          LEFT JOIN fee_tx x ON x.source_id = c.id
         WHERE CASE WHEN COALESCE(f.fee, 0) = 0 THEN x.source_id IS NOT NULL
                    WHEN x.source_id IS NULL
                      THEN EXISTS (SELECT 1 FROM (SELECT pe.id AS environment_id, pe.organization_id FROM environments ae
      JOIN organizations ao ON ao.id = ae.organization_id
      JOIN environments pe ON pe.organization_id = ao.platform_id AND pe.kind = ae.kind
     WHERE ae.id = c.environment_id) p)
                    ELSE x.debits <> 1 OR x.credits <> 1 OR x.debit <> -f.fee OR x.credit <> f.fee END
        UNION ALL
        SELECT t.environment_id, 'application_fee_without_completed_payment', t.source_id,
               'an application fee transaction of a payment that is not completed'
          FROM balance_transactions t
         WHERE t.type IN ('application_fee', 'application_fee_received')
           AND NOT EXISTS (SELECT 1 FROM completed c WHERE c.id = t.source_id)
        UNION ALL
        SELECT environment_id, 'balance_differs', NULL, 'balance ' || balance || ', transactions ' || net
          FROM totals WHERE balance <> net
        UNION ALL 
    SELECT p.environment_id, 'payout_transactions_differ', p.id,
           'payout of ' || p.amount || ' (' || p.status || '): debited ' || COALESCE(x.debit, 0) || ' in ' ||
           COALESCE(x.debits, 0) || ', credited back ' || COALESCE(x.credit, 0) || ' in ' || COALESCE(x.credits, 0)
      FROM payouts p
      LEFT JOIN (SELECT source_id, count(*) FILTER (WHERE type = 'payout') AS debits,
                        sum(amount) FILTER (WHERE type = 'payout') AS debit,
                        count(*) FILTER (WHERE type = 'payout_failure') AS credits,
                        sum(amount) FILTER (WHERE type = 'payout_failure') AS credit,
                        count(DISTINCT environment_id) AS environments,
                        min(environment_id::text)::uuid AS environment_id,
                        count(*) FILTER (WHERE payout_id IS DISTINCT FROM source_id) AS unlinked
                   FROM payout_tx GROUP BY source_id) x ON x.source_id = p.id
     WHERE COALESCE(x.debits, 0) <> 1 OR x.debit <> -p.amount
        OR x.environments <> 1 OR x.environment_id <> p.environment_id OR x.unlinked <> 0
        OR COALESCE(x.credits, 0) <> (CASE WHEN p.status = 'failed' THEN 1 ELSE 0 END)
        OR (p.status = 'failed' AND x.credit <> p.amount)
    UNION ALL
    SELECT t.environment_id, 'payout_transaction_without_payout', t.source_id,
           'a ' || t.type || ' transaction of ' || t.amount || ' whose payout does not exist'
      FROM payout_tx t WHERE NOT EXISTS (SELECT 1 FROM payouts p WHERE p.id = t.source_id)
    UNION ALL
    SELECT COALESCE(p.environment_id, l.environment_id), 'payout_links_differ', l.payout_id,
           CASE WHEN p.id IS NULL THEN l.n || ' transactions linked to a payout that does not exist'
                ELSE l.n || ' transactions of net ' || l.net || ' linked to a payout of ' || p.amount ||
                     ' (' || p.status || ')' END
      FROM payout_linked l
      LEFT JOIN payouts p ON p.id = l.payout_id
      LEFT JOIN payout_tx d ON d.source_id = l.payout_id AND d.type = 'payout'
     WHERE p.id IS NULL OR l.environments <> 1 OR l.environment_id <> p.environment_id
        OR p.status = 'failed' OR l.latest > d.available_on
      )
      SELECT (SELECT json_agg(json_build_object('environmentId', environment_id, 'kind', kind, 'id', id, 'detail', detail))
                FROM problems) AS problems,
             (SELECT json_agg(json_build_object('environmentId', environment_id, 'transactions', transactions,
                                                'net', net, 'balance', balance) ORDER BY environment_id)
                FROM totals) AS totals;

-- RefundsRepository.insert
WITH created AS (
        INSERT INTO refunds (id, environment_id, organization_id, payment_id, payment_request_id, amount, status,
                             reason, next_check_at, created_at, updated_at)
        VALUES ($1, $2, $3, $4,
                $5, $6, 'pending', $7, $8,
                $9, $10)
        RETURNING id
      ), debit AS (
        INSERT INTO balance_transactions (id, type, amount, fee, net, source_id, payment_id, available_on,
                                          environment_id, organization_id, created_at)
        SELECT gen_random_uuid(), 'refund', $11::int, 0, $12::int, id, $13,
               $14, $15, $16, $17
          FROM created
      ), event AS (INSERT INTO events (id, organization_id, environment_id, kind, data, created_at)
    SELECT $18, $19, $20, $21, $22, $23
      FROM created)
      SELECT 1;

-- RefundsRepository.settle
WITH settled AS (
        UPDATE refunds SET status = $1, failure_reason = $2,
               bank_reference = $3, updated_at = $4
         WHERE id = $5 AND status = 'pending'
        RETURNING id, amount, payment_id, environment_id, organization_id
      ), credit AS (
        INSERT INTO balance_transactions (id, type, amount, fee, net, source_id, payment_id, available_on,
                                          environment_id, organization_id, created_at)
        SELECT gen_random_uuid(), 'refund_failure', amount, 0, amount, id, payment_id, $6, environment_id,
               organization_id, $7
          FROM settled WHERE $8::boolean
      ), event AS (INSERT INTO events (id, organization_id, environment_id, kind, data, created_at)
    SELECT $9, $10, $11, $12, $13, $14
      FROM settled)
      SELECT count(*)::int AS n FROM settled;

-- RefundsRepository.find
SELECT r.id, r.environment_id AS "environmentId", r.organization_id AS "organizationId",
  r.payment_id AS "paymentId", r.payment_request_id AS "paymentRequestId",
  (SELECT transaction_id FROM payment_requests WHERE id = r.payment_request_id) AS "transactionId", r.amount, r.status, r.reason,
  r.failure_reason AS "failureReason", r.created_at AS "createdAt", r.updated_at AS "updatedAt" FROM refunds r WHERE r.id = $1 AND r.environment_id = $2;

-- RefundsRepository.findById
SELECT r.id, r.environment_id AS "environmentId", r.organization_id AS "organizationId",
  r.payment_id AS "paymentId", r.payment_request_id AS "paymentRequestId",
  (SELECT transaction_id FROM payment_requests WHERE id = r.payment_request_id) AS "transactionId", r.amount, r.status, r.reason,
  r.failure_reason AS "failureReason", r.created_at AS "createdAt", r.updated_at AS "updatedAt" FROM refunds r WHERE r.id = $1;

-- RefundsRepository.list
SELECT r.id, r.environment_id AS "environmentId", r.organization_id AS "organizationId",
  r.payment_id AS "paymentId", r.payment_request_id AS "paymentRequestId",
  (SELECT transaction_id FROM payment_requests WHERE id = r.payment_request_id) AS "transactionId", r.amount, r.status, r.reason,
  r.failure_reason AS "failureReason", r.created_at AS "createdAt", r.updated_at AS "updatedAt" FROM refunds r WHERE r.environment_id = $1 AND r.payment_id = $2 AND r.status = $3 ORDER BY r.created_at DESC, r.id DESC LIMIT $4 OFFSET $5;

-- RefundsRepository.list
SELECT count(*)::int AS total FROM refunds r WHERE r.environment_id = $1 AND r.payment_id = $2 AND r.status = $3;

-- RefundsRepository.listAll
SELECT r.id, r.environment_id AS "environmentId", r.organization_id AS "organizationId",
  r.payment_id AS "paymentId", r.payment_request_id AS "paymentRequestId",
  (SELECT transaction_id FROM payment_requests WHERE id = r.payment_request_id) AS "transactionId", r.amount, r.status, r.reason,
  r.failure_reason AS "failureReason", r.created_at AS "createdAt", r.updated_at AS "updatedAt", to_char(r.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') || ',' || r.id AS cursor FROM refunds r WHERE r.environment_id = $1 AND r.payment_id = $2 AND r.status = $3
       ORDER BY r.created_at DESC, r.id DESC LIMIT $4;

-- RefundsRepository.succeededTotal
SELECT COALESCE(sum(amount), 0)::float8 AS total FROM refunds WHERE payment_id = $1 AND status = 'succeeded';

-- RefundsRepository.claimPending
WITH due AS (
        SELECT id FROM refunds
         WHERE status = 'pending' AND next_check_at <= now() AND created_at <= now() - $1::int * interval '1 millisecond'
         ORDER BY next_check_at
         LIMIT $2
         FOR UPDATE SKIP LOCKED
      )
      UPDATE refunds r SET next_check_at = now() + $3::int * interval '1 millisecond'
        FROM due WHERE r.id = due.id
      RETURNING r.id;

-- SettlementReportRepository.days
SELECT to_char((t.created_at AT TIME ZONE 'UTC')::date, 'YYYY-MM-DD') AS date, m.method AS "paymentMethod",
             count(*) FILTER (WHERE t.type = 'payment')::int AS payments,
             COALESCE(sum(t.amount) FILTER (WHERE t.type = 'payment'), 0)::float8 AS gross,
             COALESCE(sum(t.fee) FILTER (WHERE t.type = 'payment'), 0)::float8 AS fees,
             COALESCE(-sum(t.amount) FILTER (WHERE t.type IN ('refund', 'refund_failure')), 0)::float8 AS refunds
        FROM balance_transactions t
       CROSS JOIN LATERAL (SELECT pm.type AS method, pay.status FROM payments pay
      JOIN payment_methods pm ON pm.id = pay.payment_method_id WHERE pay.id = t.payment_id) m
       WHERE t.environment_id = $1 AND t.created_at >= $2 AND t.created_at < $3
         AND t.type IN ('payment', 'refund', 'refund_failure')
       GROUP BY 1, 2
       ORDER BY 1, 2;
