import autocannon from 'autocannon';
import type { Pool } from 'pg';
import type { KeysetQuery } from '../src/database/keyset';
import { searchStatement, PaymentRequestSearch } from '../src/payment-requests/payment-request-search';
import type { CreatedOrganization } from '../src/organizations/organizations.service';

/**
 * The dashboard's search over 1,000,000 payment requests (BENCH_ONLY=dashboard): the rows are
 * loaded into the organization's Production environment (90 days of requests, 85 % paid, about
 * five per phone number), then each kind of search is asked through HTTP by a signed-in user,
 * one request at a time, and the whole page's latency is measured (session, query, rendering).
 * BENCH_EXPLAIN=1 also prints the plan of each kind of statement.
 */

const ROWS = Number(process.env.BENCH_DASHBOARD_ROWS ?? 1_000_000);
const PER_KIND = Number(process.env.BENCH_DASHBOARD_REQUESTS ?? 200);

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

async function signIn(base: string, email: string, password: string): Promise<string> {
  const form = await fetch(`${base}/dashboard/login`);
  let cookies = form.headers.getSetCookie().map((c) => c.split(';')[0]);
  const csrf = /name="_csrf" value="([^"]+)"/.exec(await form.text())![1];
  const res = await fetch(`${base}/dashboard/login`, {
    method: 'POST',
    redirect: 'manual',
    headers: { cookie: cookies.join('; '), 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ email, password, _csrf: csrf }).toString(),
  });
  if (res.status !== 303) throw new Error(`bench: dashboard sign-in: ${res.status}`);
  cookies = [...cookies, ...res.headers.getSetCookie().map((c) => c.split(';')[0])];
  // The session shows Production, where the rows are.
  const page = await fetch(`${base}/dashboard`, { headers: { cookie: cookies.join('; ') } });
  const token = /name="_csrf" value="([^"]+)"/.exec(await page.text())![1];
  await fetch(`${base}/dashboard/environment`, {
    method: 'POST',
    redirect: 'manual',
    headers: { cookie: cookies.join('; '), 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ environment: 'production', _csrf: token }).toString(),
  });
  return cookies.join('; ');
}

async function load(ds: Pool, environmentId: string): Promise<void> {
  const t0 = Date.now();
  const chunk = 100_000;
  for (let from = 1; from <= ROWS; from += chunk) {
    await ds.query(
      `INSERT INTO payment_requests (id, environment_id, transaction_id, amount, phone_number, status, paid_at, created_at, updated_at)
       SELECT gen_random_uuid(), $1, 'order-' || i, 100 + (hashint4(i) & 1048575) % 99900,
              (2 + abs(hashint4(i * 7)) % 3)::text || lpad((abs(hashint4(i * 13)) % 200000)::text, 7, '0'),
              CASE WHEN abs(hashint4(i * 3)) % 100 < 85 THEN 'paid' ELSE 'pending' END,
              CASE WHEN abs(hashint4(i * 3)) % 100 < 85 THEN at + interval '2 minutes' END, at, at
         FROM generate_series($2::int, $3::int) i,
              LATERAL (SELECT now() - (${ROWS} - i) * (interval '90 days' / ${ROWS}) AS at) x`,
      [environmentId, from, Math.min(ROWS, from + chunk - 1)],
    );
  }
  await ds.query('ANALYZE payment_requests');
  process.stdout.write(
    `  loaded ${ROWS.toLocaleString('en')} payment requests in ${((Date.now() - t0) / 1000).toFixed(0)} s\n`,
  );
}

export async function dashboardScenario(
  port: number,
  ds: Pool,
  org: CreatedOrganization,
  fmt: (m: { rps: number; p50: number; p99: number; errors: number; non2xx: number }) => string,
): Promise<void> {
  const base = `http://127.0.0.1:${port}`;
  const env = org.production.environmentId;
  process.stdout.write(`Dashboard search over ${ROWS.toLocaleString('en')} payment requests\n`);
  await load(ds, env);
  const sample = (
    await ds.query<{ id: string; transaction_id: string; phone_number: string; created_at: Date }>(
      `SELECT id, transaction_id, phone_number, created_at FROM payment_requests TABLESAMPLE SYSTEM (1)
        WHERE environment_id = $1 LIMIT 1000`,
      [env],
    )
  ).rows;
  const cookie = await signIn(base, org.email, org.password);
  const first = await (await fetch(`${base}/dashboard/payment-requests`, { headers: { cookie } })).text();
  const day = (d: Date) => d.toISOString().slice(0, 10);
  const pick = <T>(i: number, f: (r: (typeof sample)[number]) => T) => f(sample[i % sample.length]);
  const cursor = new URL(
    `${base}${/href="([^"]+)" rel="next"/
      .exec(first)![1]
      .replace(/&#x3D;/g, '=')
      .replace(/&amp;/g, '&')}`,
  ).searchParams.get('after')!;
  const kinds: [
    string,
    (i: number) => Record<string, string>,
    PaymentRequestSearch,
    Partial<KeysetQuery>?,
  ][] = [
    ['first page, no filter', () => ({}), {}],
    ['q = transactionId', (i) => ({ q: pick(i, (r) => r.transaction_id) }), { q: sample[0].transaction_id }],
    ['q = id', (i) => ({ q: pick(i, (r) => r.id) }), { q: sample[0].id }],
    ['q = phone number', (i) => ({ q: pick(i, (r) => r.phone_number) }), { q: sample[0].phone_number }],
    ['status = pending', () => ({ status: 'pending' }), { status: 'pending' }],
    [
      'one day (from = to)',
      (i) => ({ from: pick(i, (r) => day(r.created_at)), to: pick(i, (r) => day(r.created_at)) }),
      {
        from: new Date(`${day(sample[0].created_at)}T00:00:00Z`),
        to: new Date(`${day(sample[0].created_at)}T23:59:59Z`),
      },
    ],
    [
      'amount between x and x + 100',
      (i) => ({ amountMin: String(1000 + (i % 900) * 100), amountMax: String(1100 + (i % 900) * 100) }),
      { amountMin: 50_000, amountMax: 50_100 },
    ],
    [
      'amount between 10,000 and 90,000',
      () => ({ amountMin: '10000', amountMax: '90000' }),
      { amountMin: 10_000, amountMax: 90_000 },
    ],
    [
      'status = pending, amount >= 90,000, last 30 days',
      () => ({ status: 'pending', amountMin: '90000', from: day(new Date(Date.now() - 30 * 86_400_000)) }),
      { status: 'pending', amountMin: 90_000, from: new Date(Date.now() - 30 * 86_400_000) },
    ],
    ['page 2 (keyset cursor)', () => ({ after: cursor }), {}, { after: cursor }],
  ];

  const all: number[] = [];
  const lines: string[] = [];
  for (const [name, params] of kinds) {
    const times: number[] = [];
    for (let i = 0; i < PER_KIND + 10; i++) {
      const url = `${base}/dashboard/payment-requests?${new URLSearchParams(params(i)).toString()}`;
      const t0 = performance.now();
      const res = await fetch(url, { headers: { cookie } });
      await res.text();
      const ms = performance.now() - t0;
      if (res.status !== 200) throw new Error(`bench: ${url}: ${res.status}`);
      if (i >= 10) times.push(ms); // the first ten warm up
    }
    times.sort((a, b) => a - b);
    all.push(...times);
    lines.push(
      `  ${name.padEnd(50)} p50 ${percentile(times, 50).toFixed(1).padStart(5)} ms   p99 ${percentile(times, 99).toFixed(1).padStart(5)} ms`,
    );
  }
  all.sort((a, b) => a - b);
  const p99 = percentile(all, 99);
  process.stdout.write(
    `${lines.join('\n')}\n  all searches (${all.length}, one at a time)`.padEnd(53) +
      `   p50 ${percentile(all, 50).toFixed(1).padStart(5)} ms   p99 ${p99.toFixed(1).padStart(5)} ms` +
      `   (target p99 < 50 ms: ${p99 < 50 ? 'met' : 'NOT met'})\n`,
  );

  // The same mix with 8 users at once.
  let n = 0;
  const mixed = await autocannon({
    url: base,
    connections: 8,
    duration: 10,
    requests: [
      {
        method: 'GET',
        headers: { cookie },
        setupRequest: (req) => {
          const [, params] = kinds[n % kinds.length];
          return {
            ...req,
            path: `/dashboard/payment-requests?${new URLSearchParams(params(n++)).toString()}`,
          };
        },
      },
    ],
  });
  process.stdout.write(
    `  mixed searches, 8 connections   ${fmt({
      rps: mixed.requests.average,
      p50: mixed.latency.p50,
      p99: mixed.latency.p99,
      errors: mixed.errors + mixed.timeouts,
      non2xx: mixed.non2xx,
    })}\n`,
  );
  // The overview: its first view of the day reads the 28 final days (then kept), later views two days.
  const t0 = performance.now();
  await (await fetch(`${base}/dashboard`, { headers: { cookie } })).text();
  const cold = performance.now() - t0;
  const home: number[] = [];
  for (let i = 0; i < 30; i++) {
    const t1 = performance.now();
    await (await fetch(`${base}/dashboard`, { headers: { cookie } })).text();
    if (i >= 5) home.push(performance.now() - t1);
  }
  home.sort((a, b) => a - b);
  process.stdout.write(
    `  overview (~${Math.round(ROWS / 3).toLocaleString('en')} requests in 30 days)   first view ${cold.toFixed(0)} ms, ` +
      `then p50 ${percentile(home, 50).toFixed(1)} ms   p99 ${percentile(home, 99).toFixed(1)} ms\n\n`,
  );

  if (process.env.BENCH_EXPLAIN) {
    for (const [name, , filter, page] of kinds) {
      const { text, values } = searchStatement(env, filter, { limit: 25, ...page }).compile();
      const plan = await ds.query(`EXPLAIN (ANALYZE, BUFFERS, COSTS OFF, TIMING OFF) ${text}`, values);
      process.stdout.write(`-- ${name}\n${plan.rows.map((r) => r['QUERY PLAN']).join('\n')}\n\n`);
    }
  }
}
