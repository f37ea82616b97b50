import type { ChildProcess } from 'node:child_process';
import { freePort } from '../src/common/net';
import { createPool } from '../src/database/database.module';
import type { CreatedOrganization } from '../src/organizations/organizations.service';
import { startProcess } from './processes';

/**
 * Webhooks: one endpoint on a receiver in its own process. Throughput: a burst of events committed
 * at once, deliveries/s until the last arrives. Latency: events committed one by one at a steady
 * rate, commit-to-arrival p50/p99.
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
