import { ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { readdirSync, readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import type { Pool } from 'pg';
import { freePort } from '../src/common/net';
import type { CreatedOrganization } from '../src/organizations/organizations.service';
import { cpuMs, peakRss, postgresCpuFrom } from './measure';
import { createOrganization, khoumsEnv, ROOT, startProcess, stop } from './processes';

/**
 * The ledger at scale (BENCH_ONLY=balance,export,payouts): `GET /balance` of an environment with
 * 1,000,000 balance transactions, the CSV export of those transactions with the service's memory
 * watched, and one payout run over 10,000 due environments through the bank simulator. Rows are
 * loaded with set-based SQL, their `balance_days` aggregates as the ledger's trigger keeps them.
 */

const LEDGER_ROWS = Number(process.env.BENCH_LEDGER_ROWS ?? 1_000_000);
const PAYOUT_ENVIRONMENTS = Number(process.env.BENCH_PAYOUT_ENVIRONMENTS ?? 10_000);
const BALANCE_REQUESTS = Number(process.env.BENCH_BALANCE_REQUESTS ?? 2000);

const load = () =>
  `load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`;
const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

let ledgerOrg: CreatedOrganization | undefined;

/** The user + system CPU (ms) of this process's children that have exited and been reaped (/proc). */
function reapedChildrenCpuMs(): number {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[13]) + Number(fields[14])) * 1000) / 100;
}

/**
 * CPU (ms) PostgreSQL has used: the postmaster's, its exited backends' (reaped by it) and its
 * live processes'.
 */
function postgresCpuMs(postmaster: number): number {
  const stat = readFileSync(`/proc/${postmaster}/stat`, 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  let ms = ((Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14])) * 1000) / 100;
  for (const e of readdirSync('/proc').filter((x) => /^\d+$/.test(x))) {
    try {
      const s = readFileSync(`/proc/${e}/stat`, 'utf8');
      const g = s.slice(s.lastIndexOf(')') + 2).split(' ');
      if (Number(g[1]) === postmaster) ms += cpuMs(Number(e));
    } catch {
      // Exited meanwhile.
    }
  }
  return ms;
}

/**
 * An organization whose Production environment holds LEDGER_ROWS `payment` transactions over the
 * last 365 days (each available a day after it), made once per run. The rows go in with the
 * per-row trigger off (one session, `session_replication_role`), then `balance_days` gets their
 * sums per UTC day and slot, the slot as the trigger picks it: what the trigger would have written.
 */
async function ledgerOrganization(url: string, pool: Pool): Promise<CreatedOrganization> {
  if (ledgerOrg) return ledgerOrg;
  const org = createOrganization(url, 'Ledger', 'ledger@khoums.local');
  const env = org.production.environmentId;
  const t0 = Date.now();
  const client = await pool.connect();
  try {
    await client.query(`SET session_replication_role = replica`);
    const chunk = 250_000;
    for (let from = 1; from <= LEDGER_ROWS; from += chunk) {
      await client.query(
        `INSERT INTO balance_transactions (id, type, amount, fee, net, source_id, available_on, environment_id,
                                           organization_id, created_at)
         SELECT gen_random_uuid(), 'payment', a.amount, a.fee, a.amount - a.fee, gen_random_uuid(),
                at + interval '1 day', $1, $2, at
           FROM generate_series($3::int, $4::int) i,
                LATERAL (SELECT now() - ($5::int - i) * (interval '365 days' / $5::int) AS at) x,
                LATERAL (SELECT 100 + abs(hashint4(i)) % 99900 AS amount) y,
                LATERAL (SELECT (y.amount * 100 + 5000) / 10000 AS fee, y.amount) a`,
        [env, org.organizationId, from, Math.min(LEDGER_ROWS, from + chunk - 1), LEDGER_ROWS],
      );
    }
    await client.query(`SET session_replication_role = DEFAULT`);
    await client.query(
      `INSERT INTO balance_days (environment_id, day, slot, net)
       SELECT environment_id, (available_on AT TIME ZONE 'UTC')::date, abs(hashtext(id::text)) % 16, sum(net)
         FROM balance_transactions WHERE environment_id = $1 GROUP BY 1, 2, 3
       ON CONFLICT (environment_id, day, slot) DO UPDATE SET net = balance_days.net + EXCLUDED.net`,
      [env],
    );
    await client.query('ANALYZE balance_transactions');
    await client.query('ANALYZE balance_days');
  } finally {
    await client.query(`SET session_replication_role = DEFAULT`).catch(() => undefined);
    client.release();
  }
  process.stdout.write(
    `  loaded ${LEDGER_ROWS.toLocaleString('en')} balance transactions in ${((Date.now() - t0) / 1000).toFixed(0)} s\n`,
  );
  ledgerOrg = org;
  return org;
}

/** `GET /balance` one request at a time over the environment of LEDGER_ROWS transactions: p50/p99 (target p99 <= 20 ms). */
export async function balanceScenario(port: number, pid: number, url: string, pool: Pool): Promise<void> {
  process.stdout.write(
    `GET /balance of an environment with ${LEDGER_ROWS.toLocaleString('en')} balance transactions\n`,
  );
  const org = await ledgerOrganization(url, pool);
  const key = org.production.secretKey;
  const ask = async () => {
    const res = await fetch(`http://127.0.0.1:${port}/api/v1/balance`, { headers: { authorization: key } });
    if (res.status !== 200) throw new Error(`GET /balance: ${res.status} ${await res.text()}`);
    return (await res.json()) as { data: { available: number; pending: number } };
  };
  const {
    rows: [sums],
  } = await pool.query<{ available: number; pending: number }>(
    `SELECT COALESCE(sum(net) FILTER (WHERE available_on <= now()), 0)::float8 AS available,
            COALESCE(sum(net) FILTER (WHERE available_on > now()), 0)::float8 AS pending
       FROM balance_transactions WHERE environment_id = $1`,
    [org.production.environmentId],
  );
  const first = await ask();
  if (first.data.available + first.data.pending !== sums.available + sums.pending)
    throw new Error(
      `GET /balance says ${JSON.stringify(first.data)}, the transactions ${JSON.stringify(sums)}`,
    );
  for (let i = 0; i < 100; i++) await ask(); // warm-up
  const times: number[] = [];
  // The CPU each request costs the service and PostgreSQL: on a loaded machine, the waits for a
  // core are in the latency but not in these.
  const postgresSince = await postgresCpuFrom(pool);
  const serviceBefore = cpuMs(pid);
  for (let i = 0; i < BALANCE_REQUESTS; i++) {
    const t0 = performance.now();
    await ask();
    times.push(performance.now() - t0);
  }
  const serviceUs = ((cpuMs(pid) - serviceBefore) * 1000) / BALANCE_REQUESTS;
  const pgMs = await postgresSince();
  times.sort((a, b) => a - b);
  const p99 = percentile(times, 99);
  process.stdout.write(
    `  ${BALANCE_REQUESTS} requests one at a time: p50 ${percentile(times, 50).toFixed(1)} ms   p99 ${p99.toFixed(1)} ms` +
      `   (target p99 <= 20 ms: ${p99 <= 20 ? 'met' : 'NOT met'}); CPU/request: khoums ${serviceUs.toFixed(0)} µs,` +
      ` postgres ${((pgMs * 1000) / BALANCE_REQUESTS).toFixed(0)} µs; balance ${first.data.available} available,` +
      ` ${first.data.pending} pending, as the transactions sum; ${load()}\n\n`,
  );
}

/**
 * `GET /balance-transactions` as CSV (`Accept: text/csv`) of the environment of LEDGER_ROWS
 * transactions, downloaded whole while the service's resident memory is sampled from /proc
 * (target: below 250 MB); every row must arrive.
 */
export async function exportScenario(port: number, pid: number, url: string, pool: Pool): Promise<void> {
  process.stdout.write(`CSV export of ${LEDGER_ROWS.toLocaleString('en')} balance transactions\n`);
  const org = await ledgerOrganization(url, pool);
  const t0 = Date.now();
  const { result, peakMb, tenthsMb } = await peakRss(pid, async () => {
    const res = await fetch(`http://127.0.0.1:${port}/api/v1/balance-transactions`, {
      headers: { authorization: org.production.secretKey, accept: 'text/csv' },
    });
    if (res.status !== 200) throw new Error(`CSV export: ${res.status} ${await res.text()}`);
    let lines = 0;
    let bytes = 0;
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      bytes += chunk.length;
      for (const b of chunk) if (b === 10) lines += 1;
    }
    return { rows: lines - 1, bytes };
  });
  const seconds = (Date.now() - t0) / 1000;
  if (result.rows !== LEDGER_ROWS)
    throw new Error(`CSV export: ${result.rows} rows arrived of ${LEDGER_ROWS}`);
  process.stdout.write(
    `  ${result.rows.toLocaleString('en')} rows (${(result.bytes / 1e6).toFixed(0)} MB) in ${seconds.toFixed(1)} s,` +
      ` ${(result.rows / seconds).toFixed(0)} rows/s; service RSS peak ${peakMb.toFixed(0)} MB` +
      ` (target < 250 MB: ${peakMb < 250 ? 'met' : 'NOT met'}); per tenth of the download ${tenthsMb.map((m) => m.toFixed(0)).join(', ')} MB; ${load()}\n\n`,
  );
}

/**
 * One payout run over PAYOUT_ENVIRONMENTS due Production environments, each of its own
 * organization with an approved payout account and 1,700 MRU available: copies, row for row, of
 * one organization the CLI made. The run is the service's (PayoutRun, bench/payout-runner.ts) in a
 * process of its own, its transfers through the bank simulator in another. Target: <= 60 s; each
 * environment paid exactly once (one payout each, one transfer each at the bank).
 */
export async function payoutRunScenario(
  url: string,
  pool: Pool,
  env: Record<string, string>,
  children: ChildProcess[],
): Promise<void> {
  const n = PAYOUT_ENVIRONMENTS;
  process.stdout.write(`Payout run over ${n.toLocaleString('en')} due environments (bank simulator)\n`);
  const template = createOrganization(url, 'Payouts', 'payouts@khoums.local', undefined, [
    '--payout-iban',
    'MR1300020001010000123456753',
    '--payout-bank',
    'BNM',
    '--payout-holder',
    'Boutique Bench',
  ]);
  const t0 = Date.now();
  await pool.query(
    `WITH n AS (SELECT i, gen_random_uuid() AS org, CASE WHEN i = 1 THEN $2::uuid ELSE gen_random_uuid() END AS env
                  FROM generate_series(1, $3::int) i),
     orgs AS (
       INSERT INTO organizations
       SELECT (jsonb_populate_record(NULL::organizations, to_jsonb(o) || jsonb_build_object('id', n.org))).*
         FROM organizations o, n WHERE o.id = $1 AND n.i > 1),
     envs AS (
       INSERT INTO environments
       SELECT (jsonb_populate_record(NULL::environments,
                 to_jsonb(e) || jsonb_build_object('id', n.env, 'organization_id', n.org))).*
         FROM environments e, n WHERE e.id = $2 AND n.i > 1),
     accounts AS (
       INSERT INTO payout_accounts
       SELECT (jsonb_populate_record(NULL::payout_accounts, to_jsonb(a) || jsonb_build_object('organization_id', n.org))).*
         FROM payout_accounts a, n WHERE a.organization_id = $1 AND n.i > 1),
     schedules AS (
       INSERT INTO payout_schedules (environment_id, organization_id) SELECT env, org FROM n WHERE n.i > 1)
     INSERT INTO balance_transactions (id, type, amount, fee, net, source_id, available_on, environment_id,
                                       organization_id, created_at)
     SELECT gen_random_uuid(), 'payment', 1700, 0, 1700, gen_random_uuid(), now() - interval '1 day', n.env,
            CASE WHEN n.i = 1 THEN $1::uuid ELSE n.org END, now() - interval '2 days'
       FROM n`,
    [template.organizationId, template.production.environmentId, n],
  );
  await pool.query('ANALYZE');
  process.stdout.write(
    `  loaded ${n.toLocaleString('en')} environments in ${((Date.now() - t0) / 1000).toFixed(0)} s\n`,
  );

  const simPort = await freePort();
  const sim = await startProcess(
    'dist/src/payments/banks/simulator/main.js',
    { BANK_SIMULATOR_PORT: String(simPort) },
    'Bank simulator listening',
  );
  children.push(sim);
  const simUrl = `http://127.0.0.1:${simPort}`;
  const {
    rows: [{ dir }],
  } = await pool.query<{ dir: string }>('SELECT current_setting($1) AS dir', ['data_directory']);
  const postmaster = Number(readFileSync(`${dir}/postmaster.pid`, 'utf8').split('\n')[0]);
  const pgBefore = postgresCpuMs(postmaster);
  const childrenBefore = reapedChildrenCpuMs();
  const t1 = Date.now();
  const runner = spawn(process.execPath, ['dist/bench/payout-runner.js'], {
    cwd: ROOT,
    // The run is started here, once: the payout job's timer stays off with every other job.
    env: {
      ...process.env,
      ...khoumsEnv({
        ...env,
        DATABASE_URL: url,
        PAYOUT_GATEWAY_URL: simUrl,
        PAYOUT_HOUR_UTC: '0',
        WEBHOOK_WORKER: 'false',
        LOG_LEVEL: 'warn',
      }),
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(runner);
  let out = '';
  runner.stdout.on('data', (d: Buffer) => (out += d.toString()));
  const [code] = (await once(runner, 'exit')) as [number | null];
  const processSeconds = (Date.now() - t1) / 1000;
  const runnerCpu = (reapedChildrenCpuMs() - childrenBefore) / 1000;
  const pgCpu = (postgresCpuMs(postmaster) - pgBefore) / 1000;
  const simCpu = cpuMs(sim.pid!) / 1000;
  if (code !== 0) throw new Error(`payout runner exited ${code}: ${out}`);
  const run = JSON.parse(out.trim().split('\n').pop()!) as {
    payoutsCreated: number;
    payoutsUpdated: number;
    ms: number;
  };
  const [paid] = (
    await pool.query<{ environments: number; once: number; paid: number; total: number }>(
      `SELECT count(*)::int AS environments, count(*) FILTER (WHERE x.payouts = 1)::int AS once,
              count(*) FILTER (WHERE x.paid = 1)::int AS paid, COALESCE(sum(x.total), 0)::float8 AS total
         FROM (SELECT b.environment_id, count(p.id) AS payouts, count(p.id) FILTER (WHERE p.status = 'paid') AS paid,
                      sum(p.amount) AS total
                 FROM balance_transactions b LEFT JOIN payouts p ON p.environment_id = b.environment_id
                WHERE b.type = 'payment' AND b.amount = 1700 AND b.fee = 0
                  AND b.environment_id IN (SELECT e.id FROM environments e WHERE e.kind = 'production')
                GROUP BY b.environment_id) x`,
    )
  ).rows;
  const bank = (await (await fetch(`${simUrl}/_control/stats`)).json()) as { transfers: number };
  await stop(sim);
  const seconds = run.ms / 1000;
  const eachOnce = paid.once === n && paid.paid === n && bank.transfers === n && paid.total === n * 1700;
  process.stdout.write(
    `  run ${seconds.toFixed(1)} s (its process ${processSeconds.toFixed(1)} s, start-up included):` +
      ` ${run.payoutsCreated} payouts made, ${run.payoutsUpdated} settled; ${paid.once}/${n} environments paid exactly once` +
      ` (${paid.paid} paid, ${bank.transfers} transfers at the bank)` +
      `   (target <= 60 s on 2 cores, each once: ${seconds <= 60 && eachOnce ? 'met' : 'NOT met'}); ${cpus().length} cores, ${load()}\n` +
      `  CPU: the run's process ${runnerCpu.toFixed(1)} s, PostgreSQL ${pgCpu.toFixed(1)} s, the bank simulator ${simCpu.toFixed(1)} s:` +
      ` ${((runnerCpu + pgCpu + simCpu) / 2).toFixed(1)} s of 2 cores (what the run needs of a machine of its own)\n\n`,
  );
}
