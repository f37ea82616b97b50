-- The SQL of src/dashboard/ as sent to PostgreSQL. Written by `npm run queries`: do not edit.

-- DashboardRepository.insertSession
INSERT INTO dashboard_sessions (id, token_hash, user_id, environment, expires_at)
      VALUES ($1, $2, $3, $4, now() + make_interval(secs => $5));

-- DashboardRepository.session
WITH s AS (
        SELECT s.id, s.last_seen_at, s.environment, u.id AS user_id, u.email, u.role, u.organization_id,
               o.name AS organization_name, o.verification_status, e.id AS environment_id
          FROM dashboard_sessions s
          JOIN (users u
  JOIN organizations o ON o.id = u.organization_id
  JOIN environments e ON e.organization_id = u.organization_id) ON u.id = s.user_id AND e.kind = s.environment
         WHERE s.token_hash = $1 AND s.expires_at > now()
      ), touched AS (
        UPDATE dashboard_sessions d
           SET last_seen_at = now(),
               expires_at = LEAST(d.created_at + make_interval(secs => $2), now() + make_interval(secs => $3))
          FROM s WHERE d.id = s.id AND s.last_seen_at < now() - interval '1 minute'
      )
      SELECT id AS "sessionId", user_id AS "userId", email, role, organization_id AS "organizationId",
             organization_name AS "organizationName", verification_status AS "verificationStatus", environment,
             environment_id AS "environmentId"
        FROM s;

-- DashboardRepository.deleteSession
DELETE FROM dashboard_sessions WHERE id = $1;

-- DashboardRepository.deleteOtherSessions
DELETE FROM dashboard_sessions WHERE user_id = $1 AND id <> $2;

-- DashboardRepository.setSessionEnvironment
UPDATE dashboard_sessions SET environment = $1 WHERE id = $2;

-- DashboardRepository.purgeExpiredSessions
DELETE FROM dashboard_sessions WHERE id IN (
        SELECT id FROM dashboard_sessions WHERE expires_at < now() ORDER BY expires_at LIMIT 500);

-- DashboardRepository.reserveSignInAttempt
SELECT pg_advisory_xact_lock(7301, hashtext($1)), pg_advisory_xact_lock(7302, hashtext($2));

-- DashboardRepository.reserveSignInAttempt
SELECT count(*) FILTER (WHERE email = $1 AND ip = $2)::int AS both,
               count(*) FILTER (WHERE email = $3)::int AS "byEmail",
               count(*) FILTER (WHERE ip = $4)::int AS "byIp"
          FROM login_attempts
         WHERE NOT succeeded AND created_at > now() - make_interval(secs => $5)
           AND (email = $6 OR ip = $7);

-- DashboardRepository.signInSucceeded
UPDATE login_attempts SET succeeded = true WHERE id = $1;
