import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { freePort } from '../../src/common/net';
import { runMigrations } from '../../src/database/data-source';
import { RunningPostgres, startEmbeddedPostgres } from '../../src/database/embedded-postgres';
import { newTenant, startTestApp, TestApp } from '../helpers/app';
import { waitFor } from '../helpers/poll';
import { parentOf, processTree, signalAll } from '../helpers/processes';

/**
 * A PostgreSQL that freezes (every process of it SIGSTOPped: a machine that hangs, a leader
 * partitioned away) keeps its sockets open and silent: no error ever comes, and the connections
 * the pool holds would wait for ever. With DB_QUERY_TIMEOUT_MS a statement gives up, its
 * connection is dropped and the request answers 503 with Retry-After, well within
 * BANK_TIMEOUT_MS; once the server wakes up the same process serves again. No proxy in between
 * here (deploy/ha's HAProxy would cut the connections itself): this is the service's own guard.
 */

const QUERY_TIMEOUT_MS = 3_000;
const BANK_TIMEOUT_MS = 15_000;

let dataDir: string;
let pg: RunningPostgres;
let t: TestApp | undefined;
let frozen: number[] = [];

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'khoums-frozen-'));
  chmodSync(dataDir, 0o755); // the postgres user runs the server when the tests run as root
  pg = await startEmbeddedPostgres({
    dataDir,
    port: await freePort(),
    database: 'khoums_frozen',
    ephemeral: true,
  });
  await runMigrations(pg.url);
});

afterAll(async () => {
  signalAll(frozen, 'SIGCONT');
  await t?.close();
  await pg?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

/** The server's processes: the postmaster (a backend's parent) and everything under it. */
async function serverProcesses(): Promise<number[]> {
  const c = new Client({ connectionString: pg.url });
  await c.connect();
  try {
    const [{ pid }] = (await c.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows;
    return processTree([parentOf(pid)]);
  } finally {
    await c.end();
  }
}

it('answers 503 with Retry-After within DB_QUERY_TIMEOUT_MS while PostgreSQL is frozen, then serves again', async () => {
  t = await startTestApp({ DB_QUERY_TIMEOUT_MS: String(QUERY_TIMEOUT_MS) }, pg.url);
  const org = await newTenant(t);
  const create = (n: number) =>
    t!.http
      .post('/api/v1/payment-request')
      .set('Authorization', org.sandbox.secretKey)
      .send({ transactionId: `frozen-${n}`, amount: 1500 });
  // Connections in the pool, as a serving instance has them.
  await Promise.all([0, 1, 2, 3].map(async (n) => expect((await create(n)).status).toBe(200)));

  frozen = await serverProcesses();
  signalAll(frozen, 'SIGSTOP');
  // Woken in any case (a hung request would keep the test from reaching its own SIGCONT).
  const wake = setTimeout(() => signalAll(frozen, 'SIGCONT'), 30_000);
  const answers = await Promise.all(
    [10, 11, 12, 13, 14, 15].map(async (n) => {
      const started = Date.now();
      const res = await create(n);
      return { status: res.status, retryAfter: res.headers['retry-after'], ms: Date.now() - started };
    }),
  );
  for (const a of answers) {
    expect({ status: a.status, retryAfter: a.retryAfter }).toEqual({ status: 503, retryAfter: '5' });
    expect(a.ms).toBeLessThan(BANK_TIMEOUT_MS);
  }

  clearTimeout(wake);
  signalAll(frozen, 'SIGCONT');
  frozen = [];
  let n = 100;
  await waitFor(
    async () => (await create(n++)).status === 200,
    'a payment request once PostgreSQL wakes up',
    20_000,
  );
}, 90_000);
