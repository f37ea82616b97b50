import { ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { BillingRun } from '../../src/billing/billing-run';
import { ReminderRun } from '../../src/billing/reminder-run';
import { SmsSender } from '../../src/billing/sms-sender';
import { startSmsSimulator, SmsSimulator } from '../../src/billing/sms-simulator/sms-simulator';
import { directUrlFor, newTenant, startTestApp, TestApp, testDatabaseUrl } from '../helpers/app';
import { createCustomer, createPrice, createProduct, DAY } from '../helpers/billing';
import { waitFor } from '../helpers/poll';

/*
 * The SMS sender across instances, on the SMS simulator: two instances sending at once, and two
 * processes of which one is SIGKILLed in the middle of its batches. Every reminder's SMS reaches
 * the gateway and is accepted exactly once (a replay after a lost answer carries the same id, which
 * the gateway's idempotency turns into the first send), none is forgotten, and each is logged
 * `sent`. Every run is scoped to the test's environment, so no other suite's SMS is sent.
 */
// Two service processes start on a 2-core machine shared with other suites: minutes when loaded.
jest.setTimeout(400_000);

const RUN_TS = join(__dirname, '../webhooks/fixtures/run-ts.js');
const RUNNER = join(__dirname, '../fixtures/sms-sender-runner.ts');

let t: TestApp;
let sim: SmsSimulator;
const cleanup: Array<() => Promise<unknown>> = [];
beforeAll(async () => {
  sim = await startSmsSimulator();
  t = await startTestApp({ SMS_GATEWAY_URL: sim.url });
});
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
  sim.reset();
});
afterAll(async () => {
  await t.close();
  await sim.close();
});

/**
 * A Production environment with SMS on and `n` weekly subscriptions billed 10 days into their
 * cycle; the reminder run (the real one) has queued one overdue reminder SMS per invoice it
 * reminded. Its environment id and the SMS queued.
 */
async function queuedSms(n: number): Promise<{ environmentId: string; queued: number }> {
  const org = await newTenant(t, 'Boutique Nour');
  const sk = org.production.secretKey;
  const environmentId = org.production.environmentId;
  await t.http
    .patch('/api/v1/billing-settings')
    .set('Authorization', sk)
    .send({ sms: { enabled: true } });
  const product = await createProduct(t, sk);
  const price = await createPrice(t, sk, product.id, { amount: 500, interval: 'weekly' });
  const customer = await createCustomer(t, sk, { phone: '22334455', language: 'ar' });
  await t.query(
    `INSERT INTO subscriptions (id, organization_id, environment_id, customer_id, price_id, status, started_at,
                                billing_anchor, billing_interval, next_period, next_billing_date, created_at, updated_at)
     SELECT gen_random_uuid(), $1, $2, $3, $4, 'active', $5, $5, 'weekly', 0, $5, now(), now()
       FROM generate_series(1, $6)`,
    [
      org.organizationId,
      environmentId,
      customer.id,
      price.id,
      new Date(Date.now() - 10 * DAY - 3_600_000),
      n,
    ],
  );
  await t.app.get(BillingRun).run({ environmentId });
  const reminded = await t.app.get(ReminderRun).run({ environmentId, now: new Date() });
  const [{ queued }] = await t.query<{ queued: number }>(
    `SELECT count(*)::int AS queued FROM sms_messages WHERE environment_id = $1 AND status = 'pending'`,
    [environmentId],
  );
  expect(queued).toBe(reminded);
  expect(queued).toBeGreaterThanOrEqual(n);
  return { environmentId, queued };
}

const smsOf = (environmentId: string) =>
  t.query<{ id: string; status: string; body: string; invoices: number }>(
    `SELECT id, status, body, (SELECT count(*)::int FROM sms_messages o WHERE o.invoice_id = m.invoice_id) AS invoices
       FROM sms_messages m WHERE environment_id = $1`,
    [environmentId],
  );

/** Every SMS of the environment `sent`, one per reminded invoice, each accepted by the gateway once, with its text. */
async function expectDeliveredOnce(environmentId: string, queued: number): Promise<void> {
  const rows = await smsOf(environmentId);
  expect(rows).toHaveLength(queued);
  expect(rows.filter((r) => r.status !== 'sent' || r.invoices !== 1)).toEqual([]);
  const accepted = sim.messages();
  expect(accepted).toHaveLength(queued);
  expect(new Map(accepted.map((m) => [m.id, m.text]))).toEqual(new Map(rows.map((r) => [r.id, r.body])));
  expect(accepted.every((m) => m.to === '+22222334455')).toBe(true);
}

/** The sender of one instance in a process of its own, on the test's environment; sends when told (`go`). */
function senderProcess(environmentId: string) {
  const databaseUrl = testDatabaseUrl();
  const child: ChildProcess = spawn(process.execPath, [RUN_TS, RUNNER], {
    env: {
      ...process.env,
      LOG_LEVEL: 'warn',
      SMS_GATEWAY_URL: sim.url,
      SMS_SEND_INTERVAL_MS: '0',
      SMS_ENVIRONMENT_ID: environmentId,
      WEBHOOK_WORKER: 'false',
      RECONCILE_INTERVAL_MS: '0',
      BILLING_SCHEDULER: 'false',
      PAYOUT_SCHEDULER: 'false',
      KHOUMS_TEST_DATABASE_URL: databaseUrl,
      ...(directUrlFor(databaseUrl) ? { DATABASE_DIRECT_URL: directUrlFor(databaseUrl) } : {}),
    },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  cleanup.push(async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      await once(child, 'exit');
    }
  });
  let out = '';
  let err = '';
  child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (err += c.toString()));
  const lines = () => out.split('\n').filter((l) => l.startsWith('{'));
  const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  const started = waitFor(
    () => {
      if (child.exitCode !== null) throw new Error(`SMS sender exited: ${err}`);
      return lines().length > 0 || undefined;
    },
    'the SMS sender to start',
    180_000,
  );
  const result = exited.then(([code, signal]) => {
    if (signal) return signal;
    if (code !== 0) throw new Error(`SMS sender exited with ${code}: ${err}`);
    return JSON.parse(lines()[1]) as unknown;
  });
  result.catch(() => undefined); // awaited by the test
  return { child, started, go: () => child.stdin!.end('send\n'), result };
}

describe('the SMS sender across instances', () => {
  it('sends each reminder SMS exactly once when two instances send at the same moment', async () => {
    const { environmentId, queued } = await queuedSms(600);
    sim.setDelay(5);
    const a = await startTestApp({ SMS_GATEWAY_URL: sim.url });
    const b = await startTestApp({ SMS_GATEWAY_URL: sim.url });
    cleanup.push(
      () => a.close(),
      () => b.close(),
    );
    const [x, y] = await Promise.all(
      [a, b].map((app) => app.app.get(SmsSender).sendDue({ environmentId, now: new Date() })),
    );
    expect(x.sent + y.sent).toBe(queued);
    expect(x.sent).toBeGreaterThan(0);
    expect(y.sent).toBeGreaterThan(0);
    expect([x.failed, x.retry, y.failed, y.retry]).toEqual([0, 0, 0, 0]);
    // Not one SMS asked of the gateway twice: each claimed by one instance only.
    expect([...sim.requestsById().values()].filter((n) => n !== 1)).toEqual([]);
    expect(sim.requestsById().size).toBe(queued);
    await expectDeliveredOnce(environmentId, queued);
  });

  it('delivers each reminder SMS exactly once, none forgotten, when one of two senders is SIGKILLed in the middle of its batches', async () => {
    const { environmentId, queued } = await queuedSms(1500);
    // A slow gateway (every answer 150 ms): the kill lands while batches are in flight.
    sim.setDelay(150);
    const killed = senderProcess(environmentId);
    const survivor = senderProcess(environmentId);
    await Promise.all([killed.started, survivor.started]);
    killed.go();
    survivor.go();
    await waitFor(
      () => {
        if (killed.child.exitCode !== null) throw new Error('the sender ended before it was killed');
        return sim.messages().length >= queued / 5 || undefined;
      },
      'the senders to be under way',
      60_000,
    );
    killed.child.kill('SIGKILL');
    expect(await killed.result).toBe('SIGKILL');
    const done = (await survivor.result) as { sent: number; failed: number; retry: number };
    expect(done.sent).toBeGreaterThan(0);
    expect(done.failed + done.retry).toBe(0);

    // What the killed sender had claimed stays leased to it (its batch in flight): pending.
    const leased = (await smsOf(environmentId)).filter((r) => r.status === 'pending').length;
    expect(leased).toBeLessThanOrEqual(50);

    // Once that lease has ended (the run given a later `now` rather than waited for), the next
    // send asks the gateway again on the same ids: those it had accepted are not sent twice.
    sim.setDelay(0);
    const later = new Date(Date.now() + 2 * 10_000 + 60_000);
    expect((await t.app.get(SmsSender).sendDue({ environmentId, now: later })).sent).toBe(leased);
    await expectDeliveredOnce(environmentId, queued);
    // Asked at most twice (the killed attempt, then its replay); only the leased ones twice.
    const asked = [...sim.requestsById().values()];
    expect(asked.filter((n) => n > 2)).toEqual([]);
    expect(asked.filter((n) => n === 2).length).toBeLessThanOrEqual(leased);
    expect(
      await t.query(`SELECT 1 FROM sms_messages WHERE environment_id = $1 AND attempts > 2`, [environmentId]),
    ).toEqual([]);
  });
});
