import type { ChildProcess } from 'node:child_process';
import { freePort } from '../src/common/net';
import { createPool } from '../src/database/database.module';
import { monthlyPrice, postLong } from './billing';
import { cpuMs, postgresCpuFrom } from './measure';
import { createOrganization, khoumsEnv, startProcess } from './processes';

/**
 * Billing that grows with the merchant (docs/billing.md "Performance"): the billing run over
 * BENCH_GROWTH_SIZE (default 10,000) due subscriptions as today (quantity 1, no coupon) against the
 * same run with quantities (1–30) on every subscription and a coupon on half of them (a forever 10 %
 * and a repeating 500 MRU, alternately), in BENCH_GROWTH_ROUNDS (default 3) interleaved rounds on one
 * Khoums instance. CPU per invoice, the service's and PostgreSQL's; target: the grown run at most
 * 1.1× today's.
 */
export async function billingGrowthScenario(url: string, children: ChildProcess[]): Promise<void> {
  const n = Number(process.env.BENCH_GROWTH_SIZE ?? 10_000);
  const rounds = Number(process.env.BENCH_GROWTH_ROUNDS ?? 3);
  const org = createOrganization(url, 'Bench Growth', 'growth-bench@khoums.local');
  const env = org.sandbox.environmentId;
  const ds = createPool(url, 2);
  const priceId = await monthlyPrice(ds, org.organizationId, env);
  const coupons = (
    await ds.query<{ id: string }>(
      `INSERT INTO coupons (id, organization_id, code, percent_off, amount_off, duration, duration_in_periods, created_at, updated_at)
       VALUES (gen_random_uuid(), $1, 'BENCH10', 10, NULL, 'forever', NULL, now(), now()),
              (gen_random_uuid(), $1, 'BENCH500', NULL, 500, 'repeating', 6, now(), now())
       RETURNING id`,
      [org.organizationId],
    )
  ).rows.map((r) => r.id);

  const seed = async (label: string, grown: boolean) => {
    await ds.query(
      `INSERT INTO customers (id, organization_id, external_user_id, phone)
       SELECT gen_random_uuid(), $1, $2 || '-' || i, '3' || lpad((i % 10000000)::text, 7, '0') FROM generate_series(1, $3) i`,
      [org.organizationId, label, n],
    );
    await ds.query(
      `INSERT INTO subscriptions (id, organization_id, environment_id, customer_id, price_id, status, started_at,
                                  billing_anchor, billing_interval, next_period, next_billing_date, quantity, coupon_id,
                                  discount_ends_after)
       SELECT gen_random_uuid(), $1, $2, c.id, $3, 'active', now() - interval '1 hour', now() - interval '1 hour', 'monthly', 0,
              now() - interval '1 hour',
              CASE WHEN $5 THEN 1 + (hashtext(c.id::text) & 1023) % 30 ELSE 1 END,
              CASE WHEN $5 AND (hashtext(c.external_user_id) & 1) = 0
                   THEN ($6::uuid[])[1 + (hashtext(c.id::text || 'k') & 1)] END,
              NULL
         FROM customers c WHERE c.organization_id = $1 AND c.external_user_id LIKE $4 || '-%'`,
      [org.organizationId, env, priceId, label, grown, coupons],
    );
    await ds.query(
      `UPDATE subscriptions s SET discount_ends_after = 6 FROM coupons k
        WHERE s.coupon_id = k.id AND k.duration = 'repeating' AND s.environment_id = $1 AND s.discount_ends_after IS NULL`,
      [env],
    );
    await ds.query('VACUUM ANALYZE customers, subscriptions');
  };

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

  const results: Record<'today' | 'grown', number[]> = { today: [], grown: [] };
  for (let round = 0; round < rounds; round++) {
    for (const kind of round % 2 === 0 ? (['today', 'grown'] as const) : (['grown', 'today'] as const)) {
      await seed(`g${round}${kind}`, kind === 'grown');
      const postgresSince = await postgresCpuFrom(ds);
      const khoumsBefore = cpuMs(khoums.pid!);
      const res = await postLong(port, '/api/v1/sandbox/billing/run', org.sandbox.secretKey);
      if (res.status !== 200) throw new Error(`billing run: ${res.status} ${res.body}`);
      const created = (JSON.parse(res.body) as { data: { invoicesCreated: number } }).data.invoicesCreated;
      if (created !== n) throw new Error(`billing run over ${n}: ${created} invoices`);
      const ms = cpuMs(khoums.pid!) - khoumsBefore + (await postgresSince());
      results[kind].push((ms * 1000) / n);
    }
  }
  const [{ discounted }] = (
    await ds.query<{ discounted: number }>(
      `SELECT count(*)::int AS discounted FROM invoices WHERE environment_id = $1 AND discount > 0`,
      [env],
    )
  ).rows;
  await ds.end();
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const ratio = median(results.grown) / median(results.today);
  process.stdout.write(
    `Billing run with quantities and coupons (${n} due per run, ${rounds} interleaved rounds, ${discounted} invoices discounted)\n` +
      `  CPU per invoice (service + PostgreSQL), µs: today ${results.today.map((x) => x.toFixed(0)).join(', ')}` +
      `; grown ${results.grown.map((x) => x.toFixed(0)).join(', ')}\n` +
      `  median grown/today = ${ratio.toFixed(2)}   (target <= 1.10: ${ratio <= 1.1 ? 'met' : 'NOT met'})\n\n`,
  );
}
