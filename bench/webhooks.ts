import type { ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { freePort } from '../src/common/net';
import { createPool } from '../src/database/database.module';
import type { CreatedOrganization } from '../src/organizations/organizations.service';
import { khoumsEnv, ROOT, startProcess, stop } from './processes';

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
      const {
        rows: [{ dir }],
      } = await ds.query<{ dir: string }>('SELECT current_setting($1) AS dir', ['data_directory']);
      const postmaster = Number(readFileSync(`${dir}/postmaster.pid`, 'utf8').split('\n')[0]);
      return await compareWebhookThroughput(
        url,
        receiver,
        waitFor,
        insertEvents,
        process.env.BENCH_WEBHOOK_BASELINE,
        postmaster,
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

/** CPU time (user + system, ms) of each process, from /proc (Linux; empty elsewhere). */
function cpuTimes(pids: number[]): Map<number, number> {
  const times = new Map<number, number>();
  for (const pid of pids) {
    try {
      // The fields after the command (which may hold spaces) start at the state, field 3.
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      times.set(pid, ((Number(fields[11]) + Number(fields[12])) * 1000) / 100);
    } catch {
      // Exited, or no /proc.
    }
  }
  return times;
}

/** The postmaster and its children (the backends, the writers). */
function postgresProcesses(postmaster: number): number[] {
  const pids = [postmaster];
  let entries: string[] = [];
  try {
    entries = readdirSync('/proc').filter((e) => /^\d+$/.test(e));
  } catch {
    return pids;
  }
  for (const e of entries) {
    try {
      const stat = readFileSync(`/proc/${e}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === postmaster) pids.push(Number(e));
    } catch {
      // Exited meanwhile.
    }
  }
  return pids;
}

/** CPU ms the processes spent since `before` (processes started meanwhile count from zero). */
function cpuSince(before: Map<number, number>, pids: number[]): number {
  let ms = 0;
  for (const [pid, t] of cpuTimes(pids)) ms += t - (before.get(pid) ?? 0);
  return ms;
}

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
  postmaster: number,
): Promise<void> {
  const rounds = Number(process.env.BENCH_WEBHOOK_ROUNDS ?? 3);
  const burst = 10_000;
  const sides = [
    {
      name: 'this version',
      cwd: ROOT,
      results: [] as number[],
      workerCpu: [] as number[],
      pgCpu: [] as number[],
    },
    {
      name: `baseline (${baseline})`,
      cwd: baseline,
      results: [] as number[],
      workerCpu: [] as number[],
      pgCpu: [] as number[],
    },
  ];
  for (let round = 0; round < rounds; round++) {
    for (const side of round % 2 === 0 ? sides : [...sides].reverse()) {
      const port = await freePort();
      const worker = await startProcess(
        'dist/src/main.js',
        khoumsEnv({ DATABASE_URL: url, PORT: String(port), WEBHOOK_ALLOW_PRIVATE_URLS: 'true' }),
        'Khoums is listening',
        side.cwd,
      );
      try {
        await fetch(`${receiver}/reset`, { method: 'POST' });
        await insertEvents(500); // warm-up
        await waitFor(500, 60_000);
        await fetch(`${receiver}/reset`, { method: 'POST' });
        const pgBefore = cpuTimes(postgresProcesses(postmaster));
        const workerBefore = cpuTimes([worker.pid!]);
        const t0 = Date.now();
        await insertEvents(burst);
        const got = await waitFor(burst, 180_000);
        // CPU per delivery, which other load on the machine changes far less than the wall clock.
        const workerMs = cpuSince(workerBefore, [worker.pid!]) / got.count;
        const pgMs = cpuSince(pgBefore, postgresProcesses(postmaster)) / got.count;
        const perSecond = got.count / ((Math.max(...Object.values(got.arrivals)) - t0) / 1000);
        side.results.push(perSecond);
        side.workerCpu.push(workerMs);
        side.pgCpu.push(pgMs);
        process.stdout.write(
          `  round ${round + 1} ${side.name}: ${got.count}/${burst}, ${perSecond.toFixed(0)} deliveries/s, ` +
            `CPU per delivery: worker ${(workerMs * 1000).toFixed(0)} µs, PostgreSQL ${(pgMs * 1000).toFixed(0)} µs\n`,
        );
      } finally {
        await stop(worker);
      }
    }
  }
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const [mine, base] = sides.map((s) => mean(s.results));
  const cpu = (s: (typeof sides)[number]) => mean(s.workerCpu) + mean(s.pgCpu);
  process.stdout.write(
    `Webhook deliveries, this version against the baseline (one endpoint, ${rounds} alternating rounds each)\n` +
      sides
        .map(
          (s) =>
            `  ${s.name.padEnd(14)} mean ${mean(s.results).toFixed(0)}/s   rounds ${s.results.map((r) => r.toFixed(0)).join(', ')}\n` +
            `  ${''.padEnd(14)} CPU per delivery: worker ${(mean(s.workerCpu) * 1000).toFixed(0)} µs, PostgreSQL ${(mean(s.pgCpu) * 1000).toFixed(0)} µs`,
        )
        .join('\n') +
      `\n  ratio   ${(mine / base).toFixed(3)} (target >= 0.90)` +
      `\n  CPU per delivery, this version over the baseline: ${(cpu(sides[0]) / cpu(sides[1])).toFixed(3)}\n\n`,
  );
}
