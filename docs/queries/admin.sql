-- The SQL of src/admin/ as sent to PostgreSQL. Written by `npm run queries`: do not edit.

-- OperatorsRepository.insert
INSERT INTO operators (id, email, password_hash, totp_key_id, totp_sealed)
        VALUES ($1, $2, $3, $4, $5)
        ON CONFLICT (email) DO NOTHING;

-- OperatorsRepository.byEmail
SELECT id, email, password_hash AS "passwordHash", must_change_password AS "mustChangePassword",
             totp_key_id AS "totpKeyId", totp_sealed AS "totpSealed", last_totp_step::float8 AS "lastTotpStep"
        FROM operators WHERE email = $1;

-- OperatorsRepository.useTotpStep
UPDATE operators SET last_totp_step = $1
         WHERE id = $2 AND (last_totp_step IS NULL OR last_totp_step < $3);

-- OperatorsRepository.list
SELECT id, email FROM operators ORDER BY email;

-- OperatorsRepository.passwordHashOf
SELECT password_hash AS "passwordHash" FROM operators WHERE id = $1;

-- OperatorsRepository.setPassword
UPDATE operators SET password_hash = $1, must_change_password = false WHERE id = $2;

-- OperatorsRepository.insertSession
INSERT INTO operator_sessions (id, token_hash, operator_id, expires_at)
      VALUES ($1, $2, $3, now() + make_interval(secs => $4));

-- OperatorsRepository.session
WITH s AS (
        SELECT s.id, s.operator_id, o.email, o.must_change_password
          FROM operator_sessions s JOIN operators o ON o.id = s.operator_id
         WHERE s.token_hash = $1 AND s.expires_at > now()
      ), touched AS (
        UPDATE operator_sessions d
           SET last_seen_at = now(),
               expires_at = LEAST(d.created_at + make_interval(secs => $2), now() + make_interval(secs => $3))
          FROM s WHERE d.id = s.id
      )
      SELECT id AS "sessionId", operator_id AS "operatorId", email, must_change_password AS "mustChangePassword"
        FROM s;

-- OperatorsRepository.deleteSession
DELETE FROM operator_sessions WHERE id = $1;

-- OperatorsRepository.deleteOtherSessions
DELETE FROM operator_sessions WHERE operator_id = $1 AND id <> $2;

-- OperatorsRepository.purgeExpiredSessions
DELETE FROM operator_sessions WHERE id IN (
        SELECT id FROM operator_sessions WHERE expires_at < now() ORDER BY expires_at LIMIT 500);

-- OperatorsRepository.reserveSignInAttempt
SELECT pg_advisory_xact_lock(7311, hashtext($1)), pg_advisory_xact_lock(7312, hashtext($2));

-- OperatorsRepository.reserveSignInAttempt
SELECT count(*) FILTER (WHERE email = $1 AND ip = $2)::int AS both,
               count(*) FILTER (WHERE email = $3)::int AS "byEmail",
               count(*) FILTER (WHERE ip = $4)::int AS "byIp"
          FROM operator_sign_in_attempts
         WHERE NOT succeeded AND created_at > now() - make_interval(secs => $5)
           AND (email = $6 OR ip = $7);

-- OperatorsRepository.signInSucceeded
UPDATE operator_sign_in_attempts SET succeeded = true WHERE id = $1;

-- AuditLogRepository.append
INSERT INTO operator_audit_log (id, actor, operator_id, action, organization_id, before, after)
      VALUES ($1, $2, $3, $4,
              $5, $6::jsonb,
              $7::jsonb);

-- AuditLogRepository.list
SELECT id, actor, operator_id AS "operatorId", action, organization_id AS "organizationId", before, after,
             created_at AS "createdAt"
        FROM operator_audit_log WHERE operator_id = $1 AND operator_id IS NULL AND actor = $2 AND organization_id = $3 AND action = $4 AND created_at >= $5 AND created_at < $6
       ORDER BY created_at DESC, id DESC LIMIT $7;
