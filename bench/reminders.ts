import { readFileSync } from 'node:fs';
import type { ChildProcess } from 'node:child_process';
import { freePort } from '../src/common/net';
import { createPool } from '../src/database/database.module';
import { monthlyPrice, postLong, seedDueMonthly } from './billing';
import { cpuMs, postgresCpuFrom } from './measure';
import { createOrganization, khoumsEnv, startProcess } from './processes';

/**
 * Reminders: runs of the reminder run over BENCH_REMINDER_SIZES (default 10,000 then 100,000)
 * pending invoices all due the same day (two days ahead, so each gets its `invoice-upcoming` with
 * the three ready-made texts), through POST /sandbox/billing/run (its billing and dunning find
 * nothing to do), on a Khoums instance of its own. Invoices reminded per second, the time per
 * invoice of the largest size over the smallest's (1 when the time grows linearly), the CPU per
 * invoice (the service, PostgreSQL) and the load average. The invoices are made by the billing run
 * itself, then moved to the same due date.
 */
export async function remindersScenario(url: string, children: ChildProcess[]): Promise<void> {
  const sizes = (process.env.BENCH_REMINDER_SIZES ?? '10000,100000').split(',').map(Number);
  const org = createOrganization(url, 'Bench Reminders', 'reminders-bench@khoums.local');
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
    }),
    'Khoums is listening',
  );
  children.push(khoums);
  const run = async () => {
    const res = await postLong(port, '/api/v1/sandbox/billing/run', key);
    if (res.status !== 200) throw new Error(`billing run: ${res.status} ${res.body}`);
  };
  const reminded = async () =>
    (
      await ds.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM events WHERE environment_id = $1 AND kind = 'invoice-upcoming'`,
        [env],
      )
    ).rows[0].n;

  /** `n` customers with a phone, each with a monthly subscription billed now: `n` pending invoices due the same day. */
  const seed = async (n: number, label: string) => {
    await seedDueMonthly(ds, { organizationId: org.organizationId, environmentId: env, priceId }, label, n);
    await run(); // bills them: invoices due in a month, nothing to remind yet
    const { rowCount } = await ds.query(
      `UPDATE invoices SET due_date = date_trunc('day', now()) + interval '2 days 12 hours', reminder_at = now() - interval '1 minute'
        WHERE environment_id = $1 AND status = 'pending' AND reminder_step IS NULL`,
      [env],
    );
    if (rowCount !== n) throw new Error(`seeding ${n} invoices: ${rowCount}`);
    await ds.query('VACUUM ANALYZE invoices, customers, subscriptions');
  };

  const runs: { n: number; seconds: number; khoumsUs: number; postgresUs: number; load: string }[] = [];
  for (const n of sizes) {
    await seed(n, `rem${n}`);
    const before = await reminded();
    const postgresSince = await postgresCpuFrom(ds);
    const khoumsBefore = cpuMs(khoums.pid!);
    const t0 = process.hrtime.bigint();
    await run();
    const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
    const sent = (await reminded()) - before;
    if (sent !== n) throw new Error(`reminder run over ${n}: ${sent} reminders`);
    const postgresMs = await postgresSince();
    runs.push({
      n,
      seconds,
      khoumsUs: ((cpuMs(khoums.pid!) - khoumsBefore) * 1000) / n,
      postgresUs: (postgresMs * 1000) / n,
      load: readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' '),
    });
  }
  await ds.end();

  const first = runs[0];
  const last = runs[runs.length - 1];
  const perInvoice = (r: (typeof runs)[number]) => r.seconds / r.n;
  const ratio = perInvoice(last) / perInvoice(first);
  const rate = last.n / last.seconds;
  const met = rate >= 2000 && ratio <= 1.5;
  process.stdout.write(
    `Reminder run (POST /sandbox/billing/run, pending invoices due the same day, one invoice-upcoming event with fr/ar/en texts each)\n` +
      runs
        .map(
          (r) =>
            `  ${String(r.n).padStart(7)} invoices  ${r.seconds.toFixed(2).padStart(7)} s   ${(r.n / r.seconds).toFixed(0).padStart(6)} invoices/s` +
            `   ${((r.seconds / r.n) * 1e6).toFixed(0)} µs/invoice   CPU/invoice: khoums ${r.khoumsUs.toFixed(0)} µs, postgres ${r.postgresUs.toFixed(0)} µs   load ${r.load}`,
        )
        .join('\n') +
      `\n  time per invoice ${last.n}/${first.n} = ${ratio.toFixed(2)}` +
      `   (target >= 2000 invoices/s at ${last.n}, time linear (ratio <= 1.5): ${met ? 'met' : 'NOT met'})\n\n`,
  );
}
