import autocannon from 'autocannon';
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { availableParallelism } from 'node:os';
import type { ChildProcess } from 'node:child_process';
import type { Pool } from 'pg';
import { freePort } from '../src/common/net';
import { loadConfig } from '../src/config/config';
import { CustomersRepository } from '../src/customers/customers.repository';
import { Db } from '../src/database/db';
import { createPool } from '../src/database/database.module';
import { encodeCursor } from '../src/database/keyset';
import type { Sql } from '../src/database/sql';
import { InvoiceReminders } from '../src/invoices/invoice-reminders';
import { InvoiceSubscriptions } from '../src/invoices/invoice-subscriptions';
import { InvoicesRepository } from '../src/invoices/invoices.repository';
import { SubscriptionsOfInvoices } from '../src/subscriptions/subscriptions-of-invoices';
import { SubscriptionsRepository } from '../src/subscriptions/subscriptions.repository';
import { PruneEventsJob } from '../src/webhooks/prune-events.job';
import { WebhooksRepository } from '../src/webhooks/webhooks.repository';
import { cpuMs, fmt, load, peakRss, postgresCpuFrom } from './measure';
import { createOrganization, khoumsEnv, startProcess } from './processes';

/**
 * Billing: runs over BENCH_BILLING_SIZES (10,000 then 100,000) due subscriptions, each of its own
 * customer, through POST /sandbox/billing/run, at each BILLING_CONCURRENCY of
 * BENCH_BILLING_CONCURRENCY (default: the service's default; `2,3` compares), each on a Khoums
 * instance of its own (fresh, so its memory is the runs'), the concurrencies of a size one after
 * the other. Invoices per second, CPU per invoice (the service, PostgreSQL), the instance's peak
 * RSS, time(largest)/time(first).
 * Then pruning the events those runs wrote, as the retention job does, in events/s; the list pages
 * with the environment holding over 100,000 subscriptions and invoices, and the plans PostgreSQL
 * chose for them (docs/billing.md).
 */
/** A product and its monthly price of 1,500 MRU in the environment, for the billing benches' subscriptions. */
export async function monthlyPrice(ds: Pool, organizationId: string, environmentId: string): Promise<string> {
  const {
    rows: [{ id: productId }],
  } = await ds.query(
    `INSERT INTO products (id, organization_id, environment_id, name) VALUES (gen_random_uuid(), $1, $2, 'Abonnement') RETURNING id`,
    [organizationId, environmentId],
  );
  const {
    rows: [{ id: priceId }],
  } = await ds.query(
    `INSERT INTO prices (id, organization_id, product_id, amount, interval) VALUES (gen_random_uuid(), $1, $2, 1500, 'monthly') RETURNING id`,
    [organizationId, productId],
  );
  return priceId as string;
}

/**
 * `n` customers labelled `label` (external ids `<label>-<i>`), each with a monthly subscription of
 * `priceId` whose first period started an hour ago, unbilled: `n` invoices for the next billing run.
 */
export async function seedDueMonthly(
  ds: Pool,
  scope: { organizationId: string; environmentId: string; priceId: string },
  label: string,
  n: number,
): Promise<void> {
  await ds.query(
    `INSERT INTO customers (id, organization_id, external_user_id, phone)
     SELECT gen_random_uuid(), $1, $2 || '-' || i, '2' || lpad((i % 10000000)::text, 7, '0') FROM generate_series(1, $3) i`,
    [scope.organizationId, label, n],
  );
  await ds.query(
    `INSERT INTO subscriptions (id, organization_id, environment_id, customer_id, price_id, status, started_at,
                                billing_anchor, billing_interval, next_period, next_billing_date)
     SELECT gen_random_uuid(), $1, $2, c.id, $3, 'active', now() - interval '1 hour', now() - interval '1 hour', 'monthly', 0,
            now() - interval '1 hour'
       FROM customers c WHERE c.organization_id = $1 AND c.external_user_id LIKE $4 || '-%'`,
    [scope.organizationId, scope.environmentId, scope.priceId, label],
  );
}

export async function billingScenario(url: string, children: ChildProcess[]): Promise<void> {
  const sizes = (process.env.BENCH_BILLING_SIZES ?? '10000,100000').split(',').map(Number);
  const org = createOrganization(url, 'Bench Billing', 'billing-bench@khoums.local');
  const env = org.sandbox.environmentId;
  const key = org.sandbox.secretKey;
  const ds = createPool(url, 2);
  const priceId = await monthlyPrice(ds, org.organizationId, env);
  const seed = async (n: number, label: string) => {
    await seedDueMonthly(ds, { organizationId: org.organizationId, environmentId: env, priceId }, label, n);
    await ds.query('VACUUM ANALYZE customers, subscriptions');
  };

  const concurrencies = (process.env.BENCH_BILLING_CONCURRENCY ?? String(loadConfig({}).BILLING_CONCURRENCY))
    .split(',')
    .map(Number);
  const instances = new Map<number, { port: number; pid: number }>();
  for (const concurrency of concurrencies) {
    const port = await freePort();
    const khoums = await startProcess(
      'dist/src/main.js',
      khoumsEnv({
        DATABASE_URL: url,
        PORT: String(port),
        BILLING_CONCURRENCY: String(concurrency),
        WEBHOOK_WORKER: 'false',
        // One key and one address drive the lists, far above the limits' defaults.
        RATE_LIMIT_PER_KEY: '0',
        RATE_LIMIT_PER_IP: '0',
      }),
      'Khoums is listening',
    );
    children.push(khoums);
    instances.set(concurrency, { port, pid: khoums.pid! });
  }
  const port = instances.get(concurrencies[0])!.port;
  /** CPU (ms) used so far by PostgreSQL: every process pg_stat_activity lists (backends, checkpointer, WAL writer). */

  const config = loadConfig({});
  // What invoices show of their subscription, registered as the application registers it.
  const invoiceSubscriptions = new InvoiceSubscriptions();
  new SubscriptionsOfInvoices(invoiceSubscriptions).onModuleInit();
  const explained: string[] = [];
  const explain = async (title: string, call: (db: Db) => Promise<unknown>) => {
    for (const statement of await statementsOf(call)) {
      const { text, values } = statement.compile();
      const { rows } = await ds.query(`EXPLAIN (ANALYZE, COSTS OFF) ${text}`, values);
      explained.push(
        `${title}\n${text.replace(/\s+/g, ' ').trim()}\n${rows.map((r: Record<string, string>) => '  ' + r['QUERY PLAN']).join('\n')}\n`,
      );
    }
  };

  const runs: {
    n: number;
    concurrency: number;
    seconds: number;
    invoices: number;
    peakMb: number;
    tenthsMb: number[];
    khoumsUs: number;
    postgresUs: number;
    load: string;
  }[] = [];
  for (const [round, n] of sizes.entries()) {
    for (const concurrency of concurrencies) {
      // A size may repeat (BENCH_BILLING_SIZES=200000,200000: concurrencies compared in alternation).
      const label = `run${round}n${n}c${concurrency}`;
      await seed(n, label);
      if (round === sizes.length - 1 && concurrency === concurrencies[0])
        await explain(`The billing run: claiming a batch (${n} due)`, (db) =>
          new SubscriptionsRepository(db, config, new InvoiceReminders()).claimDue(new Date(), 500, env),
        );
      const instance = instances.get(concurrency)!;
      const postgresSince = await postgresCpuFrom(ds);
      const khoumsBefore = cpuMs(instance.pid);
      const t0 = process.hrtime.bigint();
      const { result, peakMb, tenthsMb } = await peakRss(instance.pid, async () => {
        const res = await postLong(instance.port, '/api/v1/sandbox/billing/run', key);
        if (res.status !== 200) throw new Error(`billing run: ${res.status} ${res.body}`);
        return (JSON.parse(res.body) as { data: { invoicesCreated: number } }).data;
      });
      const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
      const per = (ms: number) => (ms * 1000) / Math.max(1, result.invoicesCreated);
      const khoumsUs = per(cpuMs(instance.pid) - khoumsBefore);
      const postgresUs = per(await postgresSince());
      if (result.invoicesCreated !== n)
        throw new Error(`billing run over ${n}: ${result.invoicesCreated} invoices`);
      runs.push({
        n,
        concurrency,
        seconds,
        invoices: result.invoicesCreated,
        peakMb,
        tenthsMb,
        khoumsUs,
        postgresUs,
        load: readFileSync('/proc/loadavg', 'utf8').split(' ')[0],
      });
    }
  }
  await ds.query('VACUUM ANALYZE invoices, payment_requests, events, subscriptions');

  const lines = runs.map(
    (r) =>
      `  ${String(r.n).padStart(7)} due  concurrency ${r.concurrency}  ${r.seconds.toFixed(2).padStart(7)} s   ${(r.invoices / r.seconds).toFixed(0).padStart(6)} invoices/s` +
      `   CPU/invoice: khoums ${r.khoumsUs.toFixed(0)} µs, postgres ${r.postgresUs.toFixed(0)} µs   peak RSS ${r.peakMb.toFixed(0)} MB   load ${r.load}\n` +
      `      RSS by tenth of the run (MB): ${r.tenthsMb.map((mb) => mb.toFixed(0)).join(' ')}`,
  );
  const at = (c: number) => runs.filter((r) => r.concurrency === c);
  const main = at(concurrencies[concurrencies.length - 1]);
  const ratio = main.length >= 2 ? main[main.length - 1].seconds / main[0].seconds : NaN;
  const rate = Math.min(...main.map((r) => r.invoices / r.seconds));
  const peak = Math.max(...main.map((r) => r.peakMb));
  const met = rate >= 2000 && (Number.isNaN(ratio) || ratio <= 11) && peak < 300;
  // National scale: the largest run at >= 6,000 invoices/s, meant for 1,000,000 due. On a machine
  // shared with other work the rate follows the load; the CPU an invoice costs the service and
  // PostgreSQL together gives the rate the machine's cores would allow if the run had them all.
  const largest = main[main.length - 1];
  const cores = availableParallelism();
  const cpuBound = largest ? (cores * 1e6) / (largest.khoumsUs + largest.postgresUs) : NaN;
  const national = largest && largest.n >= 1_000_000 && largest.invoices / largest.seconds >= 6000;
  process.stdout.write(
    `Billing run (POST /sandbox/billing/run, monthly subscriptions due, one invoice + payment request + 3 events each)\n` +
      `${lines.join('\n')}\n` +
      `  concurrency ${main[0]?.concurrency}: time(${main[main.length - 1]?.n})/time(${main[0]?.n}) = ${ratio.toFixed(2)}` +
      `   (target >= 2000 invoices/s, ratio <= 11, RSS < 300 MB: ${met ? 'met' : 'NOT met'})\n` +
      `  ${largest?.n} due: ${(largest ? largest.invoices / largest.seconds : NaN).toFixed(0)} invoices/s; ` +
      `the CPU per invoice allows ${cpuBound.toFixed(0)} invoices/s on ${cores} cores with nothing else running` +
      `   (target >= 6000 invoices/s at 1,000,000 due: ${national ? 'met' : largest && largest.n < 1_000_000 ? 'not measured (BENCH_BILLING_SIZES=1000000)' : 'NOT met'})\n\n`,
  );

  // Pruning: every event the runs wrote, as the retention job does past EVENT_RETENTION_DAYS.
  const { rows: aged } = await ds.query<{ n: number }>(
    `WITH aged AS (UPDATE events SET created_at = created_at - interval '31 days' WHERE environment_id = $1 RETURNING 1)
     SELECT count(*)::int AS n FROM aged`,
    [env],
  );
  await ds.query('VACUUM ANALYZE events');
  const pruneDb = new Db(ds);
  const pruning = new PruneEventsJob(pruneDb, new WebhooksRepository(pruneDb), loadConfig({}));
  const p0 = process.hrtime.bigint();
  const pruned = await pruning.run({ environmentId: env });
  const pruneSeconds = Number(process.hrtime.bigint() - p0) / 1e9;
  process.stdout.write(
    `Event retention: pruned ${pruned} of ${aged[0].n} events past retention in ${pruneSeconds.toFixed(2)} s: ` +
      `${(pruned / pruneSeconds).toFixed(0)} events/s (batches of 1000, one job)\n\n`,
  );

  // Lists with the environment holding every subscription and invoice above.
  const {
    rows: [{ subscriptions, invoices }],
  } = await ds.query(
    `SELECT (SELECT count(*)::int FROM subscriptions WHERE environment_id = $1) AS subscriptions,
            (SELECT count(*)::int FROM invoices WHERE organization_id = $2) AS invoices`,
    [env, org.organizationId],
  );
  process.stdout.write(`Lists (${subscriptions} subscriptions, ${invoices} invoices in the environment)\n`);
  for (const path of [
    '/api/v1/payment-request',
    '/api/v1/subscriptions',
    '/api/v1/subscriptions?page=2500',
    '/api/v1/subscriptions?status=active',
    '/api/v1/invoices',
    '/api/v1/invoices?page=2500',
  ]) {
    const req: autocannon.Request = { method: 'GET', path, headers: { authorization: key } };
    await load(port, req, 2);
    process.stdout.write(`  GET ${path.replace('/api/v1', '').padEnd(32)} ${fmt(await load(port, req))}\n`);
  }
  process.stdout.write('\n');

  // The plans PostgreSQL chooses for the very statements the repositories send (docs/billing.md).
  const page = { page: 1, limit: 20, offset: 0 };
  const deep = { page: 2500, limit: 20, offset: 49_980 };
  const plans: [string, (db: Db) => Promise<unknown>][] = [
    [
      'GET /subscriptions',
      (db) => new SubscriptionsRepository(db, config, new InvoiceReminders()).list(env, {}, page),
    ],
    [
      'GET /subscriptions?page=2500',
      (db) => new SubscriptionsRepository(db, config, new InvoiceReminders()).list(env, {}, deep),
    ],
    [
      'GET /subscriptions?status=active',
      (db) =>
        new SubscriptionsRepository(db, config, new InvoiceReminders()).list(env, { status: 'active' }, page),
    ],
    [
      'GET /subscriptions?status=past_due',
      (db) =>
        new SubscriptionsRepository(db, config, new InvoiceReminders()).list(
          env,
          { status: 'past_due' },
          page,
        ),
    ],
    [
      'GET /invoices',
      (db) => new InvoicesRepository(db, config, invoiceSubscriptions).list(org.organizationId, {}, page),
    ],
    [
      'GET /invoices?page=2500',
      (db) => new InvoicesRepository(db, config, invoiceSubscriptions).list(org.organizationId, {}, deep),
    ],
    [
      'GET /invoices?subscriptionId=',
      async (db) => {
        const {
          rows: [{ id }],
        } = await ds.query('SELECT id FROM subscriptions WHERE environment_id = $1 LIMIT 1', [env]);
        return new InvoicesRepository(db, config, invoiceSubscriptions).list(
          org.organizationId,
          { subscriptionId: id as string },
          page,
        );
      },
    ],
  ];
  // The dashboard's keyset pages over the same rows (docs/dashboard.md "Billing"): the first page,
  // a filter, and a page far down the list (after the cursor of the row half way through).
  const halfWay = async (table: 'invoices' | 'subscriptions') => {
    const {
      rows: [{ cursor }],
    } = await ds.query(
      `SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') || ',' || id AS cursor
         FROM ${table} WHERE environment_id = $1 ORDER BY created_at DESC, id DESC OFFSET $2 LIMIT 1`,
      [env, Math.floor((table === 'invoices' ? invoices : subscriptions) / 2)],
    );
    return encodeCursor(cursor as string);
  };
  const [invoiceCursor, subscriptionCursor] = [await halfWay('invoices'), await halfWay('subscriptions')];
  const keyset = { limit: 25 };
  plans.push(
    [
      'dashboard /invoices',
      (db) => new InvoicesRepository(db, config, invoiceSubscriptions).search(env, {}, keyset),
    ],
    [
      'dashboard /invoices?status=void (none)',
      (db) =>
        new InvoicesRepository(db, config, invoiceSubscriptions).search(env, { status: 'void' }, keyset),
    ],
    [
      'dashboard /invoices, half way down',
      (db) =>
        new InvoicesRepository(db, config, invoiceSubscriptions).search(
          env,
          {},
          { ...keyset, after: invoiceCursor },
        ),
    ],
    [
      'dashboard /subscriptions?status=active',
      (db) =>
        new SubscriptionsRepository(db, config, new InvoiceReminders()).search(
          env,
          { status: 'active' },
          keyset,
        ),
    ],
    [
      'dashboard /subscriptions, half way down',
      (db) =>
        new SubscriptionsRepository(db, config, new InvoiceReminders()).search(
          env,
          {},
          { ...keyset, after: subscriptionCursor },
        ),
    ],
    [
      'dashboard /customers?q=<phone>',
      (db) => new CustomersRepository(db).search(org.organizationId, { q: '20000042' }, keyset),
    ],
  );
  for (const [title, call] of plans) await explain(title, call);
  if (process.env.BENCH_EXPLAIN) process.stdout.write(explained.join('\n') + '\n');
  await ds.end();
}

/**
 * A POST answered after however long it takes (fetch gives up waiting for the answer's headers
 * after 300 s, less than a run over 1,000,000 takes on a busy machine).
 */
export function postLong(port: number, path: string, key: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, path, method: 'POST', headers: { authorization: key, 'content-length': 0 } },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        res.on('error', reject);
      },
    );
    req.setTimeout(0);
    req.on('error', reject);
    req.end();
  });
}

/** The statements a repository call sends, captured instead of run. */
async function statementsOf(call: (db: Db) => Promise<unknown>): Promise<Sql[]> {
  const captured: Sql[] = [];
  const db = new Db(undefined as never);
  db.many = (s: Sql) => (captured.push(s), Promise.resolve([]));
  db.one = (s: Sql) => (captured.push(s), Promise.resolve({ total: 0 } as never));
  await call(db);
  return captured;
}
