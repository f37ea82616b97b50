import type { ChildProcess } from 'node:child_process';
import { request } from 'node:http';
import { readFileSync } from 'node:fs';
import type { Pool } from 'pg';
import { freePort } from '../src/common/net';
import { createPool } from '../src/database/database.module';
import { monthlyPrice, postLong, seedDueMonthly } from './billing';
import { cpuMs, postgresCpuFrom } from './measure';
import { createOrganization, khoumsEnv, startProcess } from './processes';

const DAY_MS = 86_400_000;

/**
 * Sandbox test clocks (docs/billing.md "Testing with test clocks"): advancing one clock with
 * BENCH_CLOCK_SUBSCRIPTIONS (default 1,000) monthly subscriptions by 12 months (12 invoices each)
 * through POST /test-clocks/:id/advance and the advance job, against a plain billing run
 * (POST /sandbox/billing/run) of as many invoices, in BENCH_CLOCK_ROUNDS (default 3) interleaved
 * rounds on one Khoums instance. CPU per invoice, the service's and PostgreSQL's; target: the
 * advance at most 1.5× the billing run.
 *
 * The billing run's invoices are 12,000 subscriptions due once, not 1,000 twelve months behind:
 * each of the advance's invoices is a moment's renewal of one period (one claim, one renewal, one
 * subscription written per invoice), which is what a run of subscriptions due once does; one of
 * subscriptions twelve months behind writes each subscription once for twelve invoices, a cheaper
 * path the advance cannot take, since it stops at every moment in between.
 *
 * The clock's subscriptions are anchored over BENCH_CLOCK_ANCHOR_DAYS (default 28, at most 28, so
 * that each has 12 periods in the 12 months) days of a month, as customers subscribing over a month
 * are: the advance goes through 12 × 28 billing moments; all on one day would make 12 and hide
 * what a moment costs. The environment has no reminder days, so both sides do the same work
 * (the billing run sends no reminder); an advance with the default reminder days (3 days before
 * the due date, 1, 3 and 7 after) is measured once after the rounds and printed beside them, its
 * reminders being work the real clock's reminder run would do as well.
 */
export async function testClocksScenario(url: string, children: ChildProcess[]): Promise<void> {
  const subscriptions = Number(process.env.BENCH_CLOCK_SUBSCRIPTIONS ?? 1000);
  const rounds = Number(process.env.BENCH_CLOCK_ROUNDS ?? 3);
  const anchorDays = Number(process.env.BENCH_CLOCK_ANCHOR_DAYS ?? 28);
  if (!(anchorDays >= 1 && anchorDays <= 28)) throw new Error('BENCH_CLOCK_ANCHOR_DAYS: 1 to 28');
  const months = 12;
  const n = subscriptions * months;
  const org = createOrganization(url, 'Bench Clocks', 'clocks-bench@khoums.local');
  const env = org.sandbox.environmentId;
  const key = org.sandbox.secretKey;
  const ds = createPool(url, 2);
  const priceId = await monthlyPrice(ds, org.organizationId, env);

  const port = await freePort();
  const khoums = await startProcess(
    'dist/src/main.js',
    khoumsEnv({
      DATABASE_URL: url,
      PORT: String(port),
      WEBHOOK_WORKER: 'false',
      RATE_LIMIT_PER_KEY: '0',
      RATE_LIMIT_PER_IP: '0',
      // The advance job on, for the advance route's tick; its timer far apart, so the route starts
      // each advance and no tick runs between the rounds.
      TEST_CLOCK_INTERVAL_MS: String(3_600_000),
    }),
    'Khoums is listening',
  );
  children.push(khoums);
  const call = (method: string, path: string, body: object) => jsonRequest(port, method, path, key, body);
  const setReminders = async (beforeDueDays: number[], afterDueDays: number[]) => {
    const res = await call('PATCH', '/api/v1/billing-settings', {
      reminders: { beforeDueDays, afterDueDays },
    });
    if (res.status !== 200) throw new Error(`billing settings: ${res.status} ${res.body}`);
  };
  await setReminders([], []);

  /** `count` customers labelled `label`, each with an unbilled monthly subscription due an hour ago. */
  const seedDue = async (label: string, count: number) => {
    await seedDueMonthly(
      ds,
      { organizationId: org.organizationId, environmentId: env, priceId },
      label,
      count,
    );
    await ds.query('VACUUM ANALYZE customers, subscriptions');
  };

  /**
   * A clock at `start` with `subscriptions` customers on it, each subscribed monthly 0 to
   * `anchorDays` - 1 days before `start` (their first period billed): 12 periods each start by 12 months after `start`.
   */
  const seedClock = async (label: string, start: Date): Promise<string> => {
    const res = await call('POST', '/api/v1/test-clocks', { frozenTime: start.toISOString(), name: label });
    if (res.status !== 200) throw new Error(`test clock: ${res.status} ${res.body}`);
    const clockId = (JSON.parse(res.body) as { data: { id: string } }).data.id;
    await ds.query(
      `INSERT INTO customers (id, organization_id, external_user_id, phone, test_clock_id)
       SELECT gen_random_uuid(), $1, $2 || '-' || i, '4' || lpad((i % 10000000)::text, 7, '0'), $4 FROM generate_series(1, $3) i`,
      [org.organizationId, label, subscriptions, clockId],
    );
    await ds.query(
      `INSERT INTO subscriptions (id, organization_id, environment_id, customer_id, price_id, status, started_at,
                                  billing_anchor, billing_interval, next_period, next_billing_date, current_period_start,
                                  current_period_end, test_clock_id)
       SELECT gen_random_uuid(), $1, $2, c.id, $3, 'active', a.anchor, a.anchor, 'monthly', 1, a.anchor + interval '1 month',
              a.anchor, a.anchor + interval '1 month', $5
         FROM customers c
        CROSS JOIN LATERAL (SELECT $4::timestamptz - make_interval(days => (hashtext(c.id::text) & 1023) % $6::int) AS anchor) a
        WHERE c.test_clock_id = $5`,
      [org.organizationId, env, priceId, start, clockId, anchorDays],
    );
    await ds.query('VACUUM ANALYZE customers, subscriptions, invoices');
    return clockId;
  };

  /** Advances the clock by 12 months and waits until it is ready (polled from the bench's own pool). */
  const advance = async (clockId: string, start: Date) => {
    const to = new Date(start);
    to.setUTCMonth(to.getUTCMonth() + months);
    const res = await call('POST', `/api/v1/test-clocks/${clockId}/advance`, {
      frozenTime: to.toISOString(),
    });
    if (res.status !== 200) throw new Error(`advance: ${res.status} ${res.body}`);
    for (;;) {
      await new Promise((r) => setTimeout(r, 100));
      const { rows } = await ds.query<{ status: string }>('SELECT status FROM test_clocks WHERE id = $1', [
        clockId,
      ]);
      if (rows[0]?.status === 'ready') break;
    }
  };

  /**
   * What the clock's advance made, counted after the measure: its invoices, and the environment's
   * reminders (only the last clock's advance has reminder days).
   */
  const madeBy = async (clockId: string) => {
    const { rows } = await ds.query<{ invoices: number; reminders: number }>(
      `SELECT (SELECT count(*)::int FROM invoices WHERE test_clock_id = $1) AS invoices,
              (SELECT count(*)::int FROM events
                WHERE environment_id = $2 AND kind IN ('invoice-upcoming', 'invoice-overdue')) AS reminders`,
      [clockId, env],
    );
    return rows[0];
  };

  /** CPU (ms) of the service and of PostgreSQL (every process pg_stat_activity lists) spent by `work`. */
  const measured = async <T>(work: () => Promise<T>) => {
    const postgresSince = await postgresCpuFrom(ds);
    const khoumsBefore = cpuMs(khoums.pid!);
    const t0 = process.hrtime.bigint();
    const result = await work();
    const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
    const khoumsMs = cpuMs(khoums.pid!) - khoumsBefore;
    const postgresMs = await postgresSince();
    return {
      result,
      seconds,
      khoumsMs,
      postgresMs,
      load: readFileSync('/proc/loadavg', 'utf8').split(' ')[0],
    };
  };

  type Kind = 'billing run' | 'advance';
  const results: {
    kind: Kind;
    round: number;
    seconds: number;
    khoumsUs: number;
    postgresUs: number;
    load: string;
  }[] = [];
  // Every clock starts at the same whole day (a clock's objects are its own).
  const start = new Date(Math.floor(Date.now() / DAY_MS) * DAY_MS);
  let lastClock = '';
  for (let round = 0; round < rounds; round++) {
    const order: Kind[] = round % 2 === 0 ? ['billing run', 'advance'] : ['advance', 'billing run'];
    for (const kind of order) {
      let m: Awaited<ReturnType<typeof measured>>;
      if (kind === 'billing run') {
        await seedDue(`c${round}due`, n);
        m = await measured(async () => {
          const res = await postLong(port, '/api/v1/sandbox/billing/run', key);
          if (res.status !== 200) throw new Error(`billing run: ${res.status} ${res.body}`);
          const created = (JSON.parse(res.body) as { data: { invoicesCreated: number } }).data
            .invoicesCreated;
          if (created !== n) throw new Error(`billing run over ${n}: ${created} invoices`);
        });
      } else {
        const clockId = await seedClock(`c${round}clock`, start);
        lastClock = clockId;
        m = await measured(() => advance(clockId, start));
        const { invoices } = await madeBy(clockId);
        if (invoices !== n)
          throw new Error(`advance of ${subscriptions} subscriptions: ${invoices} invoices`);
      }
      results.push({
        kind,
        round,
        seconds: m.seconds,
        khoumsUs: (m.khoumsMs * 1000) / n,
        postgresUs: (m.postgresMs * 1000) / n,
        load: m.load,
      });
    }
  }

  const moments = await billingMoments(ds, lastClock);

  const total = (r: { khoumsUs: number; postgresUs: number }) => r.khoumsUs + r.postgresUs;
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const of = (kind: Kind) => results.filter((r) => r.kind === kind);
  const ratio = median(of('advance').map(total)) / median(of('billing run').map(total));
  const lines = results.map(
    (r) =>
      `  round ${r.round + 1}  ${r.kind.padEnd(11)} ${r.seconds.toFixed(2).padStart(6)} s   CPU/invoice: khoums ${r.khoumsUs.toFixed(0).padStart(4)} µs,` +
      ` postgres ${r.postgresUs.toFixed(0).padStart(4)} µs, total ${total(r).toFixed(0).padStart(4)} µs   load ${r.load}`,
  );
  const perRound = Array.from({ length: rounds }, (_, i) =>
    (total(of('advance')[i]) / total(of('billing run')[i])).toFixed(2),
  );
  process.stdout.write(
    `Test clocks: advancing one clock with ${subscriptions} monthly subscriptions by ${months} months (${n} invoices, ` +
      `${moments} billing moments) against a billing run of ${n} due once (${rounds} interleaved rounds, no reminder days)\n` +
      `${lines.join('\n')}\n` +
      `  advance/billing run per round: ${perRound.join(', ')}; median advance/median run = ${ratio.toFixed(2)}` +
      `   (target <= 1.50: ${ratio <= 1.5 ? 'met' : 'NOT met'})\n`,
  );

  // Once more with the default reminder days: the advance's reminders too (informative, no target;
  // BENCH_CLOCK_REMINDERS=0 leaves it out).
  if (process.env.BENCH_CLOCK_REMINDERS !== '0') {
    await setReminders([3], [1, 3, 7]);
    const clockId = await seedClock('cremind', start);
    const m = await measured(() => advance(clockId, start));
    const { invoices, reminders } = await madeBy(clockId);
    if (invoices !== n) throw new Error(`advance with reminders: ${invoices} invoices`);
    process.stdout.write(
      `  advance with the default reminder days (3 before, 1, 3, 7 after; ${reminders} reminders): ${m.seconds.toFixed(2)} s, ` +
        `CPU/invoice: khoums ${((m.khoumsMs * 1000) / n).toFixed(0)} µs, postgres ${((m.postgresMs * 1000) / n).toFixed(0)} µs   load ${m.load}\n`,
    );
  }
  await ds.end();
  process.stdout.write('\n');
}

/** The moments of the clock at which invoices were created: the advance's billing moments. */
async function billingMoments(ds: Pool, clockId: string): Promise<number> {
  const { rows } = await ds.query<{ moments: number }>(
    'SELECT count(DISTINCT created_at)::int AS moments FROM invoices WHERE test_clock_id = $1',
    [clockId],
  );
  return rows[0].moments;
}

/** A request with a JSON body, its status and body. */
function jsonRequest(
  port: number,
  method: string,
  path: string,
  key: string,
  body: object,
): Promise<{ status: number; body: string }> {
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path,
        method,
        headers: {
          authorization: key,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(payload),
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}
