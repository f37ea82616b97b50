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
