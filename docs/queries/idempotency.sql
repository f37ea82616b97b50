-- The SQL of src/idempotency/ as sent to PostgreSQL. Written by `npm run queries`: do not edit.

-- IdempotencyRepository.claim
SELECT pg_try_advisory_xact_lock($1::bigint) AS locked, (SELECT json_build_object('requestHash', encode(k.request_hash, 'hex'), 'status', k.status, 'body', k.body,
                        'paymentId', k.payment_id, 'extra', NULL) FROM idempotency_keys k WHERE k.id = $2) AS record;

-- IdempotencyRepository.find
SELECT (SELECT json_build_object('requestHash', encode(k.request_hash, 'hex'), 'status', k.status, 'body', k.body,
                        'paymentId', k.payment_id, 'extra', NULL) FROM idempotency_keys k WHERE k.id = $1) AS record;

-- IdempotencyRepository.insert
INSERT INTO idempotency_keys (id, environment_id, checkout_session_id, request_hash, status, body)
      VALUES ($1, $2, $3, $4, $5, $6);

-- IdempotencyRepository.deleteExpired
DELETE FROM idempotency_keys WHERE id IN (
        SELECT id FROM idempotency_keys
         WHERE created_at < now() - $1::bigint * interval '1 millisecond'
         ORDER BY created_at
         LIMIT $2
         FOR UPDATE SKIP LOCKED);
