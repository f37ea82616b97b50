-- The SQL of src/webhooks/ as sent to PostgreSQL. Written by `npm run queries`: do not edit.

-- WebhooksRepository.insertEndpoint
SELECT pg_advisory_xact_lock($1::int, hashtext($2::text));

-- WebhooksRepository.insertEndpoint
INSERT INTO webhook_endpoints (id, organization_id, environment_id, url, events, enabled, connected, secret, created_at, updated_at)
        SELECT $1, $2, $3, $4, $5, $6, $7, $8,
               $9, $10
         WHERE (SELECT count(*) FROM webhook_endpoints WHERE environment_id = $11) < $12;

-- WebhooksRepository.endpoints
SELECT id, organization_id AS "organizationId", environment_id AS "environmentId", url, events,
  enabled, connected, disabled_reason AS "disabledReason", created_at AS "createdAt", updated_at AS "updatedAt" FROM webhook_endpoints WHERE environment_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2 OFFSET $3;

-- WebhooksRepository.endpoints
SELECT count(*)::int AS total FROM webhook_endpoints WHERE environment_id = $1;

-- WebhooksRepository.allEndpoints
SELECT id, organization_id AS "organizationId", environment_id AS "environmentId", url, events,
  enabled, connected, disabled_reason AS "disabledReason", created_at AS "createdAt", updated_at AS "updatedAt" FROM webhook_endpoints WHERE environment_id = $1
       ORDER BY created_at DESC, id DESC LIMIT $2;

-- WebhooksRepository.endpoint
SELECT id, organization_id AS "organizationId", environment_id AS "environmentId", url, events,
  enabled, connected, disabled_reason AS "disabledReason", created_at AS "createdAt", updated_at AS "updatedAt" FROM webhook_endpoints WHERE id = $1 AND environment_id = $2;

-- WebhooksRepository.updateEndpoint
UPDATE webhook_endpoints SET updated_at = now(), url = $1, events = $2, enabled = $3, disabled_reason = $4 WHERE id = $5 AND environment_id = $6
      RETURNING id, organization_id AS "organizationId", environment_id AS "environmentId", url, events,
  enabled, connected, disabled_reason AS "disabledReason", created_at AS "createdAt", updated_at AS "updatedAt";

-- WebhooksRepository.deleteEndpoint
DELETE FROM webhook_endpoints WHERE id = $1 AND environment_id = $2 RETURNING id, organization_id AS "organizationId", environment_id AS "environmentId", url, events,
  enabled, connected, disabled_reason AS "disabledReason", created_at AS "createdAt", updated_at AS "updatedAt";

-- WebhooksRepository.rotateSecret
UPDATE webhook_endpoints
         SET previous_secret = secret, previous_secret_expires_at = now() + $1 * interval '1 millisecond',
             secret = $2, updated_at = now()
       WHERE id = $3 AND environment_id = $4
      RETURNING id, organization_id AS "organizationId", environment_id AS "environmentId", url, events,
  enabled, connected, disabled_reason AS "disabledReason", created_at AS "createdAt", updated_at AS "updatedAt";

-- WebhooksRepository.insertEventFor
INSERT INTO events (id, organization_id, environment_id, kind, data, created_at, endpoint_id)
    VALUES ($1, $2, $3, $4, $5,
            $6, $7);

-- WebhooksRepository.insertEventFor
SELECT id, event_id AS "eventId", endpoint_id AS "endpointId", environment_id AS "environmentId",
  event, status, attempts, retry_index AS "retryIndex", next_attempt_at AS "nextAttemptAt",
  last_status_code AS "lastStatusCode", last_error AS "lastError", last_response_snippet AS "lastResponseSnippet",
  created_at AS "createdAt", updated_at AS "updatedAt" FROM webhook_deliveries WHERE event_id = $1 AND endpoint_id = $2;

-- WebhooksRepository.deliveries
SELECT id, event_id AS "eventId", endpoint_id AS "endpointId", environment_id AS "environmentId",
  event, status, attempts, retry_index AS "retryIndex", next_attempt_at AS "nextAttemptAt",
  last_status_code AS "lastStatusCode", last_error AS "lastError", last_response_snippet AS "lastResponseSnippet",
  created_at AS "createdAt", updated_at AS "updatedAt" FROM webhook_deliveries WHERE environment_id = $1 AND endpoint_id = $2 AND event = $3 AND status = $4 ORDER BY created_at DESC, id DESC LIMIT $5 OFFSET $6;

-- WebhooksRepository.deliveries
SELECT count(*)::int AS total FROM webhook_deliveries WHERE environment_id = $1 AND endpoint_id = $2 AND event = $3 AND status = $4;

-- WebhooksRepository.delivery
SELECT id, event_id AS "eventId", endpoint_id AS "endpointId", environment_id AS "environmentId",
  event, status, attempts, retry_index AS "retryIndex", next_attempt_at AS "nextAttemptAt",
  last_status_code AS "lastStatusCode", last_error AS "lastError", last_response_snippet AS "lastResponseSnippet",
  created_at AS "createdAt", updated_at AS "updatedAt" FROM webhook_deliveries WHERE id = $1 AND environment_id = $2;

-- WebhooksRepository.attempts
SELECT id, delivery_id AS "deliveryId", status_code AS "statusCode", duration_ms AS "durationMs", error,
             response_snippet AS "responseSnippet", created_at AS "createdAt"
        FROM webhook_attempts WHERE delivery_id = $1 ORDER BY created_at, id;

-- WebhooksRepository.searchDeliveries
SELECT d.id, d.event_id AS "eventId", d.endpoint_id AS "endpointId", d.environment_id AS "environmentId",
  d.event, d.status, d.attempts, d.retry_index AS "retryIndex", d.next_attempt_at AS "nextAttemptAt",
  d.last_status_code AS "lastStatusCode", d.last_error AS "lastError", d.last_response_snippet AS "lastResponseSnippet",
  d.created_at AS "createdAt", d.updated_at AS "updatedAt", e.url AS "endpointUrl", to_char(d.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') || ',' || d.id AS cursor
        FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id
       WHERE d.environment_id = $1 AND d.endpoint_id = $2 AND d.event = $3 AND d.status = $4 AND (d.created_at, d.id) < ($5::timestamptz, $6::uuid) ORDER BY d.created_at DESC, d.id DESC LIMIT $7;

-- WebhooksRepository.deliveriesConcerning
SELECT d.id, d.event_id AS "eventId", d.endpoint_id AS "endpointId", d.environment_id AS "environmentId",
  d.event, d.status, d.attempts, d.retry_index AS "retryIndex", d.next_attempt_at AS "nextAttemptAt",
  d.last_status_code AS "lastStatusCode", d.last_error AS "lastError", d.last_response_snippet AS "lastResponseSnippet",
  d.created_at AS "createdAt", d.updated_at AS "updatedAt", e.url AS "endpointUrl"
        FROM events ev
        JOIN webhook_deliveries d ON d.event_id = ev.id
        JOIN webhook_endpoints e ON e.id = d.endpoint_id
       WHERE ev.environment_id = $1
         AND COALESCE(ev.data->>'paymentRequestId', ev.data->>'id') = $2
       ORDER BY d.created_at DESC, d.id DESC
       LIMIT $3;

-- WebhooksRepository.deliveryWithEvent
SELECT d.id, d.event_id AS "eventId", d.endpoint_id AS "endpointId", d.environment_id AS "environmentId",
  d.event, d.status, d.attempts, d.retry_index AS "retryIndex", d.next_attempt_at AS "nextAttemptAt",
  d.last_status_code AS "lastStatusCode", d.last_error AS "lastError", d.last_response_snippet AS "lastResponseSnippet",
  d.created_at AS "createdAt", d.updated_at AS "updatedAt", e.url AS "endpointUrl", ev.data AS "eventData", ev.created_at AS "eventCreatedAt"
        FROM webhook_deliveries d
        JOIN webhook_endpoints e ON e.id = d.endpoint_id
        JOIN events ev ON ev.id = d.event_id
       WHERE d.id = $1 AND d.environment_id = $2;

-- WebhooksRepository.replay
WITH kept AS (
        SELECT ev.id FROM webhook_deliveries d JOIN events ev ON ev.id = d.event_id
         WHERE d.id = $1 AND d.environment_id = $2
           AND ev.created_at >= now() - $3 * interval '1 day'
           FOR KEY SHARE OF ev
      )
      UPDATE webhook_deliveries
         SET status = 'pending', next_attempt_at = now(), retry_index = 0, updated_at = now()
       WHERE id = $4 AND environment_id = $5 AND event_id IN (SELECT id FROM kept)
      RETURNING id, event_id AS "eventId", endpoint_id AS "endpointId", environment_id AS "environmentId",
  event, status, attempts, retry_index AS "retryIndex", next_attempt_at AS "nextAttemptAt",
  last_status_code AS "lastStatusCode", last_error AS "lastError", last_response_snippet AS "lastResponseSnippet",
  created_at AS "createdAt", updated_at AS "updatedAt";

-- WebhooksRepository.countPendingDeliveries
SELECT count(*)::int AS count FROM webhook_deliveries WHERE status = 'pending';

-- WebhooksRepository.notifyWorkers
SELECT pg_notify($1, '');

-- WebhooksRepository.claim
WITH RECURSIVE with_work AS (
        (SELECT endpoint_id FROM webhook_deliveries WHERE status = 'pending' ORDER BY endpoint_id LIMIT 1)
        UNION ALL
        SELECT (SELECT d.endpoint_id FROM webhook_deliveries d
                 WHERE d.status = 'pending' AND d.endpoint_id > w.endpoint_id ORDER BY d.endpoint_id LIMIT 1)
          FROM with_work w WHERE w.endpoint_id IS NOT NULL
      ), open AS (
        SELECT e.id, e.organization_id
          FROM webhook_endpoints e JOIN with_work w ON w.endpoint_id = e.id
         WHERE e.enabled
           AND EXISTS (SELECT 1 FROM webhook_deliveries d
                        WHERE d.endpoint_id = e.id AND d.status = 'pending' AND d.next_attempt_at <= now()
                          AND (d.locked_until IS NULL OR d.locked_until < now()))
           AND pg_try_advisory_xact_lock($1::int, hashtext(e.organization_id::text))
           FOR NO KEY UPDATE OF e SKIP LOCKED
      ), leases AS (
        -- Every endpoint of those organizations, with its leases, and whether it is held to the small cap.
        SELECT e.id, e.organization_id, l.leased,
               NOT (e.id = ANY($2::uuid[]) AND l.hanging = 0) AS slow
          FROM webhook_endpoints e CROSS JOIN LATERAL (
            SELECT count(*)::int AS leased,
                   -- Another worker's, leased more than slowMs ago (the lease ends leaseMs after it was taken).
                   count(*) FILTER (WHERE l.locked_by <> $3
                                      AND l.locked_until < now() + $4::int * interval '1 millisecond')::int AS hanging
              -- Oldest first, so that the hanging ones are among those counted.
              FROM (SELECT l.locked_by, l.locked_until FROM webhook_deliveries l
                     WHERE l.endpoint_id = e.id AND l.locked_until > now()
                     ORDER BY l.locked_until LIMIT $5::int) l
          ) l
         WHERE e.organization_id IN (SELECT organization_id FROM open)
      ), organization_slots AS (
        SELECT organization_id, $6::int - COALESCE(sum(leased) FILTER (WHERE slow), 0)::int AS free
          FROM leases GROUP BY organization_id
      ), slots AS (
        SELECT o.id, o.organization_id, l.slow,
               CASE WHEN l.slow THEN $7::int ELSE $8::int END - l.leased AS free
          FROM open o JOIN leases l ON l.id = o.id
      ), candidates AS (
        SELECT c.id, s.organization_id, s.slow, c.next_attempt_at,
               row_number() OVER (PARTITION BY s.id ORDER BY c.next_attempt_at) AS endpoint_turn
          FROM slots s CROSS JOIN LATERAL (
            SELECT d.id, d.next_attempt_at FROM webhook_deliveries d
             WHERE d.endpoint_id = s.id AND d.status = 'pending' AND d.next_attempt_at <= now()
               AND (d.locked_until IS NULL OR d.locked_until < now())
             ORDER BY d.next_attempt_at
             LIMIT GREATEST(s.free, 0)
          ) c
      ), ranked AS (
        SELECT c.id, c.endpoint_turn, c.next_attempt_at,
               row_number() OVER (PARTITION BY c.organization_id ORDER BY c.endpoint_turn, c.next_attempt_at) AS organization_turn
          FROM (
            SELECT c.*, g.free AS organization_free,
                   row_number() OVER (PARTITION BY c.organization_id, c.slow ORDER BY c.endpoint_turn, c.next_attempt_at) AS slow_turn
              FROM candidates c JOIN organization_slots g ON g.organization_id = c.organization_id
          ) c
         -- An organization's endpoints held to the small cap share its free slots, each one's first in turn.
         WHERE NOT c.slow OR c.slow_turn <= c.organization_free
      ), due AS (
        SELECT d.id
          FROM webhook_deliveries d JOIN ranked r ON r.id = d.id
         -- Checked again on the row as locked: another worker may have claimed it since this statement began.
         WHERE d.status = 'pending' AND (d.locked_until IS NULL OR d.locked_until < now())
         ORDER BY r.organization_turn, r.endpoint_turn, r.next_attempt_at
         LIMIT $9
         FOR UPDATE OF d SKIP LOCKED
      ), claimed AS (
        UPDATE webhook_deliveries d
           SET locked_until = now() + $10 * interval '1 millisecond', locked_by = $11
          FROM due WHERE d.id = due.id
        RETURNING d.id, d.event_id, d.endpoint_id, d.retry_index
      )
      SELECT c.id, c.endpoint_id, e.organization_id, c.retry_index, ev.id AS event_id, ev.kind, ev.data, ev.created_at,
             e.url, e.secret,
             CASE WHEN e.previous_secret_expires_at > now() THEN e.previous_secret END AS previous_secret,
             -- A connected account's event delivered to its platform's endpoint names the account.
             CASE WHEN ev.organization_id <> e.organization_id THEN ev.organization_id END AS account,
             (SELECT kind FROM environments WHERE id = e.environment_id) AS environment
        FROM claimed c
        JOIN events ev ON ev.id = c.event_id
        JOIN webhook_endpoints e ON e.id = c.endpoint_id;

-- WebhooksRepository.writeOutcomes
WITH input AS (
        SELECT * FROM unnest($1::uuid[], $2::text[], $3::int[], $4::bigint[],
                             $5::int[], $6::text[], $7::text[], $8::int[],
                             $9::timestamptz[], $10::bool[], $11::uuid[])
          AS t(id, status, retry_index, delay, status_code, error, snippet, duration_ms, started_at, gone, endpoint_id)
      ), d AS (
        UPDATE webhook_deliveries w
           SET status = i.status, attempts = w.attempts + 1, retry_index = i.retry_index,
               next_attempt_at = now() + i.delay * interval '1 millisecond',
               last_status_code = i.status_code, last_error = i.error, last_response_snippet = i.snippet,
               locked_until = NULL, locked_by = NULL, updated_at = now()
          FROM input i
         WHERE w.id = i.id AND w.locked_by = $12
        RETURNING w.id
      ), logged AS (
        INSERT INTO webhook_attempts (delivery_id, status_code, duration_ms, error, response_snippet, created_at)
        SELECT i.id, i.status_code, i.duration_ms, i.error, i.snippet, i.started_at FROM input i JOIN d ON d.id = i.id
      ), disabled AS (
        UPDATE webhook_endpoints SET enabled = false, disabled_reason = 'The receiver answered 410 Gone', updated_at = now()
         WHERE id IN (SELECT i.endpoint_id FROM input i JOIN d ON d.id = i.id WHERE i.gone)
      )
      SELECT id FROM d;

-- WebhooksRepository.claimExpiredEvents
SELECT e.id FROM events e
       WHERE e.created_at < now() - $1 * interval '1 day' AND e.environment_id = $2
         AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = e.id AND d.status = 'pending')
       ORDER BY e.created_at
       LIMIT $3
         FOR UPDATE OF e SKIP LOCKED;

-- WebhooksRepository.deleteEvents
WITH doomed AS (
        SELECT e.id FROM events e
         WHERE e.id = ANY($1::uuid[])
           AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = e.id AND d.status = 'pending')
      ), deliveries AS (
        SELECT d.id FROM webhook_deliveries d WHERE d.event_id IN (SELECT id FROM doomed)
      ), attempts_deleted AS (
        DELETE FROM webhook_attempts WHERE delivery_id IN (SELECT id FROM deliveries)
      ), deliveries_deleted AS (
        DELETE FROM webhook_deliveries WHERE id IN (SELECT id FROM deliveries)
      ), events_deleted AS (
        DELETE FROM events WHERE id IN (SELECT id FROM doomed) RETURNING id
      )
      SELECT count(*)::int AS deleted FROM events_deleted;
