import type { ChildProcess } from 'node:child_process';
import type { Pool } from 'pg';
import { freePort } from '../src/common/net';
import { createRequest } from './api-requests';
import { compare, fmtCost, verdict } from './measure';
import { startProcess } from './processes';

/**
 * What the metrics cost creating payment requests: a Khoums without METRICS_TOKEN (nothing counted
 * per request) against one serving `/metrics`, both started here, in interleaved rounds; and two
 * without, the machine's noise between two like processes.
 */
export async function metricsScenario(
  env: Record<string, string>,
  key: string,
  pool: Pool,
  children: ChildProcess[],
): Promise<void> {
  const start = async (extra: Record<string, string>) => {
    const port = await freePort();
    const child = await startProcess(
      'dist/src/main.js',
      { ...env, ...extra, PORT: String(port) },
      'Khoums is listening',
    );
    children.push(child);
    return { port, pid: child.pid! };
  };
  const off = await start({});
  const off2 = await start({});
  const on = await start({ METRICS_TOKEN: 'bench-metrics-token-0123456789' });
  const r = await compare(
    { ...off, request: createRequest(key, 'no-metrics') },
    { ...on, request: createRequest(key, 'metrics') },
    pool,
  );
  const noise = await compare(
    { ...off, request: createRequest(key, 'no-metrics') },
    { ...off2, request: createRequest(key, 'no-metrics-2') },
    pool,
  );
  process.stdout.write(
    `POST /payment-request with metrics (METRICS_TOKEN set) against the same without\n` +
      `  without ${fmtCost(r.a)}\n  with    ${fmtCost(r.b)}\n` +
      verdict(r, 0.03) +
      `  noise   two processes without metrics: ${((1 - noise.throughput) * 100).toFixed(1)}% of throughput, ` +
      `${((noise.cpu - 1) * 100).toFixed(1)}% CPU per request\n\n`,
  );
}
