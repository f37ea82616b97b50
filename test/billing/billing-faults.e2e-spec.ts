import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import request from 'supertest';
import { BillingRun } from '../../src/billing/billing-run';
import { BillSubscriptionsJob } from '../../src/billing/bill-subscriptions.job';
import type { CreatedOrganization } from '../../src/organizations/organizations.service';
import { periodsStartedBy } from '../../src/subscriptions/periods';
import { newTenant, privateDatabase, startTestApp, TestApp } from '../helpers/app';
import { billingState, catalog, DAY, seedDueSubscriptions } from '../helpers/billing';
import { watchOverlap } from '../helpers/overlap';
import { waitFor } from '../helpers/poll';
import { serviceProcess as startServiceProcess } from '../helpers/service-process';

/*
 * The billing run across processes, on a database of its own (the scheduler's tick bills every
 * environment, so its runs must be the only ones on it; the runs a test starts itself are scoped to
 * its own tenant, like every other suite's): two service instances at once, a process killed with
 * SIGKILL in the middle of a run, and a shutdown during one.
 */
jest.setTimeout(180_000);

let db: { url: string; drop(): Promise<void> };
let t: TestApp;
const cleanup: Array<() => Promise<unknown>> = [];
beforeAll(async () => {
  db = await privateDatabase();
  t = await startTestApp({}, db.url);
});
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});
afterAll(async () => {
  await t.close();
  await db.drop();
});

async function instance(env: Record<string, string> = {}): Promise<TestApp> {
  const app = await startTestApp(env, db.url);
  cleanup.push(() => app.close());
  return app;
}

/** A service instance in a child process, which the test can SIGKILL. */
async function serviceProcess(env: Record<string, string>): Promise<{ child: ChildProcess; port: number }> {
  const started = await startServiceProcess(db.url, {
    WEBHOOK_WORKER: 'false',
    RECONCILE_INTERVAL_MS: '0',
    BILLING_SCHEDULER: 'false',
    ...env,
  });
  cleanup.push(started.stop);
  return started;
}

/** An organization with `n` weekly subscriptions due since `weeks` weeks and a bit, nothing billed. */
async function dueOrganization(n: number, weeks: number) {
  const org = await newTenant(t);
  const c = await catalog(t, org, { interval: 'weekly', amount: 500 });
  const anchor = new Date(Date.now() - weeks * 7 * DAY - 3_600_000);
  await seedDueSubscriptions(t, org, c, n, anchor);
  return { org, periods: periodsStartedBy(anchor, 'weekly', new Date()) };
}

function expectBilledOnce(state: Awaited<ReturnType<typeof billingState>>, n: number, periods: number): void {
  expect(state).toEqual({
    subscriptions: n,
    invoices: n * periods,
    periods: n * periods,
    requests: n * periods,
    events: 3 * n * periods,
    untouched: 0,
    billed: n,
  });
}

const env = (org: CreatedOrganization) => org.sandbox.environmentId;

describe('the billing run across processes', () => {
  it('bills each period once when two service instances run it at the same moment', async () => {
    const { org, periods } = await dueOrganization(2000, 1);
    const [a, b] = [
      await instance({ BILLING_BATCH_SIZE: '100' }),
      await instance({ BILLING_BATCH_SIZE: '100' }),
    ];
    const results = await Promise.all([
      a.app.get(BillingRun).run({ environmentId: env(org) }),
      b.app.get(BillingRun).run({ environmentId: env(org) }),
      request(a.app.getHttpServer())
        .post('/api/v1/sandbox/billing/run')
        .set('Authorization', org.sandbox.secretKey),
      request(b.app.getHttpServer())
        .post('/api/v1/sandbox/billing/run')
        .set('Authorization', org.sandbox.secretKey),
    ]);
    const created =
      (results[0] as { invoicesCreated: number }).invoicesCreated +
      (results[1] as { invoicesCreated: number }).invoicesCreated +
      (results[2] as { body: { data: { invoicesCreated: number } } }).body.data.invoicesCreated +
      (results[3] as { body: { data: { invoicesCreated: number } } }).body.data.invoicesCreated;
    expect(created).toBe(2000 * periods);
    expectBilledOnce(await billingState(t, env(org)), 2000, periods);
  });

  it('bills each period once when the every-minute ticks of two instances fire together, and a tick never overlaps itself', async () => {
    const { org, periods } = await dueOrganization(600, 2);
    // Watched before the instances exist: their own every-minute tick may fire while they start.
    const runs = watchOverlap(BillingRun.prototype, 'run');
    cleanup.push(async () => runs.restore());
    const on = { BILLING_SCHEDULER: 'true', BILLING_BATCH_SIZE: '50' };
    const [a, b] = [await instance(on), await instance(on)];
    await Promise.all([
      a.app.get(BillSubscriptionsJob).tick(),
      a.app.get(BillSubscriptionsJob).tick(),
      b.app.get(BillSubscriptionsJob).tick(),
    ]);
    await runs.settled();
    expect(runs.calls(a.app.get(BillingRun))).toBeGreaterThanOrEqual(1);
    expect(runs.calls(b.app.get(BillingRun))).toBeGreaterThanOrEqual(1);
    expect(runs.most()).toBe(1);
    expectBilledOnce(await billingState(t, env(org)), 600, periods);
  });

  it('bills every due period exactly once after an instance is killed with SIGKILL in the middle of a run over 5,000 subscriptions', async () => {
    const n = 5000;
    const { org, periods } = await dueOrganization(n, 1);
    const total = n * periods;
    const { child, port } = await serviceProcess({ BILLING_BATCH_SIZE: '50' });
    const running = request(`http://127.0.0.1:${port}`)
      .post('/api/v1/sandbox/billing/run')
      .set('Authorization', org.sandbox.secretKey)
      .then(
        () => 'answered',
        () => 'killed',
      );
    await waitFor(
      async () => (await billingState(t, env(org))).invoices >= total / 5,
      'the run to be under way',
      60_000,
    );
    const exited = once(child, 'exit');
    child.kill('SIGKILL');
    await exited;
    expect(await running).toBe('killed');

    // Killed mid-run: whole batches were committed, nothing of the batch in flight.
    const after = await billingState(t, env(org));
    expect(after.invoices).toBeGreaterThan(0);
    expect(after.invoices).toBeLessThan(total);
    expect(after.untouched + after.billed).toBe(n);
    expect(after.invoices).toBe((n - after.untouched) * periods);

    // The restarted service finishes the run.
    const restarted = await serviceProcess({ BILLING_BATCH_SIZE: '500' });
    const res = await request(`http://127.0.0.1:${restarted.port}`)
      .post('/api/v1/sandbox/billing/run')
      .set('Authorization', org.sandbox.secretKey);
    expect(res.body.data.invoicesCreated).toBe(total - after.invoices);
    expectBilledOnce(await billingState(t, env(org)), n, periods);
  });

  it('drains on shutdown: a run stops after its current batch and the next run bills the rest', async () => {
    const { org, periods } = await dueOrganization(1500, 1);
    const app = await startTestApp({ BILLING_BATCH_SIZE: '25' }, db.url);
    const run = app.app.get(BillingRun).run({ environmentId: env(org) });
    await waitFor(async () => (await billingState(t, env(org))).invoices > 0, 'the first batch');
    await app.close();
    const stopped = await run;
    const after = await billingState(t, env(org));
    expect(stopped.invoicesCreated).toBe(after.invoices);
    expect(after.untouched).toBeGreaterThan(0);
    expect(after.untouched + after.billed).toBe(1500);

    const next = await instance();
    await next.app.get(BillingRun).run({ environmentId: env(org) });
    expectBilledOnce(await billingState(t, env(org)), 1500, periods);
  });
});
