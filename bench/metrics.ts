import type { ChildProcess } from 'node:child_process';
import type { Pool } from 'pg';
import { freePort } from '../src/common/net';
import { createRequest } from './api-requests';
import { compare, fmtCost, verdict } from './measure';
import { startProcess } from './processes';

/**
 * What the metrics cost creating a payment requests: the running Khoums (no METRICS_TOKEN: nothing
 * counted per request) against a second one serving `/metrics`, in interleaved rounds.
 */
export async function metricsScenario(
  khoums: { port: number; pid: number },
  env: Record<string, string>,
  key: string,
  pool: Pool,
  children: ChildProcess[],
): Promise<void> {
  const port = await freePort();
  const withMetrics = await startProcess(
    'dist/src/main.js',
    { ...env, PORT: String(port), METRICS_TOKEN: 'bench-metrics-token-0123456789' },
    'Khoums is listening',
  );
  children.push(withMetrics);
  const r = await compare(
    { ...khoums, request: createRequest(key, 'no-metrics') },
    { port, pid: withMetrics.pid!, request: createRequest(key, 'metrics') },
    pool,
  );
  process.stdout.write(
    `POST /payment-request with metrics (METRICS_TOKEN set) against the same without\n` +
      `  without ${fmtCost(r.a)}\n  with    ${fmtCost(r.b)}\n` +
      verdict(r, 0.03) +
      '\n',
  );
}
