-- The SQL of src/portal/ as sent to PostgreSQL. Written by `npm run queries`: do not edit.

-- PortalRepository.insertSession
INSERT INTO portal_sessions (id, token_hash, organization_id, environment_id, customer_ids, origin, return_url,
                                   expires_at, created_at)
      VALUES ($1, $2, $3, $4, $5::uuid[], $6,
              $7, $8, $9);

-- PortalRepository.pruneSessions
DELETE FROM portal_sessions WHERE id IN (
        SELECT id FROM portal_sessions WHERE expires_at < $1 ORDER BY expires_at LIMIT $2);

-- PortalRepository.liveSession
SELECT s.id, s.organization_id AS "organizationId", s.environment_id AS "environmentId", (SELECT kind FROM environments WHERE id = s.environment_id) AS environment,
             s.customer_ids AS "customerIds", s.origin, s.return_url AS "returnUrl", s.expires_at AS "expiresAt"
        FROM portal_sessions s
       WHERE s.token_hash = $1 AND s.expires_at > $2;

-- PortalRepository.endSession
DELETE FROM portal_sessions WHERE id = $1;

-- PortalRepository.lockPhone
SELECT pg_advisory_xact_lock(7320, hashtext($1 || ':' || $2));

-- PortalRepository.codesSince
SELECT count(*)::int AS n FROM portal_codes
       WHERE environment_id = $1 AND phone = $2 AND created_at > $3;

-- PortalRepository.pruneCodes
DELETE FROM portal_codes WHERE environment_id = $1 AND phone = $2 AND created_at < $3;

-- PortalRepository.insertCode
INSERT INTO portal_codes (id, organization_id, environment_id, phone, code_hash, expires_at, created_at)
      VALUES ($1, $2, $3, $4, $5, $6, $7);

-- PortalRepository.tryCode
UPDATE portal_codes SET tries = tries + 1
       WHERE id = $1 AND organization_id = $2 AND used_at IS NULL AND expires_at > $3
         AND tries < $4
      RETURNING id, organization_id AS "organizationId", environment_id AS "environmentId", phone,
                code_hash AS "codeHash", tries;

-- PortalRepository.useCode
UPDATE portal_codes SET used_at = $1 WHERE id = $2 AND used_at IS NULL;
