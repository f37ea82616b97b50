-- The SQL of src/customers/ as sent to PostgreSQL. Written by `npm run queries`: do not edit.

-- CustomersRepository.insert
INSERT INTO customers AS c (id, organization_id, external_user_id, phone, language, test_clock_id, created_at,
                                  updated_at)
      VALUES ($1, $2, $3, $4, $5, $6,
              $7, $8)
      ON CONFLICT (organization_id, external_user_id) DO NOTHING
      RETURNING c.id, c.organization_id AS "organizationId", c.external_user_id AS "externalUserId", c.phone, c.language,
   c.credit_balance AS "creditBalance", c.test_clock_id AS "testClockId", c.created_at AS "createdAt", c.updated_at AS "updatedAt";

-- CustomersRepository.upsert
INSERT INTO customers AS c (id, organization_id, external_user_id, phone, created_at, updated_at)
      VALUES ($1, $2, $3, $4, $5, $6)
      ON CONFLICT (organization_id, external_user_id) DO UPDATE
        SET phone = COALESCE(EXCLUDED.phone, c.phone),
            updated_at = CASE WHEN EXCLUDED.phone IS DISTINCT FROM c.phone AND EXCLUDED.phone IS NOT NULL
                              THEN EXCLUDED.updated_at ELSE c.updated_at END
      RETURNING c.id, c.organization_id AS "organizationId", c.external_user_id AS "externalUserId", c.phone, c.language,
   c.credit_balance AS "creditBalance", c.test_clock_id AS "testClockId", c.created_at AS "createdAt", c.updated_at AS "updatedAt";

-- CustomersRepository.lockCredits
SELECT id, credit_balance AS credit FROM customers WHERE id = ANY($1::uuid[]) ORDER BY id FOR NO KEY UPDATE;

-- CustomersRepository.byId
SELECT c.id, c.organization_id AS "organizationId", c.external_user_id AS "externalUserId", c.phone, c.language,
   c.credit_balance AS "creditBalance", c.test_clock_id AS "testClockId", c.created_at AS "createdAt", c.updated_at AS "updatedAt" FROM customers c WHERE c.id = $1 AND c.organization_id = $2;

-- CustomersRepository.idsByPhone
SELECT c.id FROM customers c WHERE c.organization_id = $1 AND c.phone = $2;

-- CustomersRepository.byExternalUserId
SELECT c.id, c.organization_id AS "organizationId", c.external_user_id AS "externalUserId", c.phone, c.language,
   c.credit_balance AS "creditBalance", c.test_clock_id AS "testClockId", c.created_at AS "createdAt", c.updated_at AS "updatedAt" FROM customers c
       WHERE c.organization_id = $1 AND c.external_user_id = $2;

-- CustomersRepository.update
UPDATE customers c SET updated_at = now(), external_user_id = $1, phone = $2, language = $3
         WHERE c.id = $4 AND c.organization_id = $5
        RETURNING c.id, c.organization_id AS "organizationId", c.external_user_id AS "externalUserId", c.phone, c.language,
   c.credit_balance AS "creditBalance", c.test_clock_id AS "testClockId", c.created_at AS "createdAt", c.updated_at AS "updatedAt";

-- CustomersRepository.list
SELECT c.id, c.organization_id AS "organizationId", c.external_user_id AS "externalUserId", c.phone, c.language,
   c.credit_balance AS "creditBalance", c.test_clock_id AS "testClockId", c.created_at AS "createdAt", c.updated_at AS "updatedAt" FROM customers c WHERE c.organization_id = $1 AND c.id = $2 AND c.external_user_id = $3 ORDER BY c.created_at DESC, c.id DESC LIMIT $4 OFFSET $5;

-- CustomersRepository.list
SELECT count(*)::int AS total FROM customers c WHERE c.organization_id = $1 AND c.id = $2 AND c.external_user_id = $3;

-- CustomersRepository.search
SELECT c.id, c.organization_id AS "organizationId", c.external_user_id AS "externalUserId", c.phone, c.language,
   c.credit_balance AS "creditBalance", c.test_clock_id AS "testClockId", c.created_at AS "createdAt", c.updated_at AS "updatedAt", to_char(c.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') || ',' || c.id AS cursor FROM customers c
       WHERE c.organization_id = $1 AND c.test_clock_id = $2 AND c.external_user_id = $3 AND (c.created_at, c.id) < ($4::timestamptz, $5::uuid) ORDER BY c.created_at DESC, c.id DESC LIMIT $6;
