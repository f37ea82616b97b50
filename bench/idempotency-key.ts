import type { Pool } from 'pg';
import { createRequest } from './api-requests';
import { compare, fmtCost, verdict } from './measure';

/** The same process, creating payment requests with and without an Idempotency-Key (a new one per request). */
export async function idempotencyKeyScenario(
  khoums: { port: number; pid: number },
  key: string,
  pool: Pool,
): Promise<void> {
  const r = await compare(
    { ...khoums, request: createRequest(key, 'plain') },
    { ...khoums, request: createRequest(key, 'keyed', true) },
    pool,
  );
  process.stdout.write(
    `POST /payment-request with an Idempotency-Key (a new key per request) against the same without\n` +
      `  without ${fmtCost(r.a)}\n  with    ${fmtCost(r.b)}\n` +
      verdict(r, 0.15) +
      '\n',
  );
}
