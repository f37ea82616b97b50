import 'reflect-metadata';
import autocannon from 'autocannon';
import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { chmodSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { loadConfig } from '../src/config/config';
import { runMigrations } from '../src/database/data-source';
import { Db } from '../src/database/db';
import { encodeCursor } from '../src/database/keyset';
import { CustomersRepository } from '../src/customers/customers.repository';
import type { Sql } from '../src/database/sql';
import { InvoicesRepository } from '../src/invoices/invoices.repository';
import { SubscriptionsRepository } from '../src/subscriptions/subscriptions.repository';
import { createPool } from '../src/database/database.module';
import { startEmbeddedPostgres } from '../src/database/embedded-postgres';
import type { CreatedOrganization } from '../src/organizations/organizations.service';
import { freePort } from '../src/common/net';
import { TokenBuckets } from '../src/rate-limits/token-buckets';
import type { Pool } from 'pg';
import { dashboardScenario } from './dashboard';

// The services the bench starts use an external database, where the documents' key is required.
process.env.DOCUMENTS_ENCRYPTION_KEY ??= randomBytes(32).toString('hex');

/**
 * `npm run bench`: Khoums's hot paths against a bare node:http + pg server doing the same work,
 * on one fresh embedded PostgreSQL, one after the other on this machine. Prints req/s, p50/p99
 * and the ratio to the ceiling. BENCH_SECONDS (default 10), BENCH_CONNECTIONS (default 50), and
 * BENCH_ONLY=lookup,pay,webhooks,page,dashboard,key,limiter,billing to run some scenarios only
 * (create always runs, as pay's ceiling, unless billing is the only one asked for). `dashboard` is
 * the dashboard's search over 1,000,000 payment requests (bench/dashboard.ts); `billing` the billing
 * runs over BENCH_BILLING_SIZES (default 10000,100000) due subscriptions and the billing lists.
 *
 * The Khoums measured against the ceilings runs with its rate limits off: each scenario is driven
 * from one API key and one address, far above the limits' defaults. The `limiter` scenario measures
 * the limiter at its default settings, with the load spread over keys so none is limited.
 */

const ROOT = resolve(__dirname, '..', '..');
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);

async function startProcess(script: string, env: NodeJS.ProcessEnv, ready: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, [script], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  await new Promise<void>((ok, fail) => {
    child.stdout.on('data', (d: Buffer) => {
      // Keep the tail: start-up logs may run long before the line that says the process is ready.
      out = (out + d.toString()).slice(-10_000);
      if (out.includes(ready)) ok();
    });
    child.once('exit', (code) => fail(new Error(`${script} exited (${code}) before it was ready:\n${out}`)));
  });
  child.stdout.resume();
  return child;
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}

interface Measure {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
  requests: number;
}

let unique = 0;
async function load(port: number, request: autocannon.Request, seconds = SECONDS): Promise<Measure> {
  const result = await autocannon({
    url: `http://127.0.0.1:${port}`,
    connections: CONNECTIONS,
    duration: seconds,
    requests: [request],
  });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    requests: result.requests.total,
  };
}

/** CPU time (ms) a process has used so far, from /proc (Linux); 0 once it is gone. */
function cpuMs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
  } catch {
    return 0;
  }
}
const CLOCK_TICKS = 100;

/** A measure with the CPU each request cost the service's process and PostgreSQL (all its processes). */
interface Costed extends Measure {
  khoumsUs: number;
  postgresUs: number;
}

/**
 * `load`, with the CPU time spent meanwhile by the process on `pid` and by PostgreSQL, per
 * request: on a machine shared with other work, CPU per request is steadier than requests per
 * second, and on a dedicated one throughput is its inverse.
 */
async function costed(
  port: number,
  pid: number,
  pool: Pool,
  request: autocannon.Request,
  seconds: number,
): Promise<Costed> {
  const pgPids = async () =>
    (await pool.query<{ pid: number }>('SELECT pid FROM pg_stat_activity')).rows.map((r) => r.pid);
  const before = new Map((await pgPids()).map((p) => [p, cpuMs(p)]));
  const khoumsBefore = cpuMs(pid);
  const m = await load(port, request, seconds);
  const khoumsMs = cpuMs(pid) - khoumsBefore;
  let postgresMs = 0;
  // A backend that ended meanwhile (an idle pool connection closed) is not counted.
  for (const p of await pgPids()) postgresMs += cpuMs(p) - (before.get(p) ?? 0);
  const per = (ms: number) => (ms * 1000) / Math.max(1, m.requests);
  return { ...m, khoumsUs: per(khoumsMs), postgresUs: per(postgresMs) };
}

const fmtCost = (m: Costed) =>
  `${fmt(m)}   CPU/request: khoums ${m.khoumsUs.toFixed(0)} µs, postgres ${m.postgresUs.toFixed(0)} µs`;

/** What B costs more than A: throughput lost and CPU added per request, against a target. */
function verdict(r: { throughput: number; cpu: number; a: Costed; b: Costed }, target: number): string {
  const lost = 1 - r.throughput;
  const added = r.cpu - 1;
  const us = (f: (m: Costed) => number) =>
    `${f(r.b) - f(r.a) >= 0 ? '+' : ''}${(f(r.b) - f(r.a)).toFixed(0)} µs`;
  return (
    `  cost    ${(lost * 100).toFixed(1)}% of throughput, ${(added * 100).toFixed(1)}% more CPU per request ` +
    `(khoums ${us((m) => m.khoumsUs)}, postgres ${us((m) => m.postgresUs)}); median of 5 interleaved rounds; ` +
    `target <= ${target * 100}%: ${Math.max(lost, added) <= target ? 'met' : added <= target ? 'met in CPU, not in throughput' : 'NOT met'}\n`
  );
}

const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];

/**
 * A against B on one machine whose load changes under us: after a warm-up of each, rounds of A and
 * B in alternating order; per round the throughput ratio B/A and the CPU ratio; the median of the rounds.
 */
async function compare(
  a: { port: number; pid: number; request: autocannon.Request },
  b: { port: number; pid: number; request: autocannon.Request },
  pool: Pool,
  rounds = 5,
): Promise<{ a: Costed; b: Costed; throughput: number; cpu: number }> {
  const seconds = Math.max(3, Math.round(SECONDS / 2));
  await load(a.port, a.request, 3);
  await load(b.port, b.request, 3);
  const results: Array<{ a: Costed; b: Costed }> = [];
  for (let i = 0; i < rounds; i++) {
    // A then B, then B then A: a drift of the machine's load favours neither.
    if (i % 2 === 0) {
      const ra = await costed(a.port, a.pid, pool, a.request, seconds);
      results.push({ a: ra, b: await costed(b.port, b.pid, pool, b.request, seconds) });
    } else {
      const rb = await costed(b.port, b.pid, pool, b.request, seconds);
      results.push({ a: await costed(a.port, a.pid, pool, a.request, seconds), b: rb });
    }
  }
  const total = (m: Costed) => m.khoumsUs + m.postgresUs;
  const throughput = median(results.map((r) => r.b.rps / r.a.rps));
  const cpu = median(results.map((r) => total(r.b) / total(r.a)));
  const mid = results.find((r) => r.b.rps / r.a.rps === throughput)!;
  return { a: mid.a, b: mid.b, throughput, cpu };
}

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
 * POST /payment-request with a new transactionId each time; `keys` are used in turn; `idempotent`
 * adds an Idempotency-Key, a new one per request (first requests: what the key adds to a create).
 */
function createRequest(keys: string | string[], label: string, idempotent = false): autocannon.Request {
  const all = typeof keys === 'string' ? [keys] : keys;
  return {
    method: 'POST',
    path: '/api/v1/payment-request',
    headers: { authorization: all[0], 'content-type': 'application/json' },
    setupRequest: (req) => {
      const n = ++unique;
      return {
        ...req,
        headers: {
          ...req.headers,
          authorization: all[n % all.length],
          ...(idempotent
            ? { 'idempotency-key': `${label}-${n}-${Math.random().toString(36).slice(2)}` }
            : {}),
        },
        body: JSON.stringify({
          transactionId: `${label}-${n}-${Math.random().toString(36).slice(2)}`,
          amount: 1500,
        }),
      };
    },
  };
}

function lookupRequest(key: string, transactionIds: string[]): autocannon.Request {
  let i = 0;
  return {
    method: 'GET',
    headers: { authorization: key },
    setupRequest: (req) => ({
      ...req,
      path: `/api/v1/payment-request/by-transaction/${transactionIds[i++ % transactionIds.length]}`,
    }),
  };
}

const fmt = (m: Omit<Measure, 'requests'>) =>
  `${m.rps.toFixed(0).padStart(7)} req/s   p50 ${String(m.p50).padStart(4)} ms   p99 ${String(m.p99).padStart(4)} ms` +
  (m.errors || m.non2xx ? `   (errors ${m.errors}, non-2xx ${m.non2xx})` : '');

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'khoums-bench-'));
  chmodSync(dataDir, 0o755);
  const pg = await startEmbeddedPostgres({
    dataDir,
    port: await freePort(),
    database: 'khoums_bench',
    ephemeral: true,
  });
  const children: ChildProcess[] = [];
  let pool: Pool | undefined;
  try {
    await runMigrations(pg.url);
    // The operator's command creates the organization, as it would for a merchant.
    const org = JSON.parse(
      execFileSync(
        process.execPath,
        [
          join(__dirname, '../src/cli/main.js'),
          'org:create',
          '--name',
          'Bench',
          '--email',
          'bench@khoums.local',
          '--json',
        ],
        {
          env: { ...process.env, DATABASE_URL: pg.url },
        },
      ).toString(),
    ) as CreatedOrganization;
    const ds = createPool(pg.url, 2);
    const key = org.sandbox.secretKey;
    const lookupIds = Array.from({ length: 1000 }, (_, i) => `lookup-${i}`);
    for (const id of lookupIds) {
      await ds.query(
        `INSERT INTO payment_requests (id, environment_id, transaction_id, amount) VALUES (gen_random_uuid(), $1, $2, 100)`,
        [org.sandbox.environmentId, id],
      );
    }
    await ds.end();

    const khoumsPort = await freePort();
    const barePort = await freePort();
    const khoumsEnv = {
      DATABASE_URL: pg.url,
      LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'info',
      LOG_FORMAT: 'json',
      DEMO_ORG: 'false',
      BILLING_SCHEDULER: 'false',
    };
    const khoums = await startProcess(
      'dist/src/main.js',
      { ...khoumsEnv, PORT: String(khoumsPort), RATE_LIMIT_PER_KEY: '0', RATE_LIMIT_PER_IP: '0' },
      'Khoums is listening',
    );
    children.push(khoums);
    const bare = await startProcess(
      'dist/bench/bare-server.js',
      { DATABASE_URL: pg.url, PORT: String(barePort) },
      'listening',
    );
    children.push(bare);

    process.stdout.write(
      `\nKhoums bench: ${CONNECTIONS} connections, ${SECONDS} s per scenario, fresh embedded PostgreSQL\n\n`,
    );
    const rows: string[] = [];
    const scenario = async (
      name: string,
      khoumsReq: autocannon.Request,
      bareReq: autocannon.Request,
    ): Promise<Measure> => {
      await load(khoumsPort, khoumsReq, 2); // warm-up
      await load(barePort, bareReq, 2);
      const k = await load(khoumsPort, khoumsReq);
      const b = await load(barePort, bareReq);
      rows.push(
        `${name}\n  khoums  ${fmt(k)}\n  ceiling ${fmt(b)}\n  ratio   ${(k.rps / b.rps).toFixed(2)} of the ceiling` +
          `   (target >= 0.70, p99 <= 25 ms: ${k.rps / b.rps >= 0.7 && k.p99 <= 25 ? 'met' : 'NOT met'})\n`,
      );
      process.stdout.write(rows[rows.length - 1] + '\n');
      return b;
    };
    const only = process.env.BENCH_ONLY?.split(',');
    const wanted = (name: string) => !only || only.includes(name);
    const billingOnly = only?.length === 1 && only[0] === 'billing';
    const createCeiling = billingOnly
      ? undefined
      : await scenario('POST /payment-request', createRequest(key, 'k'), createRequest(key, 'b'));
    pool = createPool(pg.url, 2);
    if (wanted('key')) {
      // The same process, with and without an Idempotency-Key (a new one per request).
      const r = await compare(
        { port: khoumsPort, pid: khoums.pid!, request: createRequest(key, 'plain') },
        { port: khoumsPort, pid: khoums.pid!, request: createRequest(key, 'keyed', true) },
        pool,
      );
      process.stdout.write(
        `POST /payment-request with an Idempotency-Key (a new key per request) against the same without\n` +
          `  without ${fmtCost(r.a)}\n  with    ${fmtCost(r.b)}\n` +
          verdict(r, 0.15) +
          '\n',
      );
    }
    if (wanted('limiter')) {
      // Three new processes started together, alike but for the limits: two with the limits off
      // (their difference is the machine's noise) and one with the limits at their defaults.
      // 64 keys in turn, so that no key reaches its limit.
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
    if (wanted('lookup')) {
      await scenario(
        'GET /payment-request/by-transaction/:id',
        lookupRequest(key, lookupIds),
        lookupRequest(key, lookupIds),
      );
    }
    if (wanted('pay') && createCeiling) await payScenario(khoumsPort, barePort, pg.url, org, createCeiling);
    if (wanted('webhooks')) await webhookScenario(khoumsPort, pg.url, org, children);
    if (wanted('dashboard')) {
      const ds = createPool(pg.url, 2);
      try {
        await dashboardScenario(khoumsPort, ds, org, fmt);
      } finally {
        await ds.end();
      }
    }
    if (wanted('page')) {
      // The hosted page: Khoums only (the ceiling server has no pages). One open session, rendered in
      // French (the session read with its merchant, the methods, Handlebars, a CSRF cookie per visit).
      const created = await fetch(`http://127.0.0.1:${khoumsPort}/api/v1/checkout-session`, {
        method: 'POST',
        headers: { authorization: key, 'content-type': 'application/json' },
        body: JSON.stringify({
          transactionId: `bench-page-${Date.now()}`,
          amount: 1500,
          phoneNumber: '22123456',
          expiresInMinutes: 1440,
        }),
      });
      if (!created.ok)
        throw new Error(`bench: create checkout session: ${created.status} ${await created.text()}`);
      const { data: session } = (await created.json()) as { data: { id: string } };
      const page: autocannon.Request = {
        method: 'GET',
        path: `/checkout/${session.id}`,
        headers: { 'accept-language': 'fr' },
      };
      await load(khoumsPort, page, 2); // warm-up
      const p = await load(khoumsPort, page);
      process.stdout.write(`GET /checkout/:id (hosted page renders)\n  khoums  ${fmt(p)}\n\n`);
    }
    if (wanted('billing')) await billingScenario(pg.url, children);
  } finally {
    await pool?.end();
    for (const c of children) await stop(c);
    await pg.stop();
  }
}

/**
 * Pay (sandbox Masrivi, the bank answers at once): every request pays a fresh unpaid payment
 * request with the publishable key. Compared with the create ceiling (a bare server's single
 * insert), since pay does strictly more: two transactions around the bank call.
 */
async function payScenario(
  port: number,
  barePort: number,
  url: string,
  org: CreatedOrganization,
  ceiling: Measure,
): Promise<void> {
  const ds = createPool(url, 2);
  const total = 120_000;
  await ds.query(
    `INSERT INTO payment_requests (id, environment_id, transaction_id, amount)
     SELECT gen_random_uuid(), $1, 'pay-' || i, 1500 FROM generate_series(1, $2) i`,
    [org.sandbox.environmentId, total],
  );
  const {
    rows: [{ id: methodId }],
  } = await ds.query(`SELECT id FROM payment_methods WHERE environment_id = $1 AND type = 'masrivi'`, [
    org.sandbox.environmentId,
  ]);
  await ds.end();
  let next = 0;
  const pay: autocannon.Request = {
    method: 'POST',
    path: '/api/v1/payment',
    headers: { authorization: org.sandbox.publishableKey, 'content-type': 'application/json' },
    setupRequest: (req) => ({
      ...req,
      body: JSON.stringify({
        transactionId: `pay-${++next}`,
        phoneNumber: '22222222',
        passCode: '',
        configurationId: methodId,
      }),
    }),
  };
  await load(port, pay, 2);
  const m = await load(port, pay);
  await load(barePort, pay, 2);
  const b = await load(barePort, pay);
  if (next > total) throw new Error('pay scenario ran out of payment requests: raise its total');
  const ratio = m.rps / ceiling.rps;
  process.stdout.write(
    `POST /payment (sandbox, bank answers at once)\n  khoums  ${fmt(m)}\n  bare    ${fmt(b)}   (the same four statements)\n` +
      `  ratio   ${ratio.toFixed(2)} of the create ceiling (target >= 0.50: ${ratio >= 0.5 ? 'met' : 'NOT met'}),` +
      ` ${(m.rps / b.rps).toFixed(2)} of a bare server's pay\n\n`,
  );
}

/**
 * Webhooks: one endpoint on a receiver in its own process. Throughput: a burst of events committed
 * at once, deliveries/s until the last arrives. Latency: events committed one by one at a steady
 * rate, commit-to-arrival p50/p99.
 */
async function webhookScenario(
  port: number,
  url: string,
  org: CreatedOrganization,
  children: ChildProcess[],
): Promise<void> {
  const receiverPort = await freePort();
  children.push(
    await startProcess('dist/bench/webhook-receiver.js', { PORT: String(receiverPort) }, 'listening'),
  );
  const receiver = `http://127.0.0.1:${receiverPort}`;
  const created = await fetch(`http://127.0.0.1:${port}/api/v1/webhook-endpoints`, {
    method: 'POST',
    headers: { authorization: org.sandbox.secretKey, 'content-type': 'application/json' },
    body: JSON.stringify({ url: `${receiver}/hook`, events: ['payment-request-created'] }),
  });
  if (created.status !== 200) throw new Error(`webhook endpoint: ${created.status} ${await created.text()}`);
  const stats = async () =>
    (await (await fetch(`${receiver}/stats`)).json()) as { count: number; arrivals: Record<string, number> };
  const waitFor = async (n: number, ms: number) => {
    const deadline = Date.now() + ms;
    for (;;) {
      const s = await stats();
      if (s.count >= n || Date.now() > deadline) return s;
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  const ds = createPool(url, 4);
  const insertEvents = (n: number) =>
    ds.query(
      `INSERT INTO events (id, organization_id, environment_id, kind, data)
       SELECT gen_random_uuid(), $1, $2, 'payment-request-created', jsonb_build_object('transactionId', 'wh-' || i, 'amount', 1500)
         FROM generate_series(1, $3) i`,
      [org.organizationId, org.sandbox.environmentId, n],
    );

  // Throughput
  const burst = 10_000;
  await insertEvents(500); // warm-up
  await waitFor(500, 30_000);
  await fetch(`${receiver}/reset`, { method: 'POST' });
  const t0 = Date.now();
  await insertEvents(burst);
  const got = await waitFor(burst, 120_000);
  const seconds = (Math.max(...Object.values(got.arrivals)) - t0) / 1000;
  const perSecond = got.count / seconds;

  // Latency: 1,000 events committed one by one, 200 per second.
  await fetch(`${receiver}/reset`, { method: 'POST' });
  const committed = new Map<string, number>();
  for (let i = 0; i < 1000; i++) {
    const {
      rows: [{ id }],
    } = await ds.query(
      `INSERT INTO events (id, organization_id, environment_id, kind, data)
       VALUES (gen_random_uuid(), $1, $2, 'payment-request-created', '{}') RETURNING id`,
      [org.organizationId, org.sandbox.environmentId],
    );
    committed.set(id, Date.now());
    await new Promise((r) => setTimeout(r, 5));
  }
  const arrived = await waitFor(1000, 60_000);
  await ds.end();
  const lat = [...committed].map(([id, t]) => (arrived.arrivals[id] ?? Infinity) - t).sort((a, b) => a - b);
  const pct = (p: number) => lat[Math.min(lat.length - 1, Math.floor((p / 100) * lat.length))];
  const ok = perSecond >= 1000 && pct(99) <= 1000;
  process.stdout.write(
    `Webhook deliveries (one endpoint, receiver in its own process)\n` +
      `  burst   ${got.count}/${burst} delivered, ${perSecond.toFixed(0)} deliveries/s\n` +
      `  latency commit-to-arrival p50 ${pct(50)} ms   p99 ${pct(99)} ms   (${arrived.count}/1000 arrived)\n` +
      `  target  >= 1000 deliveries/s, p99 <= 1000 ms: ${ok ? 'met' : 'NOT met'}\n\n`,
  );
}

/** The operator's command: a new organization and its keys, as for a merchant. */
function createOrganization(url: string, name: string, email: string): CreatedOrganization {
  return JSON.parse(
    execFileSync(
      process.execPath,
      [join(__dirname, '../src/cli/main.js'), 'org:create', '--name', name, '--email', email, '--json'],
      { env: { ...process.env, DATABASE_URL: url } },
    ).toString(),
  ) as CreatedOrganization;
}

/** Peak resident memory of a process while `work` runs (sampled every 25 ms), in MB, and its result. */
async function peakRss<T>(pid: number, work: () => Promise<T>): Promise<{ result: T; peakMb: number }> {
  const rss = () => {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : 0;
  };
  let peak = rss();
  const timer = setInterval(() => (peak = Math.max(peak, rss())), 25);
  try {
    const result = await work();
    return { result, peakMb: Math.max(peak, rss()) };
  } finally {
    clearInterval(timer);
  }
}

/**
 * Billing: runs over BENCH_BILLING_SIZES (10,000 then 100,000) due subscriptions, each of its own
 * customer, on a Khoums instance of its own (fresh, so its memory is the run's), through POST
 * /sandbox/billing/run. Invoices per second, the instance's peak RSS, time(100k)/time(10k). Then
 * the list pages with the environment holding over 100,000 subscriptions and invoices, and the
 * plans PostgreSQL chose for them (docs/billing.md).
 */
async function billingScenario(url: string, children: ChildProcess[]): Promise<void> {
  const sizes = (process.env.BENCH_BILLING_SIZES ?? '10000,100000').split(',').map(Number);
  const org = createOrganization(url, 'Bench Billing', 'billing-bench@khoums.local');
  const env = org.sandbox.environmentId;
  const key = org.sandbox.secretKey;
  const ds = createPool(url, 2);
  const {
    rows: [{ id: productId }],
  } = await ds.query(
    `INSERT INTO products (id, organization_id, environment_id, name) VALUES (gen_random_uuid(), $1, $2, 'Abonnement') RETURNING id`,
    [org.organizationId, env],
  );
  const {
    rows: [{ id: priceId }],
  } = await ds.query(
    `INSERT INTO prices (id, organization_id, product_id, amount, interval) VALUES (gen_random_uuid(), $1, $2, 1500, 'monthly') RETURNING id`,
    [org.organizationId, productId],
  );
  /** `n` customers, each with a monthly subscription whose first period started an hour ago, unbilled. */
  const seed = async (n: number, label: string) => {
    await ds.query(
      `INSERT INTO customers (id, organization_id, external_user_id, phone)
       SELECT gen_random_uuid(), $1, $2 || '-' || i, '2' || lpad((i % 10000000)::text, 7, '0') FROM generate_series(1, $3) i`,
      [org.organizationId, label, n],
    );
    await ds.query(
      `INSERT INTO subscriptions (id, organization_id, environment_id, customer_id, price_id, status, started_at,
                                  billing_anchor, billing_interval, next_period, next_billing_date)
       SELECT gen_random_uuid(), $1, $2, c.id, $3, 'active', now() - interval '1 hour', now() - interval '1 hour', 'monthly', 0,
              now() - interval '1 hour'
         FROM customers c WHERE c.organization_id = $1 AND c.external_user_id LIKE $4 || '-%'`,
      [org.organizationId, env, priceId, label],
    );
    await ds.query('VACUUM ANALYZE customers, subscriptions');
  };

  const port = await freePort();
  const khoums = await startProcess(
    'dist/src/main.js',
    {
      DATABASE_URL: url,
      PORT: String(port),
      LOG_LEVEL: 'warn',
      LOG_FORMAT: 'json',
      DEMO_ORG: 'false',
      BILLING_SCHEDULER: 'false',
      WEBHOOK_WORKER: 'false',
      RECONCILE_INTERVAL_MS: '0',
      // One key and one address drive the lists, far above the limits' defaults.
      RATE_LIMIT_PER_KEY: '0',
      RATE_LIMIT_PER_IP: '0',
    },
    'Khoums is listening',
  );
  children.push(khoums);

  const config = loadConfig({});
  const explained: string[] = [];
  const explain = async (title: string, call: (db: Db) => Promise<unknown>) => {
    for (const statement of await statementsOf(call)) {
      const { text, values } = statement.compile();
      const { rows } = await ds.query(`EXPLAIN (ANALYZE, COSTS OFF) ${text}`, values);
      explained.push(
        `${title}\n${text.replace(/\s+/g, ' ').trim()}\n${rows.map((r: Record<string, string>) => '  ' + r['QUERY PLAN']).join('\n')}\n`,
      );
    }
  };

  const runs: { n: number; seconds: number; invoices: number; peakMb: number }[] = [];
  for (const n of sizes) {
    await seed(n, `run${n}`);
    if (n === sizes[sizes.length - 1])
      await explain(`The billing run: claiming a batch (${n} due)`, (db) =>
        new SubscriptionsRepository(db, config).claimDue(new Date(), 500, env),
      );
    const t0 = process.hrtime.bigint();
    const { result, peakMb } = await peakRss(khoums.pid!, async () => {
      const res = await fetch(`http://127.0.0.1:${port}/api/v1/sandbox/billing/run`, {
        method: 'POST',
        headers: { authorization: key },
      });
      if (!res.ok) throw new Error(`billing run: ${res.status} ${await res.text()}`);
      return ((await res.json()) as { data: { invoicesCreated: number } }).data;
    });
    const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
    if (result.invoicesCreated !== n)
      throw new Error(`billing run over ${n}: ${result.invoicesCreated} invoices`);
    runs.push({ n, seconds, invoices: result.invoicesCreated, peakMb });
  }
  await ds.query('VACUUM ANALYZE invoices, payment_requests, events, subscriptions');

  const lines = runs.map(
    (r) =>
      `  ${String(r.n).padStart(7)} due   ${r.seconds.toFixed(2).padStart(7)} s   ${(r.invoices / r.seconds).toFixed(0).padStart(6)} invoices/s   peak RSS ${r.peakMb.toFixed(0)} MB`,
  );
  const ratio = runs.length >= 2 ? runs[runs.length - 1].seconds / runs[0].seconds : NaN;
  const rate = Math.min(...runs.map((r) => r.invoices / r.seconds));
  const peak = Math.max(...runs.map((r) => r.peakMb));
  const met = rate >= 2000 && (Number.isNaN(ratio) || ratio <= 11) && peak < 300;
  process.stdout.write(
    `Billing run (POST /sandbox/billing/run, monthly subscriptions due, one invoice + payment request + 3 events each)\n` +
      `${lines.join('\n')}\n` +
      `  time(${runs[runs.length - 1]?.n})/time(${runs[0]?.n}) = ${ratio.toFixed(2)}` +
      `   (target >= 2000 invoices/s, ratio <= 11, RSS < 300 MB: ${met ? 'met' : 'NOT met'})\n\n`,
  );

  // Lists with the environment holding every subscription and invoice above.
  const {
    rows: [{ subscriptions, invoices }],
  } = await ds.query(
    `SELECT (SELECT count(*)::int FROM subscriptions WHERE environment_id = $1) AS subscriptions,
            (SELECT count(*)::int FROM invoices WHERE organization_id = $2) AS invoices`,
    [env, org.organizationId],
  );
  process.stdout.write(`Lists (${subscriptions} subscriptions, ${invoices} invoices in the environment)\n`);
  for (const path of [
    '/api/v1/payment-request',
    '/api/v1/subscriptions',
    '/api/v1/subscriptions?page=2500',
    '/api/v1/subscriptions?status=active',
    '/api/v1/invoices',
    '/api/v1/invoices?page=2500',
  ]) {
    const req: autocannon.Request = { method: 'GET', path, headers: { authorization: key } };
    await load(port, req, 2);
    process.stdout.write(`  GET ${path.replace('/api/v1', '').padEnd(32)} ${fmt(await load(port, req))}\n`);
  }
  process.stdout.write('\n');

  // The plans PostgreSQL chooses for the very statements the repositories send (docs/billing.md).
  const page = { page: 1, limit: 20, offset: 0 };
  const deep = { page: 2500, limit: 20, offset: 49_980 };
  const plans: [string, (db: Db) => Promise<unknown>][] = [
    ['GET /subscriptions', (db) => new SubscriptionsRepository(db, config).list(env, {}, page)],
    ['GET /subscriptions?page=2500', (db) => new SubscriptionsRepository(db, config).list(env, {}, deep)],
    [
      'GET /subscriptions?status=active',
      (db) => new SubscriptionsRepository(db, config).list(env, { status: 'active' }, page),
    ],
    [
      'GET /subscriptions?status=past_due',
      (db) => new SubscriptionsRepository(db, config).list(env, { status: 'past_due' }, page),
    ],
    ['GET /invoices', (db) => new InvoicesRepository(db, config).list(org.organizationId, {}, page)],
    [
      'GET /invoices?page=2500',
      (db) => new InvoicesRepository(db, config).list(org.organizationId, {}, deep),
    ],
    [
      'GET /invoices?subscriptionId=',
      async (db) => {
        const {
          rows: [{ id }],
        } = await ds.query('SELECT id FROM subscriptions WHERE environment_id = $1 LIMIT 1', [env]);
        return new InvoicesRepository(db, config).list(
          org.organizationId,
          { subscriptionId: id as string },
          page,
        );
      },
    ],
  ];
  // The dashboard's keyset pages over the same rows (docs/dashboard.md "Billing"): the first page,
  // a filter, and a page far down the list (after the cursor of the row half way through).
  const halfWay = async (table: 'invoices' | 'subscriptions') => {
    const {
      rows: [{ cursor }],
    } = await ds.query(
      `SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') || ',' || id AS cursor
         FROM ${table} WHERE environment_id = $1 ORDER BY created_at DESC, id DESC OFFSET $2 LIMIT 1`,
      [env, Math.floor((table === 'invoices' ? invoices : subscriptions) / 2)],
    );
    return encodeCursor(cursor as string);
  };
  const [invoiceCursor, subscriptionCursor] = [await halfWay('invoices'), await halfWay('subscriptions')];
  const keyset = { limit: 25 };
  plans.push(
    ['dashboard /invoices', (db) => new InvoicesRepository(db, config).search(env, {}, keyset)],
    [
      'dashboard /invoices?status=void (none)',
      (db) => new InvoicesRepository(db, config).search(env, { status: 'void' }, keyset),
    ],
    [
      'dashboard /invoices, half way down',
      (db) => new InvoicesRepository(db, config).search(env, {}, { ...keyset, after: invoiceCursor }),
    ],
    [
      'dashboard /subscriptions?status=active',
      (db) => new SubscriptionsRepository(db, config).search(env, { status: 'active' }, keyset),
    ],
    [
      'dashboard /subscriptions, half way down',
      (db) =>
        new SubscriptionsRepository(db, config).search(env, {}, { ...keyset, after: subscriptionCursor }),
    ],
    [
      'dashboard /customers?q=<phone>',
      (db) => new CustomersRepository(db).search(org.organizationId, { q: '20000042' }, keyset),
    ],
  );
  for (const [title, call] of plans) await explain(title, call);
  if (process.env.BENCH_EXPLAIN) process.stdout.write(explained.join('\n') + '\n');
  await ds.end();
}

/** The statements a repository call sends, captured instead of run. */
async function statementsOf(call: (db: Db) => Promise<unknown>): Promise<Sql[]> {
  const captured: Sql[] = [];
  const db = new Db(undefined as never);
  db.many = (s: Sql) => (captured.push(s), Promise.resolve([]));
  db.one = (s: Sql) => (captured.push(s), Promise.resolve({ total: 0 } as never));
  await call(db);
  return captured;
}

main().catch((err) => {
  process.stderr.write(`bench failed: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
