import { createHash } from 'node:crypto';
import type { Pool } from 'pg';

/**
 * The fixed ceilings' schema (bench/README.md, "The ceilings"): what a payment request, its
 * payment, its ledger row and an event need at the least to be stored durably, with the primary
 * keys and the unique transaction key only — no index for searches, no trigger, no check, no
 * foreign key. It does not follow Khoums's schema: the ceilings must not move when Khoums's
 * statements or indexes do. Made in a database of its own on the bench's PostgreSQL.
 */
export const CEILING_SCHEMA = `
  CREATE TABLE IF NOT EXISTS requests (
    id uuid PRIMARY KEY,
    environment_id uuid NOT NULL,
    transaction_id text NOT NULL,
    amount integer NOT NULL,
    phone_number text,
    status text NOT NULL DEFAULT 'pending',
    paid_at timestamptz,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    UNIQUE (environment_id, transaction_id)
  );
  CREATE TABLE IF NOT EXISTS events (
    id uuid PRIMARY KEY,
    environment_id uuid NOT NULL,
    kind text NOT NULL,
    data jsonb NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now()
  );
  CREATE TABLE IF NOT EXISTS payments (
    id uuid PRIMARY KEY,
    request_id uuid NOT NULL,
    amount integer NOT NULL,
    phone_number text NOT NULL,
    status text NOT NULL,
    bank_reference text,
    created_at timestamptz NOT NULL DEFAULT now()
  );
  CREATE TABLE IF NOT EXISTS ledger (
    id uuid PRIMARY KEY,
    source_id uuid NOT NULL,
    amount integer NOT NULL,
    fee integer NOT NULL,
    net integer NOT NULL,
    available_on timestamptz NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now()
  );`;

/** The environment an API key stands for in the ceilings (no key table: a hash of the key). */
export function ceilingEnvironment(key: string): string {
  const h = createHash('sha256').update(key).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}

/** Unpaid requests `<prefix>-<i>` (i from 1 to n, or 0 to n - 1) of the key's environment. */
export async function seedCeiling(
  pool: Pool,
  key: string,
  prefix: string,
  n: number,
  from = 1,
): Promise<void> {
  await pool.query(CEILING_SCHEMA);
  await pool.query(
    `INSERT INTO requests (id, environment_id, transaction_id, amount)
     SELECT gen_random_uuid(), $1, $2 || '-' || i, 1500 FROM generate_series($3::int, $4::int) i`,
    [ceilingEnvironment(key), prefix, from, from + n - 1],
  );
}
