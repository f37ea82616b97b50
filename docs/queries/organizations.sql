-- The SQL of src/organizations/ as sent to PostgreSQL. Written by `npm run queries`: do not edit.

-- OrganizationsRepository.liveKeyByHash
SELECT k.id, k.kind, k.key_hash, k.environment_id, k.organization_id, e.kind AS environment,
             (extract(epoch FROM k.expires_at - now()) * 1000)::float8 AS ms_left
        FROM api_keys k JOIN environments e ON e.id = k.environment_id
       WHERE k.key_hash = $1 AND k.revoked_at IS NULL AND (k.expires_at IS NULL OR k.expires_at > now());

-- OrganizationsRepository.liveKeys
SELECT id, kind, display, name, created_at AS "createdAt", last_used_at AS "lastUsedAt",
  expires_at AS "expiresAt" FROM api_keys
       WHERE organization_id = $1 AND environment_id = $2
         AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > now())
       ORDER BY created_at DESC, id DESC;

-- OrganizationsRepository.lockLiveKey
SELECT id, kind, display, name, created_at AS "createdAt", last_used_at AS "lastUsedAt",
  expires_at AS "expiresAt" FROM api_keys
       WHERE id = $1 AND organization_id = $2 AND environment_id = $3
         AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > now())
       FOR UPDATE;

-- OrganizationsRepository.expireKey
UPDATE api_keys SET expires_at = LEAST(expires_at, now() + make_interval(secs => $1))
       WHERE id = $2 RETURNING expires_at AS "expiresAt";

-- OrganizationsRepository.insertKey
INSERT INTO api_keys (id, organization_id, environment_id, kind, key_hash, display, name)
      VALUES ($1, $2, $3, $4, $5, $6, $7);

-- OrganizationsRepository.revokeKey
UPDATE api_keys SET revoked_at = now()
       WHERE id = $1 AND organization_id = $2 AND revoked_at IS NULL
         AND environment_id = COALESCE($3::uuid, environment_id);

-- OrganizationsRepository.touchKeys
UPDATE api_keys SET last_used_at = now() WHERE id = ANY($1::uuid[]);

-- OrganizationsRepository.emailTaken
SELECT 1 FROM users WHERE email = $1;

-- OrganizationsRepository.insertOrganization
INSERT INTO organizations (id, name) VALUES ($1, $2);

-- OrganizationsRepository.insertUser
INSERT INTO users (id, organization_id, email, password_hash, role)
      VALUES ($1, $2, $3, $4, $5);

-- OrganizationsRepository.userForSignIn
SELECT id, organization_id AS "organizationId", email, role, created_at AS "createdAt", password_hash AS "passwordHash" FROM users WHERE email = $1;

-- OrganizationsRepository.passwordHashOf
SELECT password_hash AS "passwordHash" FROM users WHERE id = $1;

-- OrganizationsRepository.setPasswordHash
UPDATE users SET password_hash = $1, password_changed_at = now() WHERE id = $2;

-- OrganizationsRepository.users
SELECT id, organization_id AS "organizationId", email, role, created_at AS "createdAt" FROM users WHERE organization_id = $1 ORDER BY created_at, id;

-- OrganizationsRepository.lockOwners
SELECT id FROM users WHERE organization_id = $1 AND role = 'owner' ORDER BY id FOR UPDATE;

-- OrganizationsRepository.setRole
UPDATE users SET role = $1 WHERE id = $2 AND organization_id = $3
      RETURNING id, organization_id AS "organizationId", email, role, created_at AS "createdAt";

-- OrganizationsRepository.deleteUser
DELETE FROM users WHERE id = $1 AND organization_id = $2 RETURNING id, organization_id AS "organizationId", email, role, created_at AS "createdAt";

-- OrganizationsRepository.user
SELECT id, organization_id AS "organizationId", email, role, created_at AS "createdAt" FROM users WHERE id = $1 AND organization_id = $2;

-- OrganizationsRepository.insertInvitation
INSERT INTO dashboard_invitations (id, organization_id, email, role, token_hash, invited_by, created_at, expires_at)
      VALUES ($1, $2, $3, $4, $5, $6, $7, $8);

-- OrganizationsRepository.pendingInvitations
SELECT id, organization_id AS "organizationId", email, role, invited_by AS "invitedBy",
  created_at AS "createdAt", expires_at AS "expiresAt" FROM dashboard_invitations
       WHERE organization_id = $1 AND accepted_at IS NULL AND revoked_at IS NULL AND expires_at > now()
       ORDER BY created_at DESC, id DESC;

-- OrganizationsRepository.invitationByToken
SELECT i.id, i.organization_id AS "organizationId", i.email, i.role, i.invited_by AS "invitedBy",
             i.created_at AS "createdAt", i.expires_at AS "expiresAt", o.name AS "organizationName"
        FROM dashboard_invitations i JOIN organizations o ON o.id = i.organization_id
       WHERE i.token_hash = $1 AND i.accepted_at IS NULL AND i.revoked_at IS NULL AND i.expires_at > now();

-- OrganizationsRepository.acceptInvitation
UPDATE dashboard_invitations SET accepted_at = now()
         WHERE id = $1 AND accepted_at IS NULL AND revoked_at IS NULL AND expires_at > now();

-- OrganizationsRepository.revokeInvitation
UPDATE dashboard_invitations SET revoked_at = now()
         WHERE id = $1 AND organization_id = $2 AND accepted_at IS NULL AND revoked_at IS NULL;

-- OrganizationsRepository.organizationName
SELECT name FROM organizations WHERE id = $1;

-- OrganizationsRepository.environment
SELECT id FROM environments WHERE organization_id = $1 AND kind = $2;

-- OrganizationsRepository.insertEnvironment
INSERT INTO environments (id, organization_id, kind) VALUES ($1, $2, $3);

-- OrganizationsRepository.countOrganizations
SELECT count(*)::int AS count FROM organizations;
