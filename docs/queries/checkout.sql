-- The SQL of src/checkout/ as sent to PostgreSQL. Written by `npm run queries`: do not edit.

-- CheckoutSessionsRepository.ofRequest
SELECT s.id, s.payment_request_id AS "paymentRequestId", s.environment_id AS "environmentId",
  s.status, s.success_url AS "successUrl", s.cancel_url AS "cancelUrl", s.expires_at AS "expiresAt",
  s.selected_configuration_id AS "selectedConfigurationId", s.completed_at AS "completedAt",
  s.created_at AS "createdAt", s.updated_at AS "updatedAt" FROM checkout_sessions s
       WHERE s.payment_request_id = $1 AND s.environment_id = $2
       ORDER BY s.created_at DESC, s.id DESC;

-- CheckoutSessionsRepository.inEnvironment
SELECT s.id, s.payment_request_id AS "paymentRequestId", s.environment_id AS "environmentId",
  s.status, s.success_url AS "successUrl", s.cancel_url AS "cancelUrl", s.expires_at AS "expiresAt",
  s.selected_configuration_id AS "selectedConfigurationId", s.completed_at AS "completedAt",
  s.created_at AS "createdAt", s.updated_at AS "updatedAt" FROM checkout_sessions s WHERE s.id = $1 AND s.environment_id = $2;

-- CheckoutSessionsRepository.openOf
SELECT s.id, s.payment_request_id AS "paymentRequestId", s.environment_id AS "environmentId",
  s.status, s.success_url AS "successUrl", s.cancel_url AS "cancelUrl", s.expires_at AS "expiresAt",
  s.selected_configuration_id AS "selectedConfigurationId", s.completed_at AS "completedAt",
  s.created_at AS "createdAt", s.updated_at AS "updatedAt", s.expires_at <= now() AS due, NOT NOT EXISTS (SELECT 1 FROM payments pay WHERE pay.payment_request_id = s.payment_request_id AND pay.status = 'pending') AS paying
        FROM checkout_sessions s WHERE s.payment_request_id = $1 AND s.status = 'open';

-- CheckoutSessionsRepository.insert
INSERT INTO checkout_sessions AS s (id, payment_request_id, environment_id, success_url, cancel_url, expires_at,
                                          selected_configuration_id)
      VALUES ($1, $2, $3, $4, $5,
              now() + make_interval(mins => $6), $7)
      RETURNING s.id, s.payment_request_id AS "paymentRequestId", s.environment_id AS "environmentId",
  s.status, s.success_url AS "successUrl", s.cancel_url AS "cancelUrl", s.expires_at AS "expiresAt",
  s.selected_configuration_id AS "selectedConfigurationId", s.completed_at AS "completedAt",
  s.created_at AS "createdAt", s.updated_at AS "updatedAt";

-- CheckoutSessionsRepository.forPage
SELECT s.id, s.status, s.payment_request_id AS "paymentRequestId", s.environment_id AS "environmentId",
             e.kind AS environment, e.organization_id AS "organizationId", pr.transaction_id AS "transactionId",
             pr.amount, pr.phone_number AS "phoneNumber", pr.payment_link_id AS "paymentLinkId",
             o.name AS "merchantName", s.success_url AS "successUrl",
             o.verification_status AS verification, o.support_phone AS "merchantPhone", o.website AS "merchantWebsite",
             s.cancel_url AS "cancelUrl", s.expires_at AS "expiresAt",
             s.selected_configuration_id AS "selectedConfigurationId", s.completed_at AS "completedAt",
             s.created_at AS "createdAt", s.updated_at AS "updatedAt",
             (SELECT pay.status FROM payments pay WHERE pay.payment_request_id = s.payment_request_id
               ORDER BY pay.created_at DESC, pay.id DESC LIMIT 1) AS "paymentStatus"
        FROM checkout_sessions s
        JOIN payment_requests pr ON pr.id = s.payment_request_id
        JOIN (environments e
  JOIN organizations o ON o.id = e.organization_id) ON e.id = s.environment_id
       WHERE s.id = $1;

-- CheckoutSessionsRepository.lockRequestOf
SELECT id FROM payment_requests WHERE id IN (SELECT s.payment_request_id FROM checkout_sessions s WHERE s.id = $1) FOR UPDATE;

-- CheckoutSessionsRepository.lockForPayment
SELECT s.status, s.expires_at <= now() AS due FROM checkout_sessions s
       WHERE s.id = $1 AND s.payment_request_id = $2 FOR UPDATE;

-- CheckoutSessionsRepository.selectMethod
UPDATE checkout_sessions SET selected_configuration_id = $1, updated_at = now() WHERE id = $2;

-- CheckoutSessionsRepository.expireWhere
WITH expired AS (
        UPDATE checkout_sessions s SET status = 'expired', updated_at = now()
         WHERE s.status = 'open' AND $1
        RETURNING s.*
      ), event AS (INSERT INTO events (id, organization_id, environment_id, kind, data, created_at)
    SELECT gen_random_uuid(), (SELECT organization_id FROM environments WHERE id = s.environment_id), s.environment_id, $2, jsonb_build_object(
  'id', s.id, 'paymentRequestId', s.payment_request_id, 'status', s.status,
  'successUrl', s.success_url, 'cancelUrl', s.cancel_url, 'expiresAt', to_char(s.expires_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
  'environmentId', s.environment_id, 'selectedConfigurationId', s.selected_configuration_id,
  'completedAt', to_char(s.completed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'createdAt', to_char(s.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'updatedAt', to_char(s.updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')), now()
      FROM expired s),
      link_requests AS (UPDATE payment_requests pr SET voided_at = now(), updated_at = now()
       WHERE pr.id IN (SELECT payment_request_id FROM expired) AND pr.payment_link_id IS NOT NULL AND pr.status = 'pending' AND pr.voided_at IS NULL
      RETURNING pr.id)
      SELECT s.id, s.payment_request_id AS "paymentRequestId", s.environment_id AS "environmentId",
  s.status, s.success_url AS "successUrl", s.cancel_url AS "cancelUrl", s.expires_at AS "expiresAt",
  s.selected_configuration_id AS "selectedConfigurationId", s.completed_at AS "completedAt",
  s.created_at AS "createdAt", s.updated_at AS "updatedAt" FROM expired s;

-- CheckoutSessionsRepository.expire
WITH expired AS (
        UPDATE checkout_sessions s SET status = 'expired', updated_at = now()
         WHERE s.status = 'open' AND s.id = $1
        RETURNING s.*
      ), event AS (INSERT INTO events (id, organization_id, environment_id, kind, data, created_at)
    SELECT gen_random_uuid(), (SELECT organization_id FROM environments WHERE id = s.environment_id), s.environment_id, $2, jsonb_build_object(
  'id', s.id, 'paymentRequestId', s.payment_request_id, 'status', s.status,
  'successUrl', s.success_url, 'cancelUrl', s.cancel_url, 'expiresAt', to_char(s.expires_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
  'environmentId', s.environment_id, 'selectedConfigurationId', s.selected_configuration_id,
  'completedAt', to_char(s.completed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'createdAt', to_char(s.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'updatedAt', to_char(s.updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')), now()
      FROM expired s),
      link_requests AS (UPDATE payment_requests pr SET voided_at = now(), updated_at = now()
       WHERE pr.id IN (SELECT payment_request_id FROM expired) AND pr.payment_link_id IS NOT NULL AND pr.status = 'pending' AND pr.voided_at IS NULL
      RETURNING pr.id)
      SELECT s.id, s.payment_request_id AS "paymentRequestId", s.environment_id AS "environmentId",
  s.status, s.success_url AS "successUrl", s.cancel_url AS "cancelUrl", s.expires_at AS "expiresAt",
  s.selected_configuration_id AS "selectedConfigurationId", s.completed_at AS "completedAt",
  s.created_at AS "createdAt", s.updated_at AS "updatedAt" FROM expired s;

-- CheckoutSessionsRepository.expireIfDue
WITH expired AS (
        UPDATE checkout_sessions s SET status = 'expired', updated_at = now()
         WHERE s.status = 'open' AND s.id = $1 AND s.expires_at <= now() AND NOT EXISTS (SELECT 1 FROM payments pay WHERE pay.payment_request_id = s.payment_request_id AND pay.status = 'pending')
        RETURNING s.*
      ), event AS (INSERT INTO events (id, organization_id, environment_id, kind, data, created_at)
    SELECT gen_random_uuid(), (SELECT organization_id FROM environments WHERE id = s.environment_id), s.environment_id, $2, jsonb_build_object(
  'id', s.id, 'paymentRequestId', s.payment_request_id, 'status', s.status,
  'successUrl', s.success_url, 'cancelUrl', s.cancel_url, 'expiresAt', to_char(s.expires_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
  'environmentId', s.environment_id, 'selectedConfigurationId', s.selected_configuration_id,
  'completedAt', to_char(s.completed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'createdAt', to_char(s.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'updatedAt', to_char(s.updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')), now()
      FROM expired s),
      link_requests AS (UPDATE payment_requests pr SET voided_at = now(), updated_at = now()
       WHERE pr.id IN (SELECT payment_request_id FROM expired) AND pr.payment_link_id IS NOT NULL AND pr.status = 'pending' AND pr.voided_at IS NULL
      RETURNING pr.id)
      SELECT s.id, s.payment_request_id AS "paymentRequestId", s.environment_id AS "environmentId",
  s.status, s.success_url AS "successUrl", s.cancel_url AS "cancelUrl", s.expires_at AS "expiresAt",
  s.selected_configuration_id AS "selectedConfigurationId", s.completed_at AS "completedAt",
  s.created_at AS "createdAt", s.updated_at AS "updatedAt" FROM expired s;

-- CheckoutSessionsRepository.claimDueRequests
SELECT id FROM payment_requests WHERE id IN (SELECT s.payment_request_id FROM checkout_sessions s
                           WHERE s.status = 'open' AND s.expires_at <= now() AND NOT EXISTS (SELECT 1 FROM payments pay WHERE pay.payment_request_id = s.payment_request_id AND pay.status = 'pending')
                           ORDER BY s.expires_at LIMIT $1) FOR UPDATE SKIP LOCKED;

-- CheckoutSessionsRepository.expireDueOf
WITH expired AS (
        UPDATE checkout_sessions s SET status = 'expired', updated_at = now()
         WHERE s.status = 'open' AND s.payment_request_id = ANY($1::uuid[]) AND s.expires_at <= now() AND NOT EXISTS (SELECT 1 FROM payments pay WHERE pay.payment_request_id = s.payment_request_id AND pay.status = 'pending')
        RETURNING s.*
      ), event AS (INSERT INTO events (id, organization_id, environment_id, kind, data, created_at)
    SELECT gen_random_uuid(), (SELECT organization_id FROM environments WHERE id = s.environment_id), s.environment_id, $2, jsonb_build_object(
  'id', s.id, 'paymentRequestId', s.payment_request_id, 'status', s.status,
  'successUrl', s.success_url, 'cancelUrl', s.cancel_url, 'expiresAt', to_char(s.expires_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
  'environmentId', s.environment_id, 'selectedConfigurationId', s.selected_configuration_id,
  'completedAt', to_char(s.completed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'createdAt', to_char(s.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'updatedAt', to_char(s.updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')), now()
      FROM expired s),
      link_requests AS (UPDATE payment_requests pr SET voided_at = now(), updated_at = now()
       WHERE pr.id IN (SELECT payment_request_id FROM expired) AND pr.payment_link_id IS NOT NULL AND pr.status = 'pending' AND pr.voided_at IS NULL
      RETURNING pr.id)
      SELECT s.id, s.payment_request_id AS "paymentRequestId", s.environment_id AS "environmentId",
  s.status, s.success_url AS "successUrl", s.cancel_url AS "cancelUrl", s.expires_at AS "expiresAt",
  s.selected_configuration_id AS "selectedConfigurationId", s.completed_at AS "completedAt",
  s.created_at AS "createdAt", s.updated_at AS "updatedAt" FROM expired s;

-- CheckoutSessionsRepository.cancelOpen
WITH cancelled AS (
        UPDATE checkout_sessions SET status = 'cancelled', updated_at = now() WHERE id = $1 AND status = 'open'
        RETURNING payment_request_id
      ), link_requests AS (UPDATE payment_requests pr SET voided_at = now(), updated_at = now()
       WHERE pr.id IN (SELECT payment_request_id FROM cancelled) AND pr.payment_link_id IS NOT NULL AND pr.status = 'pending' AND pr.voided_at IS NULL
      RETURNING pr.id)
      SELECT count(*)::int AS cancelled FROM cancelled;

-- CheckoutSessionsRepository.completeOpenSession
WITH request AS (SELECT $1::uuid AS id), checkout_completed AS (
      UPDATE checkout_sessions s
         SET status = 'completed', completed_at = $2, updated_at = $3,
             selected_configuration_id = COALESCE($4::uuid, s.selected_configuration_id)
       WHERE s.payment_request_id IN (SELECT id FROM request) AND s.status = 'open'
      RETURNING s.*
    ), checkout_completed_event AS (INSERT INTO events (id, organization_id, environment_id, kind, data, created_at)
    SELECT gen_random_uuid(), (SELECT organization_id FROM environments WHERE id = s.environment_id), s.environment_id, $5, jsonb_build_object(
  'id', s.id, 'paymentRequestId', s.payment_request_id, 'status', s.status,
  'successUrl', s.success_url, 'cancelUrl', s.cancel_url, 'expiresAt', to_char(s.expires_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
  'environmentId', s.environment_id, 'selectedConfigurationId', s.selected_configuration_id,
  'completedAt', to_char(s.completed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'createdAt', to_char(s.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'updatedAt', to_char(s.updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')), $6
      FROM checkout_completed s)
      SELECT s.id, s.payment_request_id AS "paymentRequestId", s.environment_id AS "environmentId",
  s.status, s.success_url AS "successUrl", s.cancel_url AS "cancelUrl", s.expires_at AS "expiresAt",
  s.selected_configuration_id AS "selectedConfigurationId", s.completed_at AS "completedAt",
  s.created_at AS "createdAt", s.updated_at AS "updatedAt" FROM checkout_completed s;
