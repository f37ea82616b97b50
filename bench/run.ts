import 'reflect-metadata';
import autocannon from 'autocannon';
import { ChildProcess, spawn } from 'node:child_process';
import { chmodSync, mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { DataSource } from 'typeorm';
import { dataSourceOptions, runMigrations } from '../src/database/data-source';
import { startEmbeddedPostgres } from '../src/database/embedded-postgres';
import { ApiKeysService } from '../src/organizations/api-keys.service';
import { Sql } from '../src/database/sql';
import { OrganizationsService } from '../src/organizations/organizations.service';

/**
 * `npm run bench`: Khoums's hot paths against a bare node:http + pg server doing the same work,
 * on one fresh embedded PostgreSQL, one after the other on this machine. Prints req/s, p50/p99
 * and the ratio to the ceiling. BENCH_SECONDS (default 10) and BENCH_CONNECTIONS (default 50).
 */

const ROOT = resolve(__dirname, '..', '..');
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);

function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => ok(port));
    });
    s.on('error', fail);
  });
}

async function startProcess(script: string, env: NodeJS.ProcessEnv, ready: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, [script], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  await new Promise<void>((ok, fail) => {
    child.stdout.on('data', (d: Buffer) => {
      if (out.length < 10_000) out += d.toString();
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
  };
}

function createRequest(key: string, label: string): autocannon.Request {
  return {
    method: 'POST',
    path: '/api/v1/payment-request',
    headers: { authorization: key, 'content-type': 'application/json' },
    setupRequest: (req) => ({
      ...req,
      body: JSON.stringify({ transactionId: `${label}-${++unique}-${Math.random().toString(36).slice(2)}`, amount: 1500 }),
    }),
  };
}

function lookupRequest(key: string, transactionIds: string[]): autocannon.Request {
  let i = 0;
  return {
    method: 'GET',
    headers: { authorization: key },
    setupRequest: (req) => ({ ...req, path: `/api/v1/payment-request/by-transaction/${transactionIds[i++ % transactionIds.length]}` }),
  };
}

const fmt = (m: Measure) =>
  `${m.rps.toFixed(0).padStart(7)} req/s   p50 ${String(m.p50).padStart(4)} ms   p99 ${String(m.p99).padStart(4)} ms` +
  (m.errors || m.non2xx ? `   (errors ${m.errors}, non-2xx ${m.non2xx})` : '');

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'khoums-bench-'));
  chmodSync(dataDir, 0o755);
  const pg = await startEmbeddedPostgres({ dataDir, port: await freePort(), database: 'khoums_bench', ephemeral: true });
  const children: ChildProcess[] = [];
  try {
    await runMigrations(pg.url);
    const ds = await new DataSource(dataSourceOptions(pg.url, 2)).initialize();
    const org = await new OrganizationsService(ds, new ApiKeysService(ds, new Sql(ds))).create({ name: 'Bench', email: 'bench@khoums.local' });
    const key = org.sandbox.secretKey;
    const lookupIds = Array.from({ length: 1000 }, (_, i) => `lookup-${i}`);
    for (const id of lookupIds) {
      await ds.query(
        `INSERT INTO payment_requests (id, environment_id, transaction_id, amount) VALUES (gen_random_uuid(), $1, $2, 100)`,
        [org.sandbox.environmentId, id],
      );
    }
    await ds.destroy();

    const khoumsPort = await freePort();
    const barePort = await freePort();
    const khoums = await startProcess('dist/src/main.js', {
      DATABASE_URL: pg.url, PORT: String(khoumsPort), LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'info', DEMO_ORG: 'false',
    }, 'Khoums is listening');
    children.push(khoums);
    const bare = await startProcess('dist/bench/bare-server.js', { DATABASE_URL: pg.url, PORT: String(barePort) }, 'listening');
    children.push(bare);

    process.stdout.write(`\nKhoums bench: ${CONNECTIONS} connections, ${SECONDS} s per scenario, fresh embedded PostgreSQL\n\n`);
    const rows: string[] = [];
    const scenario = async (name: string, khoumsReq: autocannon.Request, bareReq: autocannon.Request) => {
      await load(khoumsPort, khoumsReq, 2); // warm-up
      await load(barePort, bareReq, 2);
      const k = await load(khoumsPort, khoumsReq);
      const b = await load(barePort, bareReq);
      rows.push(
        `${name}\n  khoums  ${fmt(k)}\n  ceiling ${fmt(b)}\n  ratio   ${(k.rps / b.rps).toFixed(2)} of the ceiling` +
          `   (target >= 0.70, p99 <= 25 ms: ${k.rps / b.rps >= 0.7 && k.p99 <= 25 ? 'met' : 'NOT met'})\n`,
      );
      process.stdout.write(rows[rows.length - 1] + '\n');
    };
    await scenario('POST /payment-request', createRequest(key, 'k'), createRequest(key, 'b'));
    await scenario('GET /payment-request/by-transaction/:id', lookupRequest(key, lookupIds), lookupRequest(key, lookupIds));

    // The hosted page: Khoums only (the ceiling server has no pages). One open session, rendered in
    // French (the session read with its merchant, the methods, Handlebars, a CSRF cookie per visit).
    const created = await fetch(`http://127.0.0.1:${khoumsPort}/api/v1/checkout-session`, {
      method: 'POST',
      headers: { authorization: key, 'content-type': 'application/json' },
      body: JSON.stringify({ transactionId: `bench-page-${Date.now()}`, amount: 1500, phoneNumber: '22123456', expiresInMinutes: 1440 }),
    });
    if (!created.ok) throw new Error(`bench: create checkout session: ${created.status} ${await created.text()}`);
    const { data: session } = (await created.json()) as { data: { id: string } };
    const page: autocannon.Request = { method: 'GET', path: `/checkout/${session.id}`, headers: { 'accept-language': 'fr' } };
    await load(khoumsPort, page, 2); // warm-up
    const p = await load(khoumsPort, page);
    rows.push(`GET /checkout/:id (hosted page renders)
  khoums  ${fmt(p)}
`);
    process.stdout.write(rows[rows.length - 1] + '\n');
  } finally {
    for (const c of children) await stop(c);
    await pg.stop();
  }
}

main().catch((err) => {
  process.stderr.write(`bench failed: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
