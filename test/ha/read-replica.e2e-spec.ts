import { ApplicationConfig } from '@nestjs/core';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import request from 'supertest';
import { runMigrations } from '../../src/database/data-source';
import { READ_LEADER_COOKIE } from '../../src/database/reads-replica';
import { freePort } from '../../src/common/net';
import { SESSION_COOKIE } from '../../src/dashboard/sessions.service';
import { newTenant, startTestApp, TestApp } from '../helpers/app';
import { DASHBOARD_ENV, DashboardBrowser, signedInOwner } from '../helpers/dashboard';
import { HaTopology, NodeName } from '../helpers/ha-topology';
import { waitFor } from '../helpers/poll';

/**
 * DATABASE_READ_URL on deploy/ha's topology (HAProxy's replica port, the synchronous standby):
 * the dashboard's lists and the API's CSV exports read the replica, a page after a write reads
 * the leader, a replica that does not answer sends the reads to the leader, and its lag is a metric.
 * Where a statement ran is read from the nodes' own statement logs (`log_statement = all`, set
 * through Patroni for this suite), by a marker that only that request sends.
 */

const METRICS_TOKEN = 'ha-metrics-token';
let ha: HaTopology | undefined;
let t: TestApp | undefined;

beforeAll(async () => {
  ha = await HaTopology.start();
  await runMigrations(ha.databaseUrl);
  await ha.setParameters({ log_statement: 'all' });
  t = await startTestApp(
    { ...DASHBOARD_ENV, DATABASE_READ_URL: ha.readUrl, DATABASE_READ_MAX_LAG_MS: '10000', METRICS_TOKEN },
    ha.databaseUrl,
  );
}, 300_000);

afterAll(async () => {
  await t?.close();
  await ha?.stop();
}, 120_000);

const marker = () => `rr${randomBytes(6).toString('hex')}`;

/** The nodes whose statement log shows `text` (a request's marker), once a node has logged it. */
async function nodesThatRan(text: string): Promise<NodeName[]> {
  const logged = (node: NodeName) => readFileSync(join(ha!.dir, `${node}.log`), 'utf8').includes(text);
  return waitFor(
    () => {
      const nodes = (['node1', 'node2'] as const).filter(logged);
      return nodes.length ? nodes : undefined;
    },
    `a node to log ${text}`,
    10_000,
  );
}

async function roles(): Promise<{ leader: NodeName; replica: NodeName }> {
  const leader = (await ha!.leader())!;
  return { leader, replica: ha!.other(leader) };
}

it("reads the dashboard's lists from the replica, and a page after a write from the leader", async () => {
  const org = await newTenant(t!);
  const browser = new DashboardBrowser(t!);
  const cookies = (await browser.signIn(org.email, org.password)).headers[
    'set-cookie'
  ] as unknown as string[];
  // The sign-in was a write: the browser reads the leader for a while.
  expect(cookies.some((c) => c.startsWith(`${READ_LEADER_COOKIE}=1`))).toBe(true);
  const { leader, replica } = await roles();

  // A browser whose last write is past (only its session cookie): the search runs on the replica.
  const session = cookies.find((c) => c.startsWith(`${SESSION_COOKIE}=`))!.split(';')[0];
  const onReplica = marker();
  const res = await request(t!.app.getHttpServer())
    .get(`/dashboard/payments?q=${onReplica}`)
    .set('cookie', session)
    .set('x-forwarded-for', browser.ip);
  expect(res.status).toBe(200);
  expect(await nodesThatRan(onReplica)).toEqual([replica]);

  // Just after a write, the same search runs on the leader.
  const onLeader = marker();
  expect((await browser.get(`/dashboard/payments?q=${onLeader}`)).status).toBe(200);
  expect(await nodesThatRan(onLeader)).toEqual([leader]);
});

it("streams the API's CSV exports from the replica, its JSON lists from the leader", async () => {
  const { org } = await signedInOwner(t!);
  const { leader, replica } = await roles();
  const csvMarker = marker();
  const csv = await t!.http
    .get(`/api/v1/payment?transactionId=${csvMarker}`)
    .set('Authorization', org.sandbox.secretKey)
    .set('accept', 'text/csv');
  expect(csv.status).toBe(200);
  expect(csv.headers['content-type']).toContain('text/csv');
  expect(await nodesThatRan(csvMarker)).toEqual([replica]);

  const jsonMarker = marker();
  await t!.http
    .get(`/api/v1/payment?transactionId=${jsonMarker}`)
    .set('Authorization', org.sandbox.secretKey)
    .expect(200);
  expect(await nodesThatRan(jsonMarker)).toEqual([leader]);
});

it('is the interceptor of the routes that read the replica only: the application has none of its own', () => {
  // An application-wide interceptor puts every request of every route through Nest's interceptor
  // chain (docs/architecture.md); the routes above prove the routes' own one reads the replica.
  const config = t!.app.get(ApplicationConfig);
  expect(config.getGlobalInterceptors().map((i) => i.constructor.name)).toEqual([]);
  expect(config.getGlobalRequestInterceptors().map((w) => String(w.name))).toEqual([]);
});

it('exports the replica lag as a metric', async () => {
  const res = await t!.http.get('/metrics').set('Authorization', `Bearer ${METRICS_TOKEN}`).expect(200);
  const lag = /^khoums_db_replica_lag_seconds ([0-9.e-]+)$/m.exec(res.text);
  expect(lag).not.toBeNull();
  expect(Number(lag![1])).toBeLessThan(10);
});

it('reads from the leader when the replica is down', async () => {
  // A replica that does not answer: nothing listens on its port.
  const down = await startTestApp(
    { DATABASE_READ_URL: `postgres://postgres@127.0.0.1:${await freePort()}/khoums` },
    ha!.databaseUrl,
  );
  try {
    const org = await newTenant(down);
    const { leader } = await roles();
    for (let i = 0; i < 3; i++) {
      const m = marker();
      const started = Date.now();
      const csv = await down.http
        .get(`/api/v1/payment?transactionId=${m}`)
        .set('Authorization', org.sandbox.secretKey)
        .set('accept', 'text/csv')
        .expect(200);
      expect(csv.text.split('\r\n')[0]).toContain('id');
      expect(Date.now() - started).toBeLessThan(5_000);
      expect(await nodesThatRan(m)).toEqual([leader]);
    }
    const logged = down.logs.filter((l) => l.includes('The read replica is unreachable'));
    expect(logged.length).toBe(1);
  } finally {
    await down.close();
  }
});
