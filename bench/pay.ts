import autocannon from 'autocannon';
import type { ChildProcess } from 'node:child_process';
import { loadavg } from 'node:os';
import type { Pool } from 'pg';
import { freePort } from '../src/common/net';
import { createPool } from '../src/database/database.module';
import type { CreatedOrganization } from '../src/organizations/organizations.service';
import { againstCeiling, AgainstCeiling } from './ceiling';
import { seedCeiling } from './ceiling-schema';
import { Costed, costed, load, SECONDS } from './measure';
import { createOrganization, startProcess } from './processes';

/**
 * Pay (sandbox Masrivi, the bank answers at once): every request pays a fresh unpaid payment
 * request with the publishable key, against the fixed pay ceiling (bench/README.md: the request
 * marked paid, its payment, its ledger row and one event in one transaction, on the ceiling's
 * schema), and the bare server running Khoums's own pay statements (same-statement).
 */
export async function payScenario(
  khoums: { port: number; pid: number },
  ceiling: { port: number; pid: number; pool: Pool },
  sameStatement: { port: number; pid: number } | undefined,
  url: string,
  org: CreatedOrganization,
  pool: Pool,
): Promise<AgainstCeiling> {
  const ds = createPool(url, 2);
  // Enough for the warm-ups and every round at a few thousand payments a second; the ceiling's
  // pays up to 25,000 a second on a fast machine (17,000 seen), each needing a request of its own.
  const total = Math.max(60_000, SECONDS * 4 * 3000);
  const ceilingTotal = SECONDS * 4 * 25_000;
  const mine = await payRequests(ds, org, 'pay', total);
  const same = sameStatement ? await payRequests(ds, org, 'same', total) : undefined;
  await ds.end();
  await seedCeiling(ceiling.pool, org.sandbox.publishableKey, 'pay', ceilingTotal);
  let next = 0;
  const ceilingPay: autocannon.Request = {
    method: 'POST',
    path: '/api/v1/payment',
    headers: { authorization: org.sandbox.publishableKey, 'content-type': 'application/json' },
    setupRequest: (req) => ({
      ...req,
      body: JSON.stringify({ transactionId: `pay-${++next}`, phoneNumber: '22222222', passCode: '' }),
    }),
  };
  const result = await againstCeiling(
    'POST /payment (sandbox, the bank answers at once)',
    { ...khoums, request: mine.request },
    { port: ceiling.port, pid: ceiling.pid, request: ceilingPay },
    pool,
    {
      target: 0.4,
      p99Factor: 3,
      sameStatement: sameStatement && same && { ...sameStatement, request: same.request },
    },
  );
  if (mine.used() > total || next > ceilingTotal || (same?.used() ?? 0) > total)
    throw new Error('pay scenario ran out of payment requests: raise its total');
  return result;
}

/** The masrivi bank app of an environment (the Sandbox's answers at once). */
async function masriviOf(ds: Pool, environmentId: string): Promise<string> {
  const { rows } = await ds.query<{ id: string }>(
    `SELECT id FROM payment_methods WHERE environment_id = $1 AND type = 'masrivi'`,
    [environmentId],
  );
  return rows[0].id;
}

/** Pay requests over `total` fresh unpaid payment requests `<prefix>-1…` of the environment. */
async function payRequests(
  ds: Pool,
  org: CreatedOrganization,
  prefix: string,
  total: number,
): Promise<{ request: autocannon.Request; used: () => number }> {
  await ds.query(
    `INSERT INTO payment_requests (id, environment_id, transaction_id, amount)
     SELECT gen_random_uuid(), $1, $3 || '-' || i, 1500 FROM generate_series(1, $2) i`,
    [org.sandbox.environmentId, total, prefix],
  );
  const methodId = await masriviOf(ds, org.sandbox.environmentId);
  let next = 0;
  return {
    used: () => next,
    request: {
      method: 'POST',
      path: '/api/v1/payment',
      headers: { authorization: org.sandbox.publishableKey, 'content-type': 'application/json' },
      setupRequest: (req) => ({
        ...req,
        body: JSON.stringify({
          transactionId: `${prefix}-${++next}`,
          phoneNumber: '22222222',
          passCode: '',
          configurationId: methodId,
        }),
      }),
    },
  };
}

/**
 * BENCH_PAY_BASELINE=<a built checkout of the code before the ledger>: pay with its ledger entry
 * (this version) against pay without one (that version), in one run: each version's service in a
 * process of its own on a database of its own (that version's migrations, its organization made by
 * its own CLI) on the same PostgreSQL, loaded in alternating rounds (A, B, B, A, A, B …;
 * BENCH_PAY_ROUNDS each, default 3) after a warm-up of each. Prints both, per round and their
 * mean, and the ratio of the means (target >= 0.90), with the CPU each payment cost.
 */
export async function comparePayThroughput(
  mine: { port: number; pid: number; url: string; org: CreatedOrganization },
  baseline: string,
  env: NodeJS.ProcessEnv,
  children: ChildProcess[],
): Promise<void> {
  const rounds = Number(process.env.BENCH_PAY_ROUNDS ?? 3);
  const seconds = Math.max(3, SECONDS);
  const admin = createPool(mine.url, 2);
  const baseUrl = new URL(mine.url);
  baseUrl.pathname = '/khoums_pay_baseline';
  await admin.query('CREATE DATABASE khoums_pay_baseline');
  const baseOrg = createOrganization(baseUrl.toString(), 'Baseline', 'baseline@khoums.local', baseline);
  const basePort = await freePort();
  const base = await startProcess(
    'dist/src/main.js',
    { ...env, DATABASE_URL: baseUrl.toString(), PORT: String(basePort) },
    'Khoums is listening',
    baseline,
  );
  children.push(base);
  const baseDs = createPool(baseUrl.toString(), 2);
  // Enough requests for the warm-up and every round at a few thousand payments a second.
  const total = (rounds + 1) * seconds * 6000;
  const a = await payRequests(admin, mine.org, 'cmp', total);
  const b = await payRequests(baseDs, baseOrg, 'cmp', total);
  await baseDs.end();
  const sides = [
    { name: 'with the ledger', port: mine.port, pid: mine.pid, pay: a, runs: [] as Costed[] },
    { name: `baseline (${baseline})`, port: basePort, pid: base.pid!, pay: b, runs: [] as Costed[] },
  ];
  try {
    for (const s of sides) await load(s.port, s.pay.request, 3);
    for (let round = 0; round < rounds; round++) {
      for (const s of round % 2 === 0 ? sides : [...sides].reverse())
        s.runs.push(await costed(s.port, s.pid, admin, s.pay.request, seconds));
    }
    if (sides.some((s) => s.pay.used() > total))
      throw new Error('pay comparison ran out of payment requests');
  } finally {
    await admin.end();
  }
  const mean = (xs: number[]) => xs.reduce((x, y) => x + y, 0) / xs.length;
  const [mineRps, baseRps] = sides.map((s) => mean(s.runs.map((r) => r.rps)));
  const cpu = (s: (typeof sides)[number]) => mean(s.runs.map((r) => r.khoumsUs + r.postgresUs));
  const ratio = mineRps / baseRps;
  process.stdout.write(
    `POST /payment with its ledger entry against the code before the ledger (${rounds} alternating rounds of ${seconds} s each)\n` +
      sides
        .map(
          (s) =>
            `  ${s.name.padEnd(16)} mean ${mean(s.runs.map((r) => r.rps)).toFixed(0)} req/s   rounds ${s.runs.map((r) => r.rps.toFixed(0)).join(', ')}` +
            `   p99 ${s.runs.map((r) => r.p99).join(', ')} ms   CPU/payment ${cpu(s).toFixed(0)} µs` +
            ` (khoums ${mean(s.runs.map((r) => r.khoumsUs)).toFixed(0)}, postgres ${mean(s.runs.map((r) => r.postgresUs)).toFixed(0)};` +
            ` rounds ${s.runs.map((r) => (r.khoumsUs + r.postgresUs).toFixed(0)).join(', ')})` +
            (s.runs.some((r) => r.errors || r.non2xx)
              ? `   (errors ${s.runs.reduce((n, r) => n + r.errors, 0)}, non-2xx ${s.runs.reduce((n, r) => n + r.non2xx, 0)})`
              : ''),
        )
        .join('\n') +
      `\n  ratio   ${ratio.toFixed(3)} of the baseline's throughput (target >= 0.90: ${ratio >= 0.9 ? 'met' : 'NOT met'});` +
      ` CPU per payment ${(cpu(sides[0]) / cpu(sides[1])).toFixed(3)} of the baseline's; load average ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}\n\n`,
  );
}
