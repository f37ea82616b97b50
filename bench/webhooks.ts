import type { ChildProcess } from 'node:child_process';
import { freePort } from '../src/common/net';
import { createPool } from '../src/database/database.module';
import type { CreatedOrganization } from '../src/organizations/organizations.service';
import { ROOT, startProcess, stop } from './processes';

/**
 * Webhooks: one endpoint on a receiver in its own process. Throughput: a burst of events committed
 * at once, deliveries/s until the last arrives. Latency: events committed one by one at a steady
 * rate, commit-to-arrival p50/p99. With BENCH_WEBHOOK_BASELINE, the throughput of this version's
 * worker against another build's instead (`compareWebhookThroughput`).
 */
export async function webhookScenario(
  port: number,
  url: string,
  org: CreatedOrganization,
  children: ChildProcess[],
): Promise<void> {
  const receiverPort = await freePort();
  children.push(
    await startProcess('dist/bench/webhook-receiver.js', { PORT: String(receiverPort) }, 'listening'),
  );
  const receiver = `http://127.0.0.1:${receiverPort}`;
  const created = await fetch(`http://127.0.0.1:${port}/api/v1/webhook-endpoints`, {
    method: 'POST',
    headers: { authorization: org.sandbox.secretKey, 'content-type': 'application/json' },
    body: JSON.stringify({ url: `${receiver}/hook`, events: ['payment-request-created'] }),
  });
  if (created.status !== 200) throw new Error(`webhook endpoint: ${created.status} ${await created.text()}`);
  const stats = async () =>
    (await (await fetch(`${receiver}/stats`)).json()) as { count: number; arrivals: Record<string, number> };
  const waitFor = async (n: number, ms: number) => {
    const deadline = Date.now() + ms;
    for (;;) {
      const s = await stats();
      if (s.count >= n || Date.now() > deadline) return s;
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  const ds = createPool(url, 4);
  const insertEvents = (n: number) =>
    ds.query(
      `INSERT INTO events (id, organization_id, environment_id, kind, data)
       SELECT gen_random_uuid(), $1, $2, 'payment-request-created', jsonb_build_object('transactionId', 'wh-' || i, 'amount', 1500)
         FROM generate_series(1, $3) i`,
      [org.organizationId, org.sandbox.environmentId, n],
    );

  if (process.env.BENCH_WEBHOOK_BASELINE) {
    try {
      return await compareWebhookThroughput(
        url,
        receiver,
        waitFor,
        insertEvents,
        process.env.BENCH_WEBHOOK_BASELINE,
      );
    } finally {
      await ds.end();
    }
  }

  // Throughput
  const burst = 10_000;
  await insertEvents(500); // warm-up
  await waitFor(500, 30_000);
  await fetch(`${receiver}/reset`, { method: 'POST' });
  const t0 = Date.now();
  await insertEvents(burst);
  const got = await waitFor(burst, 120_000);
  const seconds = (Math.max(...Object.values(got.arrivals)) - t0) / 1000;
  const perSecond = got.count / seconds;

  // Latency: 1,000 events committed one by one, 200 per second.
  await fetch(`${receiver}/reset`, { method: 'POST' });
  const committed = new Map<string, number>();
  for (let i = 0; i < 1000; i++) {
    const {
      rows: [{ id }],
    } = await ds.query(
      `INSERT INTO events (id, organization_id, environment_id, kind, data)
       VALUES (gen_random_uuid(), $1, $2, 'payment-request-created', '{}') RETURNING id`,
      [org.organizationId, org.sandbox.environmentId],
    );
    committed.set(id, Date.now());
    await new Promise((r) => setTimeout(r, 5));
  }
  const arrived = await waitFor(1000, 60_000);
  await ds.end();
  const lat = [...committed].map(([id, t]) => (arrived.arrivals[id] ?? Infinity) - t).sort((a, b) => a - b);
  const pct = (p: number) => lat[Math.min(lat.length - 1, Math.floor((p / 100) * lat.length))];
  const ok = perSecond >= 1000 && pct(99) <= 1000;
  process.stdout.write(
    `Webhook deliveries (one endpoint, receiver in its own process)\n` +
      `  burst   ${got.count}/${burst} delivered, ${perSecond.toFixed(0)} deliveries/s\n` +
      `  latency commit-to-arrival p50 ${pct(50)} ms   p99 ${pct(99)} ms   (${arrived.count}/1000 arrived)\n` +
      `  target  >= 1000 deliveries/s, p99 <= 1000 ms: ${ok ? 'met' : 'NOT met'}\n\n`,
  );
}

type Arrivals = { count: number; arrivals: Record<string, number> };

/**
 * This version's webhook worker against another build's, in alternating rounds on one database
 * and one receiver: a fresh worker process per round (the API instance's worker is off), a
 * warm-up burst, then a burst of 10,000 events, deliveries/s until the last arrives.
 */
async function compareWebhookThroughput(
  url: string,
  receiver: string,
  waitFor: (n: number, ms: number) => Promise<Arrivals>,
  insertEvents: (n: number) => Promise<unknown>,
  baseline: string,
): Promise<void> {
  const rounds = Number(process.env.BENCH_WEBHOOK_ROUNDS ?? 3);
  const burst = 10_000;
  const sides = [
    { name: 'this version', cwd: ROOT, results: [] as number[] },
    { name: `baseline (${baseline})`, cwd: baseline, results: [] as number[] },
  ];
  for (let round = 0; round < rounds; round++) {
    for (const side of round % 2 === 0 ? sides : [...sides].reverse()) {
      const port = await freePort();
      const worker = await startProcess(
        'dist/src/main.js',
        {
          DATABASE_URL: url,
          PORT: String(port),
          LOG_LEVEL: 'warn',
          LOG_FORMAT: 'json',
          DEMO_ORG: 'false',
          BILLING_SCHEDULER: 'false',
          WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
        },
        'Khoums is listening',
        side.cwd,
      );
      try {
        await fetch(`${receiver}/reset`, { method: 'POST' });
        await insertEvents(500); // warm-up
        await waitFor(500, 60_000);
        await fetch(`${receiver}/reset`, { method: 'POST' });
        const t0 = Date.now();
        await insertEvents(burst);
        const got = await waitFor(burst, 180_000);
        const perSecond = got.count / ((Math.max(...Object.values(got.arrivals)) - t0) / 1000);
        side.results.push(perSecond);
        process.stdout.write(
          `  round ${round + 1} ${side.name}: ${got.count}/${burst}, ${perSecond.toFixed(0)} deliveries/s\n`,
        );
      } finally {
        await stop(worker);
      }
    }
  }
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const [mine, base] = sides.map((s) => mean(s.results));
  process.stdout.write(
    `Webhook deliveries, this version against the baseline (one endpoint, ${rounds} alternating rounds each)\n` +
      sides
        .map(
          (s) =>
            `  ${s.name.padEnd(14)} mean ${mean(s.results).toFixed(0)}/s   rounds ${s.results.map((r) => r.toFixed(0)).join(', ')}`,
        )
        .join('\n') +
      `\n  ratio   ${(mine / base).toFixed(3)} (target >= 0.90)\n\n`,
  );
}
