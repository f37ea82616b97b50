import { ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { LedgerRepository } from '../../src/ledger/ledger.repository';
import { PayoutRun } from '../../src/payouts/payout-run';
import { directUrlFor, privateDatabase, startTestApp, TestApp } from '../helpers/app';
import { balanceOf, earn, payableTenant } from '../helpers/payouts';
import { waitFor } from '../helpers/poll';

/*
 * The payout run across processes, each test on a database of its own (a run pays every due
 * environment it finds): runs in processes of their own over many due environments, one
 * SIGKILLed in the middle of its run, while it makes the payouts or while it sends them; another
 * run (at the same time, restarted, or the next tick) finishes. No environment is paid twice, none
 * is forgotten, and the ledger's check finds nothing.
 */
jest.setTimeout(240_000);

const RUN_TS = join(__dirname, '../webhooks/fixtures/run-ts.js');
const RUNNER = join(__dirname, '../fixtures/payout-runner.ts');
const AMOUNT = 1700;

let db: { url: string; drop(): Promise<void> };
let t: TestApp;
let template: { organizationId: string; sandbox: { environmentId: string; secretKey: string } };
const children: ChildProcess[] = [];
beforeEach(async () => {
  db = await privateDatabase();
  t = await startTestApp({ PAYOUT_DELAY_DAYS: '0', PAYOUT_SCHEDULER: 'false' }, db.url);
});
afterEach(async () => {
  for (const child of children.splice(0)) {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      await once(child, 'exit');
    }
  }
  await t.close();
  await db.drop();
});

/** `n` due environments, each with an available balance of AMOUNT and an approved payout account. */
async function dueEnvironments(n: number): Promise<void> {
  template = await payableTenant(t);
  const [paymentId] = await earn(t, template.sandbox.secretKey, AMOUNT);
  await seedPayableEnvironments(
    { organizationId: template.organizationId, environmentId: template.sandbox.environmentId, paymentId },
    n - 1,
  );
  expect(await payoutState()).toEqual([{ payouts: 0, environments: n }]);
}

const count = async (where = 'true') =>
  (await t.query<{ n: number }>(`SELECT count(*)::int AS n FROM payouts WHERE ${where}`))[0].n;

/** Environments considered today (their schedule marked) that have money. */
const considered = async () =>
  (
    await t.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM payout_schedules s
        WHERE last_paid_on IS NOT NULL
          AND EXISTS (SELECT 1 FROM balance_transactions b WHERE b.environment_id = s.environment_id)`,
    )
  )[0].n;

/** Kills the runner once `ready` holds (its run under way), and checks that it died of it. */
async function killWhen(
  runner: ReturnType<typeof runnerProcess>,
  ready: () => Promise<boolean>,
  what: string,
): Promise<void> {
  await waitFor(
    async () => {
      if (runner.child.exitCode !== null) throw new Error('the run ended before it was killed');
      return ready();
    },
    what,
    60_000,
  );
  runner.child.kill('SIGKILL');
  expect(await runner.result).toBe('SIGKILL');
}

/**
 * Every one of the `n` environments paid exactly once, its whole balance, `paid`, with its one
 * `payout` transaction and one event per change, and the ledger's check clean.
 */
async function expectPaidOnce(n: number): Promise<void> {
  expect(await payoutState()).toEqual([{ payouts: 1, environments: n }]);
  expect(
    await t.query(`SELECT status, amount::int, count(*)::int AS n FROM payouts GROUP BY status, amount`),
  ).toEqual([{ status: 'paid', amount: AMOUNT, n }]);
  expect((await balanceOf(t, template.sandbox.secretKey)).available).toBe(0);
  expect(
    await t.query(`SELECT environment_id FROM balance_days GROUP BY environment_id HAVING sum(net) <> 0`),
  ).toEqual([]);
  const unbalanced = await t.query(
    `SELECT p.id FROM payouts p
       LEFT JOIN balance_transactions b ON b.source_id = p.id AND b.type = 'payout'
      GROUP BY p.id, p.amount HAVING count(b.id) <> 1 OR sum(b.amount) <> -p.amount`,
  );
  expect(unbalanced).toEqual([]);
  expect(
    await t.query(
      `SELECT kind, count(*)::int AS n FROM events WHERE kind IN ('payout-created', 'payout-updated')
        GROUP BY kind ORDER BY kind`,
    ),
  ).toEqual([
    { kind: 'payout-created', n },
    { kind: 'payout-updated', n },
  ]);
  expect((await t.app.get(LedgerRepository).check()).problems).toEqual([]);
}

/**
 * A payout run over every environment in a process of its own: the process, once it has started
 * (`started`), runs when told (`go`); `result` is the run's result, or the signal that killed it.
 */
function runnerProcess(): {
  child: ChildProcess;
  started: Promise<void>;
  go: () => void;
  result: Promise<unknown>;
} {
  const child = spawn(process.execPath, [RUN_TS, RUNNER], {
    env: {
      ...process.env,
      LOG_LEVEL: 'warn',
      PAYOUT_DELAY_DAYS: '0',
      PAYOUT_SCHEDULER: 'false',
      // Due whatever the hour the suite runs at.
      PAYOUT_HOUR_UTC: '0',
      WEBHOOK_WORKER: 'false',
      RECONCILE_INTERVAL_MS: '0',
      BILLING_SCHEDULER: 'false',
      KHOUMS_TEST_DATABASE_URL: db.url,
      ...(directUrlFor(db.url) ? { DATABASE_DIRECT_URL: directUrlFor(db.url) } : {}),
    },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  children.push(child);
  let out = '';
  let err = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (err += c.toString()));
  const lines = () => out.split('\n').filter((l) => l.startsWith('{'));
  const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  const started = waitFor(
    () => {
      if (child.exitCode !== null) throw new Error(`payout runner exited: ${err}`);
      return lines().length > 0 || undefined;
    },
    'the payout runner to start',
    120_000, // two runners start at once; a loaded 2-core machine has taken over 60 s
  ).then(() => undefined);
  const result = exited.then(([code, signal]) => {
    if (signal) return signal;
    if (code !== 0) throw new Error(`payout runner exited with ${code}: ${err}`);
    return JSON.parse(lines()[1]) as unknown;
  });
  result.catch(() => undefined); // awaited by the test; a failure before that is not unhandled
  return { child, started, go: () => child.stdin.end('run\n'), result };
}

/**
 * `n` organizations with an approved payout account whose Sandbox holds one completed payment of
 * `amount` (its `payment` transaction, available at once): copies, row for row, of `template`'s
 * organization, its payout account, its Sandbox, its payment request and payment, and the
 * payment's transaction.
 */
async function seedPayableEnvironments(
  template: { organizationId: string; environmentId: string; paymentId: string },
  n: number,
): Promise<void> {
  await t.query(
    `WITH n AS (
       SELECT i, gen_random_uuid() AS org, gen_random_uuid() AS env, gen_random_uuid() AS req,
              gen_random_uuid() AS pay FROM generate_series(1, $4::int) i),
     orgs AS (
       INSERT INTO organizations
       SELECT (jsonb_populate_record(NULL::organizations, to_jsonb(o) || jsonb_build_object('id', n.org))).*
         FROM organizations o, n WHERE o.id = $1),
     envs AS (
       INSERT INTO environments
       SELECT (jsonb_populate_record(NULL::environments,
                 to_jsonb(e) || jsonb_build_object('id', n.env, 'organization_id', n.org))).*
         FROM environments e, n WHERE e.id = $2),
     accounts AS (
       INSERT INTO payout_accounts
       SELECT (jsonb_populate_record(NULL::payout_accounts, to_jsonb(a) || jsonb_build_object('organization_id', n.org))).*
         FROM payout_accounts a, n WHERE a.organization_id = $1),
     schedules AS (
       INSERT INTO payout_schedules (environment_id, organization_id) SELECT env, org FROM n),
     requests AS (
       INSERT INTO payment_requests
       SELECT (jsonb_populate_record(NULL::payment_requests,
                 to_jsonb(r) || jsonb_build_object('id', n.req, 'environment_id', n.env, 'organization_id', n.org))).*
         FROM payment_requests r, payments p, n WHERE p.id = $3 AND r.id = p.payment_request_id),
     payments AS (
       INSERT INTO payments
       SELECT (jsonb_populate_record(NULL::payments,
                 to_jsonb(p) || jsonb_build_object('id', n.pay, 'payment_request_id', n.req, 'environment_id', n.env,
                                                   'organization_id', n.org))).*
         FROM payments p, n WHERE p.id = $3)
     INSERT INTO balance_transactions
     SELECT (jsonb_populate_record(NULL::balance_transactions,
               to_jsonb(b) || jsonb_build_object('id', gen_random_uuid(), 'source_id', n.pay, 'payment_id', n.pay,
                                                 'environment_id', n.env, 'organization_id', n.org))).*
       FROM balance_transactions b, n WHERE b.source_id = $3 AND b.type = 'payment'`,
    [template.organizationId, template.environmentId, template.paymentId, n],
  );
}

/** How many environments with money have 0, 1, 2… payouts. */
const payoutState = () =>
  t.query<{ payouts: number; environments: number }>(
    `SELECT payouts, count(*)::int AS environments FROM (
       SELECT s.environment_id, (SELECT count(*) FROM payouts p WHERE p.environment_id = s.environment_id)::int AS payouts
         FROM payout_schedules s
        WHERE EXISTS (SELECT 1 FROM balance_transactions b WHERE b.environment_id = s.environment_id)) x
      GROUP BY payouts ORDER BY payouts`,
  );

describe('the payout run across processes', () => {
  it('pays every due environment exactly once after the run is killed with SIGKILL while it makes the payouts, and the restarted one finishes', async () => {
    const n = 1500;
    await dueEnvironments(n);
    const [killed, restarted] = [runnerProcess(), runnerProcess()];
    await Promise.all([killed.started, restarted.started]);
    killed.go();
    await killWhen(killed, async () => (await count()) >= n / 5, 'the run to be under way');

    // Killed mid-run: whole claims were committed, nothing of the one in flight; every
    // environment marked considered today has its one payout, the others none.
    const made = await count();
    expect(made).toBeLessThan(n);
    expect(await considered()).toBe(made);

    restarted.go();
    expect(await restarted.result).toEqual({ payoutsCreated: n - made, payoutsUpdated: n });
    await expectPaidOnce(n);
  });

  it('pays every due environment exactly once when one of two runs at once is killed with SIGKILL in the middle of its run', async () => {
    const n = 1500;
    await dueEnvironments(n);
    const a = runnerProcess();
    const b = runnerProcess();
    await Promise.all([a.started, b.started]);
    a.go();
    b.go();
    await killWhen(a, async () => (await count()) >= n / 5, 'the runs to be under way');
    expect(await count()).toBeLessThan(n);
    const survivor = (await b.result) as { payoutsCreated: number; payoutsUpdated: number };
    expect(survivor.payoutsCreated).toBeGreaterThan(0);
    const made = await count();
    expect(await considered()).toBe(made);

    // The next tick pays what the survivor did not claim (rows the killed run still held).
    const next = await t.app.get(PayoutRun).run({ now: new Date() });
    expect(next.payoutsCreated).toBe(n - made);
    // The payouts the killed run had leased to send (if it got there) wait for their lease to end:
    // as if it had, the next run sends them.
    await t.query(`UPDATE payouts SET next_attempt_at = now() WHERE status IN ('pending', 'in_transit')`);
    await t.app.get(PayoutRun).run({ now: new Date() });
    await expectPaidOnce(n);
  });

  it('settles every payout exactly once after the run is killed with SIGKILL while it sends them', async () => {
    const n = 1000;
    await dueEnvironments(n);
    const [killed, restarted] = [runnerProcess(), runnerProcess()];
    await Promise.all([killed.started, restarted.started]);
    killed.go();
    await killWhen(
      killed,
      async () => (await count(`status = 'paid'`)) >= n / 5 && (await count(`status = 'pending'`)) > 0,
      'the run to be sending',
    );
    expect(await count()).toBe(n);
    const paid = await count(`status = 'paid'`);
    expect(paid).toBeLessThan(n);
    // What the killed run had claimed to send stays leased to it; the restarted run sends the rest.
    const leased = await count(`status = 'pending' AND next_attempt_at > now()`);
    restarted.go();
    expect(await restarted.result).toEqual({ payoutsCreated: 0, payoutsUpdated: n - paid - leased });
    expect(await count(`status = 'pending'`)).toBe(leased);

    // Once the dead sender's lease has ended (made so here rather than waited for), the next run
    // sends those again, the gateway asked on the payout's id: each settled once.
    await t.query(`UPDATE payouts SET next_attempt_at = now() WHERE status = 'pending'`);
    expect((await t.app.get(PayoutRun).run({ now: new Date() })).payoutsUpdated).toBe(leased);
    expect(await count(`attempts > 2`)).toBe(0);
    await expectPaidOnce(n);
  });
});
