-- The SQL of src/organizations/ as sent to PostgreSQL. Written by `npm run queries`: do not edit.

-- OrganizationsRepository.liveKeyByHash
SELECT k.id, k.kind, k.key_hash, k.environment_id, k.organization_id, e.kind AS environment,
             o.verification_status AS verification,
             (extract(epoch FROM k.expires_at - now()) * 1000)::float8 AS ms_left
        FROM api_keys k JOIN environments e ON e.id = k.environment_id
        JOIN organizations o ON o.id = k.organization_id
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

-- OrganizationsRepository.insertOrganization
INSERT INTO organizations (id, name, verification_status, verification_decided_at, platform)
      VALUES ($1, $2, $3,
              $4, $5);

-- OrganizationsRepository.account
SELECT o.id, o.name, o.verification_status AS "verificationStatus",
             o.verification_submitted_at AS "submittedAt", o.verification_decided_at AS "decidedAt",
             o.verification_reason AS reason, o.platform, o.fee_bps AS "feeBps", o.payouts_held AS "payoutsHeld",
             o.support_phone AS "phoneNumber", o.website,
             CASE WHEN pa.organization_id IS NULL THEN NULL
                  ELSE json_build_object('bank', pa.bank, 'holderName', pa.holder_name, 'iban', pa.iban,
                                         'status', pa.status) END AS "payoutAccount",
             CASE WHEN pc.organization_id IS NULL THEN NULL
                  ELSE json_build_object('bank', pc.bank, 'holderName', pc.holder_name, 'iban', pc.iban,
                                         'status', pc.status, 'requestedAt', pc.requested_at,
                                         'decidedAt', pc.decided_at) END AS "payoutAccountChange"
        FROM organizations o LEFT JOIN payout_accounts pa ON pa.organization_id = o.id
             LEFT JOIN payout_account_changes pc ON pc.organization_id = o.id
       WHERE o.id = $1;

-- OrganizationsRepository.setPublicContact
UPDATE organizations SET support_phone = $1, website = $2 WHERE id = $3;

-- OrganizationsRepository.setVerification
UPDATE organizations SET verification_status = $1,
             verification_reason = $2,
             verification_submitted_at = CASE WHEN $3::text = 'submitted' THEN now() ELSE verification_submitted_at END,
             verification_decided_at = CASE WHEN $4::text IN ('verified', 'rejected') THEN now()
                                            WHEN $5::text = 'submitted' THEN NULL ELSE verification_decided_at END
       WHERE id = $6;

-- OrganizationsRepository.savePayoutAccount
INSERT INTO payout_accounts (organization_id, bank, holder_name, iban, status)
      VALUES ($1, $2, $3, $4, $5)
      ON CONFLICT (organization_id) DO UPDATE
        SET bank = EXCLUDED.bank, holder_name = EXCLUDED.holder_name, iban = EXCLUDED.iban,
            status = EXCLUDED.status, updated_at = now();

-- OrganizationsRepository.requestPayoutAccountChange
INSERT INTO payout_account_changes (organization_id, bank, holder_name, iban, status, requested_by)
      VALUES ($1, $2, $3, $4, 'pending', $5)
      ON CONFLICT (organization_id) DO UPDATE
        SET bank = EXCLUDED.bank, holder_name = EXCLUDED.holder_name, iban = EXCLUDED.iban,
            status = 'pending', requested_by = EXCLUDED.requested_by, requested_at = now(), decided_at = NULL;

-- OrganizationsRepository.payoutAccountChangeQueue
SELECT o.id, o.name, pc.requested_at AS "requestedAt"
        FROM payout_account_changes pc JOIN organizations o ON o.id = pc.organization_id
       WHERE pc.status = 'pending'
       ORDER BY pc.requested_at, o.id LIMIT $1;

-- OrganizationsRepository.deletePayoutAccountChange
DELETE FROM payout_account_changes WHERE organization_id = $1;

-- OrganizationsRepository.rejectPayoutAccountChange
UPDATE payout_account_changes SET status = 'rejected', decided_at = now()
       WHERE organization_id = $1 AND status = 'pending';

-- OrganizationsRepository.setPayoutAccountStatus
UPDATE payout_accounts SET status = $1, updated_at = now() WHERE organization_id = $2;

-- OrganizationsRepository.setTerms
UPDATE organizations
         SET platform = COALESCE($1::boolean, platform),
             fee_bps = CASE WHEN $2::boolean THEN $3::int ELSE fee_bps END,
             payouts_held = COALESCE($4::boolean, payouts_held)
       WHERE id = $5;

-- OrganizationsRepository.searchOrganizations
SELECT id, name, verification_status AS "verificationStatus", platform, created_at AS "createdAt"
        FROM organizations WHERE name ILIKE $1 AND verification_status = $2
       ORDER BY created_at DESC, id DESC LIMIT $3;

-- OrganizationsRepository.environments
SELECT id, kind FROM environments WHERE organization_id = $1 ORDER BY kind;

-- OrganizationsRepository.organizationName
SELECT name FROM organizations WHERE id = $1;

-- OrganizationsRepository.environment
SELECT id FROM environments WHERE organization_id = $1 AND kind = $2;

-- OrganizationsRepository.insertEnvironment
INSERT INTO environments (id, organization_id, kind) VALUES ($1, $2, $3);

-- OrganizationsRepository.countOrganizations
SELECT count(*)::int AS count FROM organizations;

-- UsersRepository.emailTaken
SELECT 1 FROM users WHERE email = $1;

-- UsersRepository.insertUser
INSERT INTO users (id, organization_id, email, password_hash, role)
      VALUES ($1, $2, $3, $4, $5);

-- UsersRepository.userForSignIn
SELECT id, organization_id AS "organizationId", email, role, created_at AS "createdAt", password_hash AS "passwordHash" FROM users WHERE email = $1;

-- UsersRepository.passwordHashOf
SELECT password_hash AS "passwordHash" FROM users WHERE id = $1;

-- UsersRepository.lockFirstOwner
SELECT id FROM users WHERE organization_id = $1 AND role = 'owner'
       ORDER BY created_at, id LIMIT 1 FOR UPDATE;

-- UsersRepository.anyPassword
SELECT EXISTS (SELECT 1 FROM users WHERE organization_id = $1 AND password_hash IS NOT NULL) AS set;

-- UsersRepository.setPasswordHash
UPDATE users SET password_hash = $1, password_changed_at = now() WHERE id = $2;

-- UsersRepository.users
SELECT id, organization_id AS "organizationId", email, role, created_at AS "createdAt" FROM users WHERE organization_id = $1 ORDER BY created_at, id;

-- UsersRepository.lockOwners
SELECT id FROM users WHERE organization_id = $1 AND role = 'owner' ORDER BY id FOR UPDATE;

-- UsersRepository.setRole
UPDATE users SET role = $1 WHERE id = $2 AND organization_id = $3
      RETURNING id, organization_id AS "organizationId", email, role, created_at AS "createdAt";

-- UsersRepository.deleteUser
DELETE FROM users WHERE id = $1 AND organization_id = $2 RETURNING id, organization_id AS "organizationId", email, role, created_at AS "createdAt";

-- UsersRepository.user
SELECT id, organization_id AS "organizationId", email, role, created_at AS "createdAt" FROM users WHERE id = $1 AND organization_id = $2;

-- UsersRepository.insertInvitation
INSERT INTO dashboard_invitations (id, organization_id, email, role, token_hash, invited_by, created_at, expires_at)
      VALUES ($1, $2, $3, $4, $5, $6, $7, $8);

-- UsersRepository.pendingInvitations
SELECT id, organization_id AS "organizationId", email, role, invited_by AS "invitedBy",
  created_at AS "createdAt", expires_at AS "expiresAt" FROM dashboard_invitations
       WHERE organization_id = $1 AND accepted_at IS NULL AND revoked_at IS NULL AND expires_at > now()
       ORDER BY created_at DESC, id DESC;

-- UsersRepository.invitationByToken
SELECT i.id, i.organization_id AS "organizationId", i.email, i.role, i.invited_by AS "invitedBy",
             i.created_at AS "createdAt", i.expires_at AS "expiresAt", o.name AS "organizationName"
        FROM dashboard_invitations i JOIN organizations o ON o.id = i.organization_id
       WHERE i.token_hash = $1 AND i.accepted_at IS NULL AND i.revoked_at IS NULL AND i.expires_at > now();

-- UsersRepository.acceptInvitation
UPDATE dashboard_invitations SET accepted_at = now()
         WHERE id = $1 AND accepted_at IS NULL AND revoked_at IS NULL AND expires_at > now();

-- UsersRepository.revokeInvitation
UPDATE dashboard_invitations SET revoked_at = now()
         WHERE id = $1 AND organization_id = $2 AND accepted_at IS NULL AND revoked_at IS NULL;

-- VerificationRepository.insertApplication
INSERT INTO verification_applications (id, organization_id, submitted_by, legal_name, trade_name, legal_form,
             rccm, nif, address, representative_name, representative_phone, representative_id_key,
             representative_id_sealed, payout_bank, payout_holder, payout_iban)
      VALUES ($1, $2, $3, $4,
              $5, $6, $7, $8, $9, $10,
              $11, $12, $13,
              $14, $15, $16);

-- VerificationRepository.insertDocument
INSERT INTO verification_documents (application_id, kind, content_type, size, key_id, sealed)
      VALUES ($1, $2, $3, $4, $5, $6);

-- VerificationRepository.copyDocument
INSERT INTO verification_documents (application_id, kind, content_type, size, key_id, sealed)
        SELECT $1, kind, content_type, size, key_id, sealed FROM verification_documents
         WHERE application_id = $2 AND kind = $3;

-- VerificationRepository.latestApplication
SELECT a.id, a.organization_id AS "organizationId", a.legal_name AS "legalName", a.trade_name AS "tradeName",
             a.legal_form AS "legalForm", a.rccm, a.nif, a.address, a.representative_name AS "representativeName",
             a.representative_phone AS "representativePhone", a.payout_bank AS "payoutBank",
             a.payout_holder AS "payoutHolder", a.payout_iban AS "payoutIban", a.created_at AS "createdAt",
             json_build_object('keyId', a.representative_id_key,
                               'sealed', encode(a.representative_id_sealed, 'base64')) AS "representativeId",
             COALESCE((SELECT json_agg(json_build_object('kind', d.kind, 'contentType', d.content_type, 'size', d.size)
                                       ORDER BY d.kind)
                         FROM verification_documents d WHERE d.application_id = a.id), '[]') AS documents
        FROM verification_applications a
       WHERE a.organization_id = $1
       ORDER BY a.created_at DESC, a.id DESC LIMIT 1;

-- VerificationRepository.document
SELECT d.content_type AS "contentType", d.size, d.key_id AS "keyId", d.sealed
        FROM verification_documents d
       WHERE d.kind = $1 AND d.application_id = (
             SELECT a.id FROM verification_applications a WHERE a.organization_id = $2
              ORDER BY a.created_at DESC, a.id DESC LIMIT 1);

-- VerificationRepository.submittedQueue
SELECT id, name, verification_submitted_at AS "submittedAt" FROM organizations
       WHERE verification_status = 'submitted'
       ORDER BY verification_submitted_at, id LIMIT $1;

-- ConnectedAccountsRepository.actingEnvironment
SELECT e.id AS "environmentId", o.verification_status AS verification
        FROM organizations o
        JOIN organizations p ON p.id = o.platform_id
        JOIN environments e ON e.organization_id = o.id AND e.kind = $1
       WHERE o.id = $2 AND o.platform_id = $3 AND p.platform;

-- ConnectedAccountsRepository.isPlatform
SELECT platform FROM organizations WHERE id = $1;

-- ConnectedAccountsRepository.connect
UPDATE organizations SET platform_id = $1 WHERE id = $2;

-- ConnectedAccountsRepository.account
SELECT o.id, o.name, o.verification_status AS verification,
  o.verification_submitted_at AS "submittedAt", o.verification_decided_at AS "decidedAt",
  o.verification_reason AS reason, o.created_at AS "createdAt",
  (SELECT u.email FROM users u WHERE u.organization_id = o.id AND u.role = 'owner'
    ORDER BY u.created_at, u.id LIMIT 1) AS email FROM organizations o WHERE o.id = $1 AND o.platform_id = $2;

-- ConnectedAccountsRepository.accounts
SELECT o.id, o.name, o.verification_status AS verification,
  o.verification_submitted_at AS "submittedAt", o.verification_decided_at AS "decidedAt",
  o.verification_reason AS reason, o.created_at AS "createdAt",
  (SELECT u.email FROM users u WHERE u.organization_id = o.id AND u.role = 'owner'
    ORDER BY u.created_at, u.id LIMIT 1) AS email FROM organizations o WHERE o.platform_id = $1 ORDER BY o.created_at DESC, o.id DESC LIMIT $2 OFFSET $3;

-- ConnectedAccountsRepository.accounts
SELECT count(*)::int AS total FROM organizations o WHERE o.platform_id = $1;

-- ConnectedAccountsRepository.insertOnboardingLink
INSERT INTO onboarding_links (id, organization_id, token_hash, return_url, refresh_url, expires_at)
      VALUES ($1, $2, $3, $4, $5, $6);

-- ConnectedAccountsRepository.onboardingLink
SELECT l.id, l.organization_id AS "organizationId", o.name AS "organizationName",
             (SELECT p.name FROM organizations p WHERE p.id = o.platform_id) AS "platformName",
             (SELECT u.email FROM users u WHERE u.organization_id = o.id AND u.role = 'owner'
               ORDER BY u.created_at, u.id LIMIT 1) AS email,
             l.return_url AS "returnUrl", l.refresh_url AS "refreshUrl", l.expires_at AS "expiresAt",
             (l.used_at IS NOT NULL OR l.expires_at <= now()) AS spent,
             EXISTS (SELECT 1 FROM users u WHERE u.organization_id = o.id AND u.password_hash IS NOT NULL) AS "passwordSet"
        FROM onboarding_links l JOIN organizations o ON o.id = l.organization_id
       WHERE l.token_hash = $1;

-- ConnectedAccountsRepository.onboardingLinkSpent
SELECT (used_at IS NOT NULL OR expires_at <= now()) AS spent FROM onboarding_links WHERE id = $1;

-- ConnectedAccountsRepository.useOnboardingLink
UPDATE onboarding_links SET used_at = now()
       WHERE id = $1 AND used_at IS NULL AND expires_at > now();

-- ConnectedAccountsRepository.onboardingReturn
SELECT return_url AS "returnUrl" FROM onboarding_links
       WHERE id = $1 AND organization_id = $2 AND used_at IS NOT NULL;
