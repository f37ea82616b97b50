-- The SQL of src/payment-links/ as sent to PostgreSQL. Written by `npm run queries`: do not edit.

-- PaymentLinksRepository.insert
INSERT INTO payment_links (id, environment_id, code, name, description, amount, min_amount, max_amount,
                                 max_payments, expires_at, success_message, language, created_at, updated_at)
      VALUES ($1, $2, $3, $4, $5, $6, $7,
              $8, $9, $10, $11, $12, $13, $14)
      ON CONFLICT (code) DO NOTHING;

-- PaymentLinksRepository.byId
SELECT l.id, l.environment_id AS "environmentId", l.code, l.name, l.description,
  l.amount, l.min_amount AS "minAmount", l.max_amount AS "maxAmount", l.max_payments AS "maxPayments",
  l.expires_at AS "expiresAt", l.success_message AS "successMessage", l.language, l.active,
  l.created_at AS "createdAt", l.updated_at AS "updatedAt", (SELECT json_build_object('count', count(*)::int, 'amount', COALESCE(sum(amount), 0)::bigint)
      FROM payment_requests WHERE payment_link_id = l.id AND status = 'paid') AS totals FROM payment_links l WHERE l.id = $1 AND l.environment_id = $2;

-- PaymentLinksRepository.list
SELECT l.id, l.environment_id AS "environmentId", l.code, l.name, l.description,
  l.amount, l.min_amount AS "minAmount", l.max_amount AS "maxAmount", l.max_payments AS "maxPayments",
  l.expires_at AS "expiresAt", l.success_message AS "successMessage", l.language, l.active,
  l.created_at AS "createdAt", l.updated_at AS "updatedAt", (SELECT json_build_object('count', count(*)::int, 'amount', COALESCE(sum(amount), 0)::bigint)
      FROM payment_requests WHERE payment_link_id = l.id AND status = 'paid') AS totals FROM payment_links l WHERE l.environment_id = $1 AND l.active = $2 ORDER BY l.created_at DESC, l.id DESC LIMIT $3 OFFSET $4;

-- PaymentLinksRepository.list
SELECT count(*)::int AS total FROM payment_links l WHERE l.environment_id = $1 AND l.active = $2;

-- PaymentLinksRepository.search
SELECT l.id, l.environment_id AS "environmentId", l.code, l.name, l.description,
  l.amount, l.min_amount AS "minAmount", l.max_amount AS "maxAmount", l.max_payments AS "maxPayments",
  l.expires_at AS "expiresAt", l.success_message AS "successMessage", l.language, l.active,
  l.created_at AS "createdAt", l.updated_at AS "updatedAt", (SELECT json_build_object('count', count(*)::int, 'amount', COALESCE(sum(amount), 0)::bigint)
      FROM payment_requests WHERE payment_link_id = l.id AND status = 'paid') AS totals, to_char(l.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') || ',' || l.id AS cursor FROM payment_links l
       WHERE l.environment_id = $1 AND (l.created_at, l.id) < ($2::timestamptz, $3::uuid)
       ORDER BY l.created_at DESC, l.id DESC LIMIT $4;

-- PaymentLinksRepository.update
UPDATE payment_links l SET updated_at = now(), name = $1, description = $2, active = $3, max_payments = $4, expires_at = $5, success_message = $6
       WHERE l.id = $7 AND l.environment_id = $8
      RETURNING l.id, l.environment_id AS "environmentId", l.code, l.name, l.description,
  l.amount, l.min_amount AS "minAmount", l.max_amount AS "maxAmount", l.max_payments AS "maxPayments",
  l.expires_at AS "expiresAt", l.success_message AS "successMessage", l.language, l.active,
  l.created_at AS "createdAt", l.updated_at AS "updatedAt", (SELECT json_build_object('count', count(*)::int, 'amount', COALESCE(sum(amount), 0)::bigint)
      FROM payment_requests WHERE payment_link_id = l.id AND status = 'paid') AS totals;

-- PaymentLinksRepository.forPage
SELECT l.id, l.environment_id AS "environmentId", l.code, l.name, l.description,
  l.amount, l.min_amount AS "minAmount", l.max_amount AS "maxAmount", l.max_payments AS "maxPayments",
  l.expires_at AS "expiresAt", l.success_message AS "successMessage", l.language, l.active,
  l.created_at AS "createdAt", l.updated_at AS "updatedAt", (SELECT json_build_object('count', count(*)::int, 'amount', COALESCE(sum(amount), 0)::bigint)
      FROM payment_requests WHERE payment_link_id = l.id AND status = 'paid') AS totals, e.kind AS environment, e.organization_id AS "organizationId",
             o.verification_status AS verification, o.name AS "merchantName",
             o.support_phone AS "merchantPhone", o.website AS "merchantWebsite",
             CASE WHEN l.max_payments IS NOT NULL THEN (SELECT json_build_object('paid', count(*) FILTER (WHERE status = 'paid'), 'taken', count(*))
      FROM payment_requests WHERE payment_link_id = l.id AND voided_at IS NULL) END AS places
        FROM payment_links l
        JOIN (environments e
  JOIN organizations o ON o.id = e.organization_id) ON e.id = l.environment_id
       WHERE l.code = $1;

-- PaymentLinksRepository.lockForPayment
UPDATE payment_links SET requests_started = requests_started + 1
       WHERE id = $1
      RETURNING requests_started AS n, active, expires_at AS "expiresAt", max_payments AS "maxPayments";

-- PaymentLinksRepository.placesOf
SELECT (SELECT json_build_object('paid', count(*) FILTER (WHERE status = 'paid'), 'taken', count(*))
      FROM payment_requests WHERE payment_link_id = $1::uuid AND voided_at IS NULL) AS places;
