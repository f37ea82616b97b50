-- The SQL of src/payouts/ as sent to PostgreSQL. Written by `npm run queries`: do not edit.

-- PayoutsRepository.insertSchedule
INSERT INTO payout_schedules (environment_id, organization_id)
      VALUES ($1, $2) ON CONFLICT DO NOTHING;

-- PayoutsRepository.schedule
SELECT s.environment_id AS "environmentId", s.interval, s.weekly_day AS "weeklyDay",
  s.minimum_amount::float8 AS "minimumAmount", s.updated_at AS "updatedAt" FROM payout_schedules s WHERE s.environment_id = $1;

-- PayoutsRepository.updateSchedule
WITH changed AS (
        UPDATE payout_schedules
           SET interval = COALESCE($1::text, interval),
               weekly_day = CASE WHEN COALESCE($2::text, interval) = 'weekly'
                                 THEN COALESCE($3::text, weekly_day, 'monday') END,
               minimum_amount = COALESCE($4::bigint, minimum_amount),
               updated_at = now()
         WHERE environment_id = $5
        RETURNING *)
      SELECT s.environment_id AS "environmentId", s.interval, s.weekly_day AS "weeklyDay",
  s.minimum_amount::float8 AS "minimumAmount", s.updated_at AS "updatedAt" FROM changed s;

-- PayoutsRepository.lockEnvironment
SELECT 1 FROM payout_schedules WHERE environment_id = $1 FOR UPDATE;

-- PayoutsRepository.claimDue
UPDATE payout_schedules s SET last_paid_on = $1::date
        FROM (SELECT environment_id FROM payout_schedules
               WHERE interval <> 'manual' AND environment_id = $2
               ORDER BY last_paid_on NULLS FIRST, environment_id
               LIMIT $3 FOR UPDATE SKIP LOCKED) claimed
       WHERE s.environment_id = claimed.environment_id
      RETURNING s.environment_id AS "environmentId", s.organization_id AS "organizationId",
                s.minimum_amount::float8 AS "minimumAmount";

-- PayoutsRepository.insert
WITH created AS (
        INSERT INTO payouts (id, environment_id, organization_id, amount, status, automatic, bank, holder_name,
                             iban, next_attempt_at)
        VALUES ($1, $2, $3, $4, 'pending', $5, $6,
                $7, $8, COALESCE($9::timestamptz, now()))
        RETURNING *),
      event AS (INSERT INTO events (id, organization_id, environment_id, kind, data, created_at)
    SELECT gen_random_uuid(), p.organization_id, p.environment_id, $10, jsonb_build_object(
    'id', p.id, 'amount', p.amount, 'status', p.status,
    'destination', jsonb_build_object('bank', p.bank, 'holderName', p.holder_name,
                                      'ibanLast4', right(p.iban, 4)),
    'failureReason', p.failure_reason, 'bankReference', p.bank_reference,
    'arrivedAt', to_char(p.arrived_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'environmentId', p.environment_id,
    'createdAt', to_char(p.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'updatedAt', to_char(p.updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')), p.updated_at
      FROM created p)
      SELECT p.id, p.environment_id AS "environmentId", p.organization_id AS "organizationId",
     p.amount::float8 AS amount, p.status, p.automatic, p.bank, p.holder_name AS "holderName",
     p.iban, p.failure_reason AS "failureReason", p.bank_reference AS "bankReference",
     p.arrived_at AS "arrivedAt", p.created_at AS "createdAt", p.updated_at AS "updatedAt" FROM created p;

-- PayoutsRepository.claimUnsettled
WITH claimed AS (
        UPDATE payouts SET next_attempt_at = now() + make_interval(secs => $1::float8),
                           attempts = attempts + 1
         WHERE id IN (SELECT id FROM payouts
                       WHERE status IN ('pending', 'in_transit') AND next_attempt_at <= now()
                         AND environment_id = $2
                       ORDER BY next_attempt_at LIMIT $3 FOR UPDATE SKIP LOCKED)
        RETURNING *)
      SELECT p.id, p.environment_id AS "environmentId", p.organization_id AS "organizationId",
     p.amount::float8 AS amount, p.status, p.automatic, p.bank, p.holder_name AS "holderName",
     p.iban, p.failure_reason AS "failureReason", p.bank_reference AS "bankReference",
     p.arrived_at AS "arrivedAt", p.created_at AS "createdAt", p.updated_at AS "updatedAt", (SELECT kind FROM environments WHERE id = p.environment_id) AS environment FROM claimed p;

-- PayoutsRepository.settle
WITH changed AS (
        UPDATE payouts
           SET status = $1, failure_reason = $2,
               bank_reference = COALESCE($3::text, bank_reference),
               arrived_at = CASE WHEN $4::text = 'paid' THEN now() END,
               next_attempt_at = now() + make_interval(secs => $5::float8),
               updated_at = now()
         WHERE id = $6 AND status IN ('pending', 'in_transit') AND status <> $7
        RETURNING *),
      event AS (INSERT INTO events (id, organization_id, environment_id, kind, data, created_at)
    SELECT gen_random_uuid(), p.organization_id, p.environment_id, $8, jsonb_build_object(
    'id', p.id, 'amount', p.amount, 'status', p.status,
    'destination', jsonb_build_object('bank', p.bank, 'holderName', p.holder_name,
                                      'ibanLast4', right(p.iban, 4)),
    'failureReason', p.failure_reason, 'bankReference', p.bank_reference,
    'arrivedAt', to_char(p.arrived_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'environmentId', p.environment_id,
    'createdAt', to_char(p.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'updatedAt', to_char(p.updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')), p.updated_at
      FROM changed p)
      SELECT p.id, p.environment_id AS "environmentId", p.organization_id AS "organizationId",
     p.amount::float8 AS amount, p.status, p.automatic, p.bank, p.holder_name AS "holderName",
     p.iban, p.failure_reason AS "failureReason", p.bank_reference AS "bankReference",
     p.arrived_at AS "arrivedAt", p.created_at AS "createdAt", p.updated_at AS "updatedAt" FROM changed p;

-- PayoutsRepository.retryLater
UPDATE payouts SET next_attempt_at = now() + make_interval(secs => $1::float8)
       WHERE id = $2 AND status IN ('pending', 'in_transit');

-- PayoutsRepository.byId
SELECT p.id, p.environment_id AS "environmentId", p.organization_id AS "organizationId",
     p.amount::float8 AS amount, p.status, p.automatic, p.bank, p.holder_name AS "holderName",
     p.iban, p.failure_reason AS "failureReason", p.bank_reference AS "bankReference",
     p.arrived_at AS "arrivedAt", p.created_at AS "createdAt", p.updated_at AS "updatedAt" FROM payouts p WHERE p.id = $1 AND p.environment_id = $2;

-- PayoutsRepository.list
SELECT p.id, p.environment_id AS "environmentId", p.organization_id AS "organizationId",
     p.amount::float8 AS amount, p.status, p.automatic, p.bank, p.holder_name AS "holderName",
     p.iban, p.failure_reason AS "failureReason", p.bank_reference AS "bankReference",
     p.arrived_at AS "arrivedAt", p.created_at AS "createdAt", p.updated_at AS "updatedAt" FROM payouts p WHERE p.environment_id = $1 AND p.status = $2 ORDER BY p.created_at DESC, p.id DESC LIMIT $3 OFFSET $4;

-- PayoutsRepository.list
SELECT count(*)::int AS total FROM payouts p WHERE p.environment_id = $1 AND p.status = $2;

-- PayoutsRepository.listAll
SELECT p.id, p.environment_id AS "environmentId", p.organization_id AS "organizationId",
     p.amount::float8 AS amount, p.status, p.automatic, p.bank, p.holder_name AS "holderName",
     p.iban, p.failure_reason AS "failureReason", p.bank_reference AS "bankReference",
     p.arrived_at AS "arrivedAt", p.created_at AS "createdAt", p.updated_at AS "updatedAt", to_char(p.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') || ',' || p.id AS cursor FROM payouts p WHERE p.environment_id = $1 AND p.status = $2
       ORDER BY p.created_at DESC, p.id DESC LIMIT $3;
