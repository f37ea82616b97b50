import { Messages } from '../../src/common/errors/messages';
import { AppConfig } from '../../src/config/config';
import type { CreatedOrganization } from '../../src/organizations/organizations.service';
import { PruneEventsJob } from '../../src/webhooks/prune-events.job';
import { newTenant, privateDatabase, recordEvent, startTestApp, TestApp } from '../helpers/app';
import { expectText } from '../helpers/http';
import { watchOverlap } from '../helpers/overlap';
import { waitFor } from '../helpers/poll';

/*
 * Events and their deliveries are kept EVENT_RETENTION_DAYS (30 by default), then pruned by a job,
 * never an event with a delivery still pending. On a database of its own: every instance's
 * scheduled pruning covers all environments, so no other suite's instance may prune the events this
 * suite ages (the runs the tests start themselves are scoped to their own tenant).
 */
jest.setTimeout(120_000);

const DAY = 86_400_000;
let db: { url: string; drop(): Promise<void> };
let t: TestApp;
beforeAll(async () => {
  db = await privateDatabase();
  t = await startTestApp({ WEBHOOK_ALLOW_PRIVATE_URLS: 'true' }, db.url);
});
afterAll(async () => {
  await t.close();
  await db.drop();
});

const daysAgo = (days: number) => new Date(Date.now() - days * DAY);

/** An event of the org's sandbox, created `days` ago; its deliveries (to the endpoints then existing) pending. */
const event = (org: CreatedOrganization, days: number) =>
  recordEvent(t, {
    organizationId: org.organizationId,
    environmentId: org.sandbox.environmentId,
    kind: 'payment-created',
    data: { id: `pay_${days}` },
    createdAt: daysAgo(days),
  });

/** An endpoint of the org's sandbox; nothing delivers to it (the test app has no worker). */
async function endpoint(org: CreatedOrganization): Promise<string> {
  const res = await t.http
    .post('/api/v1/webhook-endpoints')
    .set('Authorization', org.sandbox.secretKey)
    .send({ url: 'http://127.0.0.1:9/hooks', events: ['payment-created'] });
  expect(res.status).toBe(200);
  return res.body.data.id;
}

/** The delivery of an event, marked as done (`succeeded` or `failed`) after one recorded attempt. */
async function settleDelivery(eventId: string, status: 'succeeded' | 'failed'): Promise<string> {
  const [{ id }] = await t.query<{ id: string }>(
    `UPDATE webhook_deliveries SET status = $2, next_attempt_at = NULL, attempts = 1
      WHERE event_id = $1 RETURNING id`,
    [eventId, status],
  );
  await t.query(`INSERT INTO webhook_attempts (delivery_id, status_code, duration_ms) VALUES ($1, 200, 5)`, [
    id,
  ]);
  return id;
}

const remaining = async (table: 'events' | 'webhook_deliveries', ids: string[]) =>
  (
    await t.query<{ id: string }>(`SELECT id FROM ${table} WHERE id = ANY($1::uuid[]) ORDER BY id`, [ids])
  ).map((r) => r.id);

const retry = (org: CreatedOrganization, deliveryId: string) =>
  t.http.post(`/api/v1/webhook-deliveries/${deliveryId}/retry`).set('Authorization', org.sandbox.secretKey);

describe('event retention (EVENT_RETENTION_DAYS, default 30)', () => {
  it('deletes the events past retention with their deliveries and attempts, and keeps recent events and old ones with a delivery pending', async () => {
    const org = await newTenant(t);
    const withoutDeliveries = [await event(org, 45), await event(org, 31)];
    await endpoint(org);
    const succeeded = await event(org, 31);
    const failed = await event(org, 60);
    const pending = await event(org, 40);
    const recent = [await event(org, 29), await event(org, 0)];
    const deliveries = [
      await settleDelivery(succeeded, 'succeeded'),
      await settleDelivery(failed, 'failed'),
      await settleDelivery(recent[0], 'succeeded'),
    ];
    const [{ id: pendingDelivery }] = await t.query(`SELECT id FROM webhook_deliveries WHERE event_id = $1`, [
      pending,
    ]);
    // Another organization's old event, outside the run's scope.
    const other = await newTenant(t);
    const othersOld = await event(other, 90);

    const deleted = await t.app.get(PruneEventsJob).run({ environmentId: org.sandbox.environmentId });

    expect(deleted).toBe(4);
    const all = [...withoutDeliveries, succeeded, failed, pending, ...recent, othersOld];
    expect(await remaining('events', all)).toEqual([pending, ...recent, othersOld].sort());
    expect(await remaining('webhook_deliveries', [...deliveries, pendingDelivery])).toEqual(
      [deliveries[2], pendingDelivery].sort(),
    );
    const [{ attempts }] = await t.query(
      `SELECT count(*)::int AS attempts FROM webhook_attempts WHERE delivery_id = ANY($1::uuid[])`,
      [deliveries],
    );
    expect(attempts).toBe(1);
    // Pruned once, nothing is left to prune.
    expect(await t.app.get(PruneEventsJob).run({ environmentId: org.sandbox.environmentId })).toBe(0);
  });

  it('keeps events EVENT_RETENTION_DAYS as configured', async () => {
    const week = await startTestApp({ EVENT_RETENTION_DAYS: '7' }, db.url);
    try {
      const org = await newTenant(t);
      const [old, kept] = [await event(org, 8), await event(org, 6)];
      expect(await week.app.get(PruneEventsJob).run({ environmentId: org.sandbox.environmentId })).toBe(1);
      expect(await remaining('events', [old, kept])).toEqual([kept]);
    } finally {
      await week.close();
    }
  });

  it('answers 404 `Webhook delivery not found` to a replay of a delivery whose event is past retention, pruned or not yet', async () => {
    const org = await newTenant(t);
    await endpoint(org);
    const [old, recent] = [await event(org, 31), await event(org, 29)];
    const [oldDelivery, recentDelivery] = [
      await settleDelivery(old, 'failed'),
      await settleDelivery(recent, 'failed'),
    ];

    expectText(await retry(org, oldDelivery), 404, Messages.webhookDeliveryNotFound);
    const [{ status }] = await t.query(`SELECT status FROM webhook_deliveries WHERE id = $1`, [oldDelivery]);
    expect(status).toBe('failed');
    const replayed = await retry(org, recentDelivery);
    expect(replayed.status).toBe(200);
    expect(replayed.body.data).toMatchObject({ id: recentDelivery, status: 'pending' });

    expect(await t.app.get(PruneEventsJob).run({ environmentId: org.sandbox.environmentId })).toBe(1);
    expectText(await retry(org, oldDelivery), 404, Messages.webhookDeliveryNotFound);
  });

  it('two pruning jobs at once, on two instances, delete each event once', async () => {
    const org = await newTenant(t);
    const n = 300;
    await t.query(
      `INSERT INTO events (id, organization_id, environment_id, kind, data, created_at)
       SELECT gen_random_uuid(), $1, $2, 'payment-created', jsonb_build_object('n', g), now() - interval '40 days'
         FROM generate_series(1, $3::int) g`,
      [org.organizationId, org.sandbox.environmentId, n],
    );
    const second = await startTestApp({}, db.url);
    try {
      const scope = { environmentId: org.sandbox.environmentId, batch: 7 };
      const [a, b] = await Promise.all([
        t.app.get(PruneEventsJob).run(scope),
        second.app.get(PruneEventsJob).run(scope),
      ]);
      expect(a + b).toBe(n);
      expect(a).toBeGreaterThan(0);
      expect(b).toBeGreaterThan(0);
      const [{ left }] = await t.query(`SELECT count(*)::int AS left FROM events WHERE environment_id = $1`, [
        org.sandbox.environmentId,
      ]);
      expect(left).toBe(0);
    } finally {
      await second.close();
    }
  });

  it('the scheduled tick prunes every environment and never overlaps itself; EVENT_RETENTION_SCHEDULER=false turns it off', async () => {
    const [x, y] = [await newTenant(t), await newTenant(t)];
    const old = [await event(x, 31), await event(y, 31)];
    const job = t.app.get(PruneEventsJob);
    // Counts in flight, not calls (test/jobs/ checks the guard of every job; this is the job's own).
    const runs = watchOverlap(PruneEventsJob.prototype, 'run');
    const config = t.app.get(AppConfig);
    try {
      // The test apps run with the scheduler off (no timer; a tick at the clock's ten minutes would
      // prune what the other tests count): this one does nothing.
      expect(job.isScheduled).toBe(false);
      await job.tick();
      expect(runs.calls(job)).toBe(0);
      expect(await remaining('events', old)).toEqual([...old].sort());

      config.EVENT_RETENTION_SCHEDULER = true;
      try {
        await Promise.all([job.tick(), job.tick()]);
      } finally {
        config.EVENT_RETENTION_SCHEDULER = false;
      }
      await runs.settled();
      expect(runs.calls(job)).toBeGreaterThanOrEqual(1);
      expect(runs.most()).toBe(1);
    } finally {
      runs.restore();
    }
    expect(await remaining('events', old)).toEqual([]);
  });

  it('a tick that fails because PostgreSQL is away logs nothing of its own; any other failure is logged', async () => {
    // An app of its own: the services' log lines go to the newest app's logs.
    const own = await startTestApp({}, db.url);
    const job = own.app.get(PruneEventsJob);
    const config = own.app.get(AppConfig);
    // The run's failures as the driver gives them: the server refusing connections, then a bug.
    const away = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    jest.spyOn(job, 'run').mockRejectedValueOnce(away).mockRejectedValueOnce(new Error('a bug'));
    const logged = (text: string) => own.logs.filter((l) => l.includes(text)).length;
    config.EVENT_RETENTION_SCHEDULER = true;
    try {
      await job.tick();
      await job.tick();
      // Lines arrive in order: once the bug's is in, the first tick's would be too.
      await waitFor(() => logged('prune-events failed') > 0, 'the bug’s line');
      expect(logged('prune-events failed')).toBe(1);
      expect(logged('PostgreSQL is unreachable')).toBe(1);
    } finally {
      await own.close();
    }
  });
});
