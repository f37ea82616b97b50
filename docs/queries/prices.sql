-- The SQL of src/prices/ as sent to PostgreSQL. Written by `npm run queries`: do not edit.

-- PricesRepository.insert
INSERT INTO prices AS pr (id, organization_id, product_id, amount, interval, created_at, updated_at)
      SELECT $1, p.organization_id, p.id, $2, $3, $4, $5
        FROM products p
       WHERE p.id = $6 AND p.environment_id = $7 AND p.active
      RETURNING pr.id, pr.organization_id AS "organizationId", pr.product_id AS "productId", pr.amount, pr.interval,
   pr.active, pr.created_at AS "createdAt", pr.updated_at AS "updatedAt";

-- PricesRepository.active
SELECT pr.id, pr.organization_id AS "organizationId", pr.product_id AS "productId", pr.amount, pr.interval,
   pr.active, pr.created_at AS "createdAt", pr.updated_at AS "updatedAt" FROM prices pr
       WHERE pr.id = $1 AND pr.organization_id = $2 AND pr.active;

-- PricesRepository.withProduct
SELECT pr.id, pr.organization_id AS "organizationId", pr.product_id AS "productId", pr.amount, pr.interval,
   pr.active, pr.created_at AS "createdAt", pr.updated_at AS "updatedAt", p.name AS "productName", pr.active AND p.active AS subscribable
        FROM prices pr JOIN products p ON p.id = pr.product_id
       WHERE pr.id = $1 AND pr.organization_id = $2;

-- PricesRepository.subscribable
SELECT pr.id, pr.organization_id AS "organizationId", pr.product_id AS "productId", pr.amount, pr.interval,
   pr.active, pr.created_at AS "createdAt", pr.updated_at AS "updatedAt", p.name AS "productName" FROM prices pr JOIN products p ON p.id = pr.product_id
       WHERE pr.id = $1 AND pr.organization_id = $2 AND pr.active AND p.active;

-- PricesRepository.update
UPDATE prices pr
         SET amount = COALESCE($1::int, pr.amount),
             interval = COALESCE($2::text, pr.interval),
             updated_at = now()
       WHERE pr.id = $3 AND EXISTS (SELECT 1 FROM products p WHERE p.id = pr.product_id AND p.environment_id = $4) AND pr.active
      RETURNING pr.id, pr.organization_id AS "organizationId", pr.product_id AS "productId", pr.amount, pr.interval,
   pr.active, pr.created_at AS "createdAt", pr.updated_at AS "updatedAt";

-- PricesRepository.replace
WITH old AS (
        UPDATE prices pr SET active = false, replaced_by = $1, updated_at = $2
         WHERE pr.id = $3 AND EXISTS (SELECT 1 FROM products p WHERE p.id = pr.product_id AND p.environment_id = $4) AND pr.active
        RETURNING *
      )
      INSERT INTO prices AS pr (id, organization_id, product_id, amount, interval, created_at, updated_at)
      SELECT $5, old.organization_id, old.product_id,
             COALESCE($6::int, old.amount), COALESCE($7::text, old.interval),
             $8, $9
        FROM old
      RETURNING pr.id, pr.organization_id AS "organizationId", pr.product_id AS "productId", pr.amount, pr.interval,
   pr.active, pr.created_at AS "createdAt", pr.updated_at AS "updatedAt";

-- PricesRepository.archive
UPDATE prices pr SET active = false, updated_at = now()
       WHERE pr.id = $1 AND EXISTS (SELECT 1 FROM products p WHERE p.id = pr.product_id AND p.environment_id = $2) AND pr.active
      RETURNING pr.id, pr.organization_id AS "organizationId", pr.product_id AS "productId", pr.amount, pr.interval,
   pr.active, pr.created_at AS "createdAt", pr.updated_at AS "updatedAt";

-- PricesRepository.activeOf
SELECT pr.id, pr.organization_id AS "organizationId", pr.product_id AS "productId", pr.amount, pr.interval,
   pr.active, pr.created_at AS "createdAt", pr.updated_at AS "updatedAt" FROM prices pr
       WHERE pr.product_id = ANY($1::uuid[]) AND pr.active
       ORDER BY pr.product_id, pr.created_at, pr.id;

-- PricesRepository.activeInEnvironment
SELECT pr.id, pr.organization_id AS "organizationId", pr.product_id AS "productId", pr.amount, pr.interval,
   pr.active, pr.created_at AS "createdAt", pr.updated_at AS "updatedAt" FROM prices pr JOIN products p ON p.id = pr.product_id
       WHERE pr.id = $1 AND pr.active AND p.environment_id = $2 AND p.active;
