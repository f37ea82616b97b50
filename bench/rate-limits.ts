import type { ChildProcess } from 'node:child_process';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { Pool } from 'pg';
import { freePort } from '../src/common/net';
import type { CreatedOrganization } from '../src/organizations/organizations.service';
import { TokenBuckets } from '../src/rate-limits/token-buckets';
import { createRequest } from './api-requests';
import { compare, fmtCost, verdict } from './measure';
import { startProcess } from './processes';

/** `count` new secret keys of the organization's Sandbox, inserted as the service stores them. */
async function moreKeys(pool: Pool, org: CreatedOrganization, count: number): Promise<string[]> {
  const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
  const keys = Array.from(
    { length: count },
    () => `sk_test_${[...randomBytes(40)].map((b) => BASE62[b % 62]).join('')}`,
  );
  for (const key of keys) {
    await pool.query(
      `INSERT INTO api_keys (id, organization_id, environment_id, kind, key_hash, display)
       VALUES ($1, $2, $3, 'secret', $4, $5)`,
      [
        randomUUID(),
        org.organizationId,
        org.sandbox.environmentId,
        createHash('sha256').update(key).digest(),
        `${key.slice(0, 12)}…${key.slice(-4)}`,
      ],
    );
  }
  return keys;
}

/**
 * The rate limits at their defaults against limits off: three new processes started together,
 * alike but for the limits, two with the limits off (their difference is the machine's noise) and
 * one with the limits at their defaults. 64 keys in turn, so that no key reaches its limit.
 */
export async function rateLimitsScenario(
  khoumsEnv: NodeJS.ProcessEnv,
  org: CreatedOrganization,
  pool: Pool,
  children: ChildProcess[],
): Promise<void> {
  const ports = [await freePort(), await freePort(), await freePort()];
  const off = { ...khoumsEnv, RATE_LIMIT_PER_KEY: '0', RATE_LIMIT_PER_IP: '0' };
  const [offA, offB, on] = await Promise.all(
    [off, off, khoumsEnv].map((env, i) =>
      startProcess('dist/src/main.js', { ...env, PORT: String(ports[i]) }, 'Khoums is listening'),
    ),
  );
  children.push(offA, offB, on);
  const keys = await moreKeys(pool, org, 64);
  const side = (port: number, child: ChildProcess, label: string) => ({
    port,
    pid: child.pid!,
    request: createRequest(keys, label),
  });
  const r = await compare(side(ports[0], offA, 'off'), side(ports[2], on, 'on'), pool);
  const noise = await compare(side(ports[0], offA, 'off'), side(ports[1], offB, 'off2'), pool);
  // The limiter's own work per request, in this process: one bucket taken per request, 64 keys in turn.
  const buckets = new TokenBuckets(200, 400, () => Date.now());
  const calls = 2_000_000;
  const started = process.hrtime.bigint();
  for (let i = 0; i < calls; i++) buckets.take(keys[i % keys.length]);
  const nsPerTake = Number(process.hrtime.bigint() - started) / calls;
  process.stdout.write(
    `POST /payment-request, rate limits at their defaults (200/s per key, 50/s per IP) against limits off\n` +
      `  off     ${fmtCost(r.a)}\n  on      ${fmtCost(r.b)}\n` +
      verdict(r, 0.03) +
      `  noise   two processes both with the limits off differ by ${((1 - noise.throughput) * 100).toFixed(1)}% ` +
      `of throughput, ${((noise.cpu - 1) * 100).toFixed(1)}% of CPU per request\n` +
      `  limiter ${nsPerTake.toFixed(0)} ns of work per request (a token bucket taken, measured in-process)\n\n`,
  );
}
