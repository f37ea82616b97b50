import { DunningRun } from '../../src/billing/dunning-run';
import type { CreatedOrganization } from '../../src/organizations/organizations.service';
import { newTenant, startTestApp, TestApp, testDatabaseUrl } from '../helpers/app';
import { catalog, createSubscription, DAY, invoicesOf, seedDueSubscriptions } from '../helpers/billing';
import { BillingRun } from '../../src/billing/billing-run';
import { ReminderRun } from '../../src/billing/reminder-run';
import { once } from 'node:events';
import request from 'supertest';
import { waitFor } from '../helpers/poll';
import { serviceProcess as startServiceProcess } from '../helpers/service-process';

/*
 * Dunning: `dunning.afterDaysOverdue` days after an unpaid due date, the subscription is cancelled
 * or paused, once, with its subscription-updated; runs scoped to the test's environment, `now` given.
 */
jest.setTimeout(120_000);
let t: TestApp;
const cleanup: Array<() => Promise<unknown>> = [];
beforeAll(async () => {
  t = await startTestApp();
});
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});
afterAll(() => t.close());

const settings = (org: CreatedOrganization, dunning: object) =>
  t.http.patch('/api/v1/billing-settings').set('Authorization', org.sandbox.secretKey).send({ dunning });
const dunn = (org: CreatedOrganization, now: Date, app: TestApp = t) =>
  app.app.get(DunningRun).run({ environmentId: org.sandbox.environmentId, now });
const updates = (subscriptionId: string) =>
  t.query<{ status: string }>(
    `SELECT data->>'status' AS status FROM events WHERE kind = 'subscription-updated' AND data->>'id' = $1 ORDER BY created_at, id`,
    [subscriptionId],
  );
const getSub = async (org: CreatedOrganization, id: string) =>
  (await t.http.get(`/api/v1/subscriptions/${id}`).set('Authorization', org.sandbox.secretKey)).body.data;

async function subscribed(dunning: object | null) {
  const org = await newTenant(t);
  if (dunning) expect((await settings(org, dunning)).status).toBe(200);
  const c = await catalog(t, org);
  const sub = await createSubscription(t, org.sandbox.secretKey, {
    customerId: c.customer.id,
    priceId: c.price.id,
  });
  const [invoice] = await invoicesOf(t, org.sandbox.secretKey, sub.id);
  return { org, sub, invoice, due: new Date(invoice.dueDate!) };
}
const later = (d: Date, days: number) => new Date(d.getTime() + days * DAY);

describe('dunning', () => {
  it('cancels a subscription afterDaysOverdue days after an unpaid due date, voiding its invoice, once', async () => {
    const { org, sub, invoice, due } = await subscribed({ afterDaysOverdue: 5, action: 'cancel' });
    expect(await dunn(org, later(due, 4.9))).toBe(0);
    expect(await dunn(org, later(due, 5))).toBe(1);
    expect(await dunn(org, later(due, 9))).toBe(0);
    expect((await getSub(org, sub.id)).status).toBe('cancelled');
    expect(await updates(sub.id)).toEqual([{ status: 'cancelled' }]);
    const [after] = await invoicesOf(t, org.sandbox.secretKey, sub.id);
    expect(after).toMatchObject({ id: invoice.id, status: 'void' });
  });

  it('pauses instead with action pause, and does not pause again a subscription the merchant resumed', async () => {
    const { org, sub, due } = await subscribed({ afterDaysOverdue: 2, action: 'pause' });
    expect(await dunn(org, later(due, 3))).toBe(1);
    expect((await getSub(org, sub.id)).status).toBe('paused');
    const resumed = await t.http
      .post(`/api/v1/subscriptions/${sub.id}/resume`)
      .set('Authorization', org.sandbox.secretKey);
    expect(resumed.status).toBe(200);
    expect(await dunn(org, later(due, 4))).toBe(0);
    expect((await updates(sub.id)).map((u) => u.status)).toEqual(['paused', expect.any(String)]);
  });

  it('does nothing without dunning settings, to a paid invoice, or in another environment', async () => {
    const none = await subscribed(null);
    expect(await dunn(none.org, later(none.due, 400))).toBe(0);
    const paid = await subscribed({ afterDaysOverdue: 1, action: 'cancel' });
    await t.query(`UPDATE invoices SET status = 'paid', paid_at = now() WHERE id = $1`, [paid.invoice.id]);
    expect(await dunn(paid.org, later(paid.due, 3))).toBe(0);
    const a = await subscribed({ afterDaysOverdue: 1, action: 'cancel' });
    const b = await subscribed({ afterDaysOverdue: 1, action: 'cancel' });
    expect(await dunn(a.org, later(a.due, 3))).toBe(1);
    expect((await getSub(b.org, b.sub.id)).status).toBe('active');
  });

  it('dunns each subscription once when two instances run at the same moment', async () => {
    const org = await newTenant(t);
    await settings(org, { afterDaysOverdue: 1, action: 'pause' });
    const c = await catalog(t, org, { interval: 'weekly', amount: 500 });
    await seedDueSubscriptions(t, org, c, 150, new Date(Date.now() - 10 * DAY));
    await t.app.get(BillingRun).run({ environmentId: org.sandbox.environmentId });
    const a = await startTestApp();
    const b = await startTestApp();
    cleanup.push(
      () => a.close(),
      () => b.close(),
    );
    const now = new Date();
    const [x, y] = await Promise.all([dunn(org, now, a), dunn(org, now, b)]);
    expect(x + y).toBe(150);
    const [row] = await t.query(
      `SELECT count(*)::int AS n, count(DISTINCT data->>'id')::int AS subs FROM events
        WHERE environment_id = $1 AND kind = 'subscription-updated' AND data->>'status' = 'paused'`,
      [org.sandbox.environmentId],
    );
    expect(row).toEqual({ n: 150, subs: 150 });
  });

  it('dunns each subscription once after an instance is killed with SIGKILL in the middle of a run', async () => {
    const n = 600;
    const org = await newTenant(t);
    await settings(org, { afterDaysOverdue: 1, action: 'pause' });
    const c = await catalog(t, org, { interval: 'weekly', amount: 500 });
    await seedDueSubscriptions(t, org, c, n, new Date(Date.now() - 10 * DAY));
    await t.app.get(BillingRun).run({ environmentId: org.sandbox.environmentId });
    await t.app.get(ReminderRun).run({ environmentId: org.sandbox.environmentId });
    const started = await startServiceProcess(testDatabaseUrl(), {
      WEBHOOK_WORKER: 'false',
      RECONCILE_INTERVAL_MS: '0',
      BILLING_SCHEDULER: 'false',
    });
    cleanup.push(started.stop);
    const running = request(`http://127.0.0.1:${started.port}`)
      .post('/api/v1/sandbox/billing/run')
      .set('Authorization', org.sandbox.secretKey)
      .then(
        () => 'answered',
        () => 'killed',
      );
    const paused = async () =>
      (
        await t.query(
          `SELECT count(*)::int AS n, count(DISTINCT data->>'id')::int AS subs FROM events
            WHERE environment_id = $1 AND kind = 'subscription-updated' AND data->>'status' = 'paused'`,
          [org.sandbox.environmentId],
        )
      )[0] as { n: number; subs: number };
    await waitFor(async () => (await paused()).n >= n / 5, 'the dunning run to be under way', 60_000);
    const exited = once(started.child, 'exit');
    started.child.kill('SIGKILL');
    await exited;
    expect(await running).toBe('killed');
    const after = await paused();
    expect(after.n).toBeLessThan(n);
    expect(after.n).toBe(after.subs);
    // Each change committed with its mark: as many subscriptions paused (and marked) as events.
    const [marked] = await t.query(
      `SELECT count(*)::int AS n FROM subscriptions WHERE environment_id = $1 AND status = 'paused' AND dunned_through IS NOT NULL`,
      [org.sandbox.environmentId],
    );
    expect(marked.n).toBe(after.n);

    expect(await dunn(org, new Date())).toBe(n - after.n);
    expect(await paused()).toEqual({ n, subs: n });
  });

  it('runs with POST /sandbox/billing/run, counted in subscriptionsUpdated', async () => {
    const org = await newTenant(t);
    await settings(org, { afterDaysOverdue: 1, action: 'cancel' });
    const c = await catalog(t, org, { interval: 'weekly', amount: 700 });
    const sub = await createSubscription(t, org.sandbox.secretKey, {
      customerId: c.customer.id,
      priceId: c.price.id,
      startedAt: new Date(Date.now() - 10 * DAY).toISOString(),
    });
    const res = await t.http.post('/api/v1/sandbox/billing/run').set('Authorization', org.sandbox.secretKey);
    expect(res.body.data).toEqual({ invoicesCreated: 0, subscriptionsUpdated: 1 });
    expect((await getSub(org, sub.id)).status).toBe('cancelled');
  });
});
