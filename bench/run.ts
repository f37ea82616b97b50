import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import type { ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Pool } from 'pg';
import { freePort } from '../src/common/net';
import { runMigrations } from '../src/database/data-source';
import { createPool } from '../src/database/database.module';
import { startEmbeddedPostgres } from '../src/database/embedded-postgres';
import { createRequest, lookupRequest } from './api-requests';
import { billingScenario } from './billing';
import { billingGrowthScenario } from './billing-growth';
import { againstCeiling } from './ceiling';
import { seedCeiling } from './ceiling-schema';
import { dashboardScenario } from './dashboard';
import { hostedPageScenario } from './hosted-page';
import { paymentLinkScenario } from './payment-link';
import { idempotencyKeyScenario } from './idempotency-key';
import { CONNECTIONS, fmt, SECONDS } from './measure';
import { metricsScenario } from './metrics';
import { balanceScenario, exportScenario, payoutRunScenario } from './money';
import { comparePayThroughput, payScenario } from './pay';
import { createOrganization, khoumsEnv, startProcess, stop } from './processes';
import { rateLimitsScenario } from './rate-limits';
import { remindersScenario } from './reminders';
import { testClocksScenario } from './test-clocks';
import { BENCH_NOTIFICATIONS_SECRET, transfersScenario } from './transfers';
import { webhookScenario } from './webhooks';

// The services the bench starts use an external database, where the documents' key is required.
process.env.DOCUMENTS_ENCRYPTION_KEY ??= randomBytes(32).toString('hex');

/**
 * `npm run bench`: Khoums's hot paths against a bare node:http + pg server doing the same work,
 * on one fresh embedded PostgreSQL, one after the other on this machine. Prints req/s, p50/p99
 * and the ratio to the ceiling. BENCH_SECONDS (default 10), BENCH_CONNECTIONS (default 50), and
 * BENCH_ONLY=lookup,pay,webhooks,page,link,dashboard,key,limiter,billing,billing-growth,test-clocks,reminders,metrics,balance,export,payouts,transfers
 * to run some scenarios only (create always runs, as pay's ceiling, unless only billing, test clocks,
 * reminders, the payment link's page or the ledger's balance, export and payouts are asked for). `link` is the
 * payment link's page against the hosted page, and its weight (bench/payment-link.ts). `balance`, `export` and `payouts` are the
 * ledger at scale (bench/money.ts): GET /balance over 1,000,000 balance transactions, their CSV export
 * with the service's memory watched, one payout run over 10,000 due environments. `transfers` is incoming
 * transfers (bench/transfers.ts): 200 signed notifications a second, each matching a payment, and the matching throughput. `dashboard` is
 * the dashboard's search over 1,000,000 payment requests (bench/dashboard.ts); `billing` the billing
 * runs over BENCH_BILLING_SIZES (default 10000,100000) due subscriptions and the billing lists;
 * `test-clocks` one Sandbox test clock's 1,000 monthly subscriptions advanced 12 months against a
 * billing run of as many invoices (bench/test-clocks.ts);
 * `reminders` the reminder run over BENCH_REMINDER_SIZES (default 10000,100000) invoices due the same day.
 * BENCH_WEBHOOK_BASELINE=<a checkout of another version, built>: the webhook scenario compares this
 * version's delivery throughput with that one's, in alternating rounds (BENCH_WEBHOOK_ROUNDS each,
 * default 3), each round a fresh worker process of one of them on the same database.
 * BENCH_PAY_BASELINE=<a built checkout of the code before the ledger>: pay with its ledger entry
 * against that version's pay, in alternating rounds (BENCH_PAY_ROUNDS each, default 3), each
 * version's service on a database of its own on the same PostgreSQL (bench/pay.ts).
 *
 * The embedded PostgreSQL runs with the settings `npm start` gives it (`writeLoadSettings`:
 * docs/operations.md's for the write load, sized to this machine), printed at the top;
 * BENCH_PG_SETTINGS=name=value,… changes some (`shared_buffers=128MB,max_wal_size=1GB`: PostgreSQL's
 * own defaults).
 *
 * The Khoums measured against the ceilings runs with its rate limits off: each scenario is driven
 * from one API key and one address, far above the limits' defaults. The `limiter` scenario measures
 * the limiter at its default settings, with the load spread over keys so none is limited.
 *
 * One file per scenario beside this one; measure.ts holds the load and its figures, processes.ts
 * the child processes.
 */

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'khoums-bench-'));
  chmodSync(dataDir, 0o755);
  const pg = await startEmbeddedPostgres({
    dataDir,
    port: await freePort(),
    database: 'khoums_bench',
    ephemeral: true,
    settings: Object.fromEntries(
      (process.env.BENCH_PG_SETTINGS ?? '')
        .split(',')
        .filter(Boolean)
        .map((setting) => setting.split('=', 2) as [string, string]),
    ),
  });
  const children: ChildProcess[] = [];
  let pool: Pool | undefined;
  let ceilingPool: Pool | undefined;
  try {
    await runMigrations(pg.url);
    // The operator's command creates the organization, as it would for a merchant.
    const org = createOrganization(pg.url, 'Bench', 'bench@khoums.local');
    const ds = createPool(pg.url, 2);
    const key = org.sandbox.secretKey;
    const lookupIds = Array.from({ length: 1000 }, (_, i) => `lookup-${i}`);
    for (const id of lookupIds) {
      await ds.query(
        `INSERT INTO payment_requests (id, environment_id, transaction_id, amount) VALUES (gen_random_uuid(), $1, $2, 100)`,
        [org.sandbox.environmentId, id],
      );
    }

    // The fixed ceilings' database (bench/ceiling-schema.ts), on the same PostgreSQL.
    await ds.query('CREATE DATABASE khoums_ceiling');
    const ceilingUrl = new URL(pg.url);
    ceilingUrl.pathname = '/khoums_ceiling';
    ceilingPool = createPool(ceilingUrl.toString(), 2);
    await seedCeiling(ceilingPool, key, 'lookup', lookupIds.length, 0);

    const khoumsPort = await freePort();
    const barePort = await freePort();
    const samePort = await freePort();
    // Every scheduled job off (khoumsEnv), as in the test apps; the service logs as in production.
    const env = khoumsEnv({
      DATABASE_URL: pg.url,
      LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'info',
      // The webhook receiver listens on 127.0.0.1.
      WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
      // The transfers scenario signs its notifications as a gateway would.
      BANK_NOTIFICATIONS_SECRET: BENCH_NOTIFICATIONS_SECRET,
      // Comparing two versions' webhook workers: each round starts its own.
      ...(process.env.BENCH_WEBHOOK_BASELINE ? { WEBHOOK_WORKER: 'false' } : {}),
    });
    const khoums = await startProcess(
      'dist/src/main.js',
      { ...env, PORT: String(khoumsPort), RATE_LIMIT_PER_KEY: '0', RATE_LIMIT_PER_IP: '0' },
      'Khoums is listening',
    );
    children.push(khoums);
    const bare = await startProcess(
      'dist/bench/bare-server.js',
      { DATABASE_URL: ceilingUrl.toString(), PORT: String(barePort) },
      'listening',
    );
    children.push(bare);
    const same = await startProcess(
      'dist/bench/same-statement-server.js',
      { DATABASE_URL: pg.url, PORT: String(samePort) },
      'listening',
    );
    children.push(same);
    const sides = {
      khoums: { port: khoumsPort, pid: khoums.pid! },
      ceiling: { port: barePort, pid: bare.pid! },
      same: { port: samePort, pid: same.pid! },
    };

    const settings = (
      await ds.query<{ name: string; setting: string }>(
        `SELECT name, current_setting(name) AS setting FROM unnest(ARRAY['server_version', 'shared_buffers',
         'max_wal_size', 'checkpoint_timeout']) name`,
      )
    ).rows;
    await ds.end();
    process.stdout.write(
      `\nKhoums bench: ${CONNECTIONS} connections, ${SECONDS} s per scenario, fresh embedded PostgreSQL ` +
        `(${settings.map((s) => `${s.name} ${s.setting}`).join(', ')})\n\n`,
    );
    const only = process.env.BENCH_ONLY?.split(',');
    const wanted = (name: string) => !only || only.includes(name);
    const noCeiling =
      only?.every((o) =>
        [
          'billing',
          'billing-growth',
          'test-clocks',
          'reminders',
          'balance',
          'export',
          'payouts',
          'link',
          'transfers',
        ].includes(o),
      ) ?? false;
    pool = createPool(pg.url, 2);
    const hot = !noCeiling;
    if (hot)
      await againstCeiling(
        'POST /payment-request (create)',
        { ...sides.khoums, request: createRequest(key, 'k') },
        { ...sides.ceiling, request: createRequest(key, 'b') },
        pool,
        { target: 0.6, p99Factor: 3, sameStatement: { ...sides.same, request: createRequest(key, 's') } },
      );
    if (wanted('metrics'))
      await metricsScenario({ ...env, RATE_LIMIT_PER_KEY: '0', RATE_LIMIT_PER_IP: '0' }, key, pool, children);
    if (wanted('key')) await idempotencyKeyScenario({ port: khoumsPort, pid: khoums.pid! }, key, pool);
    if (wanted('limiter')) await rateLimitsScenario(env, org, pool, children);
    if (wanted('lookup')) {
      await againstCeiling(
        'GET /payment-request/by-transaction/:id (look-up)',
        { ...sides.khoums, request: lookupRequest(key, lookupIds) },
        { ...sides.ceiling, request: lookupRequest(key, lookupIds) },
        pool,
        { target: 0.7, sameStatement: { ...sides.same, request: lookupRequest(key, lookupIds) } },
      );
    }
    if (wanted('pay') && hot)
      await payScenario(sides.khoums, { ...sides.ceiling, pool: ceilingPool }, sides.same, pg.url, org, pool);
    if (wanted('pay') && process.env.BENCH_PAY_BASELINE)
      await comparePayThroughput(
        { port: khoumsPort, pid: khoums.pid!, url: pg.url, org },
        process.env.BENCH_PAY_BASELINE,
        { ...env, RATE_LIMIT_PER_KEY: '0', RATE_LIMIT_PER_IP: '0' },
        children,
      );
    if (wanted('webhooks')) await webhookScenario(khoumsPort, pg.url, org, children);
    if (wanted('dashboard')) {
      const ds = createPool(pg.url, 2);
      try {
        await dashboardScenario(khoumsPort, ds, org, fmt);
      } finally {
        await ds.end();
      }
    }
    if (wanted('page')) await hostedPageScenario(khoumsPort, key);
    if (wanted('link')) await paymentLinkScenario(khoumsPort, khoums.pid!, key, pool);
    if (wanted('billing')) await billingScenario(pg.url, children);
    if (wanted('billing-growth')) await billingGrowthScenario(pg.url, children);
    if (wanted('test-clocks')) await testClocksScenario(pg.url, children);
    if (wanted('reminders')) await remindersScenario(pg.url, children);
    if (wanted('balance')) await balanceScenario(khoumsPort, khoums.pid!, pg.url, pool);
    if (wanted('export')) await exportScenario(khoumsPort, khoums.pid!, pg.url, pool);
    if (wanted('payouts')) await payoutRunScenario(pg.url, pool, env, children);
    if (wanted('transfers')) await transfersScenario(khoumsPort, khoums.pid!, org, pool, undefined);
    if (process.env.BENCH_STATEMENTS) await printStatements(pool, Number(process.env.BENCH_STATEMENTS));
  } finally {
    await pool?.end();
    await ceilingPool?.end();
    for (const c of children) await stop(c);
    await pg.stop();
  }
}

/**
 * BENCH_STATEMENTS=n, with `BENCH_PG_SETTINGS=shared_preload_libraries=pg_stat_statements`: the n
 * statements PostgreSQL spent the most execution time on over the run (pg_stat_statements; the
 * commits' WAL flushes are not in it), with their calls, mean time and share of all statements' time,
 * and how often they were planned and how long that took (with `pg_stat_statements.track_planning=on`
 * added to the settings: a prepared statement is planned once per connection when its generic plan
 * is kept, at every call when PostgreSQL keeps choosing custom plans).
 */
async function printStatements(pool: Pool, n: number): Promise<void> {
  await pool.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
  const { rows } = await pool.query<{
    calls: string;
    plans: string;
    plan: number;
    total: number;
    mean: number;
    share: number;
    query: string;
  }>(
    `SELECT calls, plans, mean_plan_time AS plan, total_exec_time AS total, mean_exec_time AS mean,
            total_exec_time / NULLIF(sum(total_exec_time) OVER (), 0) AS share, query
       FROM pg_stat_statements ORDER BY total_exec_time DESC LIMIT $1`,
    [n],
  );
  process.stdout.write('Statements by execution time (pg_stat_statements):\n');
  for (const r of rows)
    process.stdout.write(
      `  ${(r.share * 100).toFixed(1).padStart(5)} %  ${r.calls.padStart(8)} calls  mean ${r.mean.toFixed(3)} ms  ` +
        `(${r.plans} plans, mean ${r.plan.toFixed(3)} ms)  ` +
        `${r.query.replace(/\s+/g, ' ').slice(0, 160)}\n`,
    );
}

main().catch((err) => {
  process.stderr.write(`bench failed: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
