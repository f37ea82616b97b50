-- The SQL of src/payment-requests/ as sent to PostgreSQL. Written by `npm run queries`: do not edit.

-- PaymentRequestsRepository.insert (prepared)
WITH created AS (
        INSERT INTO payment_requests (id, environment_id, transaction_id, amount, phone_number, invoice_id, application_fee, payment_link_id, created_at, updated_at)
        VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
        ON CONFLICT (environment_id, transaction_id) DO NOTHING
        RETURNING id
      ), event AS (INSERT INTO events (id, organization_id, environment_id, kind, data, created_at)
    SELECT $11, $12, $13, $14, $15, $16
      FROM created)
      SELECT id FROM created;

-- PaymentRequestsRepository.insertKeyed (prepared)
WITH $1, created AS (
        INSERT INTO payment_requests (id, environment_id, transaction_id, amount, phone_number, invoice_id, application_fee, created_at, updated_at)
        SELECT $2, $3, $4, $5, $6, $7, $8::int, $9, $10
          $11
        ON CONFLICT (environment_id, transaction_id) DO NOTHING
        RETURNING id
      ), event AS (INSERT INTO events (id, organization_id, environment_id, kind, data, created_at)
    SELECT $12, $13, $14, $15, $16, $17
      FROM created), $18
      SELECT (SELECT id FROM created) AS id, $19;

-- PaymentRequestsRepository.byId
SELECT * FROM payment_requests WHERE id = $1 AND environment_id = $2;

-- PaymentRequestsRepository.byIdAnywhere
SELECT * FROM payment_requests WHERE id = $1;

-- PaymentRequestsRepository.byTransactionId (prepared)
SELECT id, environment_id, transaction_id, amount, phone_number, status, paid_at, invoice_id, voided_at, payment_count, application_fee, payment_link_id, test_clock_id, created_at, updated_at FROM payment_requests WHERE environment_id = $1 AND transaction_id = $2;

-- PaymentRequestsRepository.lock
SELECT id, status, voided_at IS NOT NULL AS voided, amount, application_fee AS "applicationFee",
                 payment_link_id AS "paymentLinkId"
          FROM payment_requests WHERE id = $1 AND environment_id = $2 FOR UPDATE;

-- PaymentRequestsRepository.setApplicationFee
UPDATE payment_requests SET application_fee = $1, updated_at = now()
       WHERE id = $2 AND environment_id = $3 AND status = 'pending'
      RETURNING *;

-- PaymentRequestsRepository.setApplicationFee
INSERT INTO events (id, organization_id, environment_id, kind, data, created_at)
    VALUES ($1, $2, $3, $4, $5, $6);

-- PaymentRequestsRepository.search
SELECT pr.*, to_char(pr.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') || ',' || pr.id AS cursor FROM payment_requests pr
    WHERE pr.environment_id = $1 AND pr.transaction_id = $2 AND pr.status = $3 AND pr.transaction_id = $4 AND pr.phone_number = $5 AND pr.created_at >= $6 AND pr.created_at < $7 AND pr.amount >= $8 AND pr.amount <= $9 AND pr.payment_link_id = $10 AND (pr.created_at, pr.id) < ($11::timestamptz, $12::uuid) ORDER BY pr.created_at DESC, pr.id DESC LIMIT $13;

-- PaymentRequestsRepository.list
SELECT * FROM payment_requests WHERE environment_id = $1 AND status = $2 AND payment_link_id = $3 ORDER BY created_at DESC, id DESC LIMIT $4 OFFSET $5;

-- PaymentRequestsRepository.list
SELECT count(*)::int AS total FROM payment_requests WHERE environment_id = $1 AND status = $2 AND payment_link_id = $3;

-- PaymentRequestsRepository.listAll
SELECT r.*, to_char(r.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') || ',' || r.id AS cursor FROM payment_requests r WHERE r.environment_id = $1 AND r.status = $2 AND r.payment_link_id = $3
       ORDER BY r.created_at DESC, r.id DESC LIMIT $4;

-- PaymentRequestsRepository.createdDays
SELECT to_char(day, 'YYYY-MM-DD') AS day, count FROM (
        SELECT date_trunc('day', created_at AT TIME ZONE 'UTC') AS day, count(*)::int AS count
          FROM payment_requests
         WHERE environment_id = $1 AND created_at >= $2
           AND created_at < COALESCE($3::timestamptz, 'infinity')
         GROUP BY 1) days;
