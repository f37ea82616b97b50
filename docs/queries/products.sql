-- The SQL of src/products/ as sent to PostgreSQL. Written by `npm run queries`: do not edit.

-- ProductsRepository.insert
INSERT INTO products (id, organization_id, environment_id, name, description, active, created_at, updated_at)
      VALUES ($1, $2, $3, $4, $5, true, $6, $7);

-- ProductsRepository.active
SELECT p.id, p.organization_id AS "organizationId", p.environment_id AS "environmentId", p.name, p.description,
   p.active, p.created_at AS "createdAt", p.updated_at AS "updatedAt" FROM products p WHERE p.id = $1 AND p.environment_id = $2 AND p.active;

-- ProductsRepository.update
UPDATE products p SET updated_at = now(), name = $1, description = $2
       WHERE p.id = $3 AND p.environment_id = $4 AND p.active
      RETURNING p.id, p.organization_id AS "organizationId", p.environment_id AS "environmentId", p.name, p.description,
   p.active, p.created_at AS "createdAt", p.updated_at AS "updatedAt";

-- ProductsRepository.list
SELECT p.id, p.organization_id AS "organizationId", p.environment_id AS "environmentId", p.name, p.description,
   p.active, p.created_at AS "createdAt", p.updated_at AS "updatedAt" FROM products p WHERE p.environment_id = $1 AND p.active AND p.id = $2 ORDER BY p.created_at DESC, p.id DESC LIMIT $3 OFFSET $4;

-- ProductsRepository.list
SELECT count(*)::int AS total FROM products p WHERE p.environment_id = $1 AND p.active AND p.id = $2;

-- ProductsRepository.search
SELECT p.id, p.organization_id AS "organizationId", p.environment_id AS "environmentId", p.name, p.description,
   p.active, p.created_at AS "createdAt", p.updated_at AS "updatedAt", to_char(p.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') || ',' || p.id AS cursor FROM products p
       WHERE p.environment_id = $1 AND p.active AND (p.created_at, p.id) < ($2::timestamptz, $3::uuid)
       ORDER BY p.created_at DESC, p.id DESC LIMIT $4;
