import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as pause } from 'node:timers/promises';
import { Client } from 'pg';
import { freePort } from '../../src/common/net';
import { runMigrations } from '../../src/database/data-source';
import { CONNECTION_TIMEOUT_MS } from '../../src/database/database.module';
import { RunningPostgres, startEmbeddedPostgres } from '../../src/database/embedded-postgres';
import type { CreatedOrganization } from '../../src/organizations/organizations.service';
import { newTenant, startTestApp, TestApp } from '../helpers/app';
import { waitFor } from '../helpers/poll';
import { Receiver } from '../webhooks/receiver';

/**
 * PostgreSQL stopped for ten seconds under load (creates and pays), then started again, with the
 * service running throughout against a server of this suite's own. While it is away every route
 * and page answers 503 `Service unavailable` with Retry-After at once (never 500, never a hang);
 * once it is back the same process serves again, its jobs and LISTEN resume, nothing it
 * acknowledged is lost and no webhook event reaches the merchant twice.
 */

const OUTAGE_MS = 10_000;
const LOAD_WORKERS = 4;

interface Answer {
  path: string;
  status: number;
  text: string;
  contentType: string | null;
  retryAfter: string | null;
  at: number;
  ms: number;
}

let dataDir: string;
let port: number;
let pg: RunningPostgres;
let t: TestApp | undefined;
let receiver: Receiver | undefined;

const startPostgres = (ephemeral: boolean) =>
  startEmbeddedPostgres({ dataDir, port, database: 'khoums_outage', ephemeral });

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'khoums-outage-'));
  chmodSync(dataDir, 0o755); // the postgres user runs the server when the tests run as root
  port = await freePort();
  pg = await startPostgres(false);
  await runMigrations(pg.url);
});

afterAll(async () => {
  await t?.close();
  await receiver?.stop();
  await pg?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

async function rows<T>(text: string, values: unknown[] = []): Promise<T[]> {
  const client = new Client({ connectionString: pg.url });
  await client.connect();
  try {
    return (await client.query(text, values)).rows as T[];
  } finally {
    await client.end();
  }
}

it('answers 503 with Retry-After while PostgreSQL is stopped, then serves again without a restart, losing nothing', async () => {
  receiver = new Receiver();
  await receiver.start();
  t = await startTestApp(
    {
      WEBHOOK_WORKER: 'true',
      WEBHOOK_POLL_MS: '1000',
      WEBHOOK_RETRY_SCHEDULE_MS: '500,500,500',
      // A slow answer on this shared machine must not count as a failed attempt (retried: sent twice).
      WEBHOOK_TIMEOUT_MS: '10000',
      // Longer than the outage: an attempt made just before it must be recorded once it is back, not made again.
      WEBHOOK_LEASE_MS: '25000',
      RECONCILE_INTERVAL_MS: '500',
      BILLING_SCHEDULER: 'true',
    },
    pg.url,
  );
  const base = `http://127.0.0.1:${(t.app.getHttpServer().address() as { port: number }).port}`;
  const org: CreatedOrganization = await newTenant(t);
  await t.http
    .post('/api/v1/webhook-endpoints')
    .set('Authorization', org.sandbox.secretKey)
    .send({ url: receiver.url })
    .expect(200);
  const methods = await t.http
    .get('/api/v1/payment-methods')
    .set('Authorization', org.sandbox.secretKey)
    .expect(200);
  const masrivi = (methods.body.data as { type: string; id: string }[]).find((m) => m.type === 'masrivi')!.id;

  const answers: Answer[] = [];
  const created: string[] = [];
  const paid: string[] = [];
  const call = async (
    method: string,
    path: string,
    body?: object,
    headers: Record<string, string> = {},
  ): Promise<{ status: number; json: () => { data: { id: string } } }> => {
    const started = Date.now();
    let res: Response;
    try {
      res = await fetch(base + path, {
        method,
        headers: { ...(body ? { 'content-type': 'application/json' } : {}), ...headers },
        body: body ? JSON.stringify(body) : undefined,
        redirect: 'manual',
        signal: AbortSignal.timeout(15_000),
      });
    } catch (err) {
      // A hang (or a dropped connection) is an answer too: recorded as status 0, which fails the test.
      answers.push({
        path,
        status: 0,
        text: String(err),
        contentType: null,
        retryAfter: null,
        at: started,
        ms: Date.now() - started,
      });
      return { status: 0, json: () => ({ data: { id: '' } }) };
    }
    const text = await res.text();
    answers.push({
      path,
      status: res.status,
      text,
      contentType: res.headers.get('content-type'),
      retryAfter: res.headers.get('retry-after'),
      at: started,
      ms: Date.now() - started,
    });
    return { status: res.status, json: () => JSON.parse(text) };
  };

  let loading = true;
  const load = async (worker: number) => {
    for (let i = 0; loading; i++) {
      const transactionId = `outage-${worker}-${i}`;
      const c = await call(
        'POST',
        '/api/v1/payment-request',
        { transactionId, amount: 1500 },
        {
          authorization: org.sandbox.secretKey,
        },
      );
      if (c.status === 200) {
        created.push(c.json().data.id);
        const p = await call(
          'POST',
          '/api/v1/payment',
          { transactionId, phoneNumber: '22222222', passCode: '', configurationId: masrivi },
          { authorization: org.sandbox.publishableKey },
        );
        if (p.status === 200) paid.push(p.json().data.id);
      } else {
        // A client backing off a little after a refusal, so the load does not spin on this shared machine.
        await pause(50);
      }
    }
  };
  const workers = Array.from({ length: LOAD_WORKERS }, (_, n) => load(n));
  let restartedAt = 0;
  let back: Answer | undefined;
  try {
    await waitFor(() => paid.length >= 20, 'payments before the outage', 30_000);
    const stoppedAt = Date.now();
    await pg.stop(); // a fast shutdown: sessions are ended (57P01), then connections are refused
    await waitFor(() => answers.some((a) => a.at > stoppedAt && a.status === 503), 'a 503 during the outage');

    // Probes and pages while it is away.
    expect((await call('GET', '/health')).status).toBe(200);
    expect((await call('GET', '/health/ready')).status).toBe(503);
    expect((await call('GET', `/checkout/${crypto.randomUUID()}`)).status).toBe(503);
    expect(
      (await call('GET', '/dashboard', undefined, { cookie: `khoums_session=${'x'.repeat(43)}` })).status,
    ).toBe(503);
    expect(
      (await call('GET', '/api/v1/payment-request', undefined, { authorization: org.sandbox.secretKey }))
        .status,
    ).toBe(503);

    await waitFor(() => Date.now() - stoppedAt >= OUTAGE_MS, 'the end of the outage', OUTAGE_MS + 5_000);
    pg = await startPostgres(true);
    restartedAt = Date.now();
    back = await waitFor(
      () =>
        answers.find((a) => a.at >= restartedAt && a.path === '/api/v1/payment-request' && a.status === 200),
      'a payment request created after the restart',
      10_000,
    );
    const paidBefore = paid.length;
    await waitFor(() => paid.length >= paidBefore + 20, 'payments after the restart', 30_000);
  } finally {
    loading = false;
    await Promise.all(workers);
  }

  // Never a 500, never a hang: 200, or 503 with its text and Retry-After.
  const statuses = new Set(
    answers.map((a) => `${a.path.split('?')[0].replace(/[0-9a-f-]{36}$/, ':id')} ${a.status}`),
  );
  expect([...statuses].filter((s) => !/ (200|503)$/.test(s) && !s.startsWith('GET /health '))).toEqual([]);
  const refusals = answers.filter((a) => a.status === 503 && a.path !== '/health/ready');
  expect(refusals.length).toBeGreaterThan(0);
  for (const a of refusals) {
    expect({ text: a.text, type: a.contentType, retryAfter: a.retryAfter }).toEqual({
      text: 'Service unavailable',
      type: 'text/plain; charset=utf-8',
      retryAfter: '5',
    });
  }
  // A request that waits for a connection gives up at the pool's connect time-out: the slowest answer
  // is that wait and the answer after it, which a loaded machine (load 20 seen) stretches by seconds.
  // A hang would last until the fetch's 15 s abort (status 0, refused above).
  expect(Math.max(...answers.map((a) => a.ms))).toBeLessThan(CONNECTION_TIMEOUT_MS + 5_000);
  expect(back.at - restartedAt).toBeLessThan(10_000);

  // Nothing acknowledged is lost.
  const [{ n: createdFound }] = await rows<{ n: number }>(
    'SELECT count(*)::int AS n FROM payment_requests WHERE id = ANY($1::uuid[])',
    [created],
  );
  expect(createdFound).toBe(created.length);
  const [{ n: paidFound }] = await rows<{ n: number }>(
    `SELECT count(*)::int AS n FROM payments WHERE id = ANY($1::uuid[]) AND status = 'completed'`,
    [paid],
  );
  expect(paidFound).toBe(paid.length);

  // Every event reaches the receiver once: the worker resumed, no attempt was made twice.
  const deliveries = await waitFor(
    async () => {
      const [d] = await rows<{ total: number; succeeded: number }>(
        `SELECT count(*)::int AS total, (count(*) FILTER (WHERE status = 'succeeded'))::int AS succeeded
           FROM webhook_deliveries`,
      );
      return d.total > 0 && d.total === d.succeeded ? d.total : undefined;
    },
    'every event delivered',
    40_000,
  );
  expect(deliveries).toBeGreaterThanOrEqual(created.length);
  const hits = new Map<string, number>();
  for (const h of receiver.hits)
    hits.set(String(h.headers['webhook-id']), (hits.get(String(h.headers['webhook-id'])) ?? 0) + 1);
  expect(hits.size).toBe(deliveries);
  expect([...hits].filter(([, n]) => n > 1)).toEqual([]);

  // One line when the database went, one when it came back; no job logged each failed poll.
  const logged = (text: string) => t!.logs.filter((l) => l.includes(text)).length;
  // A line when the database goes and one when it returns, never one per request or poll (the
  // jobs poll every second or faster through 10 s). A restart may flap: a statement answered while
  // the server still finishes starting, so an outage may log its pair of lines more than once.
  const outages = logged('PostgreSQL is unreachable');
  expect(outages).toBeGreaterThanOrEqual(1);
  expect(outages).toBeLessThanOrEqual(5);
  expect(logged('PostgreSQL is reachable again')).toBe(outages);
  expect(logged('Claiming webhook deliveries failed')).toBe(0);
  // No job's own failure line (`<job> failed; tried again on the next tick`): the runner's outage line says it.
  expect(logged('failed; tried again on the next tick')).toBe(0);
  expect(logged('unhandled error')).toBe(0);
}, 150_000);
