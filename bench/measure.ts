import autocannon from 'autocannon';
import { readFileSync } from 'node:fs';
import type { Pool } from 'pg';

/** How long each scenario loads the service, and with how many connections at once. */
export const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
export const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);

export interface Measure {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
  requests: number;
}

/** `request` against the port for `seconds`, from CONNECTIONS connections: throughput and latency. */
export async function load(port: number, request: autocannon.Request, seconds = SECONDS): Promise<Measure> {
  const result = await autocannon({
    url: `http://127.0.0.1:${port}`,
    connections: CONNECTIONS,
    duration: seconds,
    requests: [request],
  });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    requests: result.requests.total,
  };
}

/** CPU time (ms) a process has used so far, from /proc (Linux); 0 once it is gone. */
export function cpuMs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
  } catch {
    return 0;
  }
}
const CLOCK_TICKS = 100;

/**
 * PostgreSQL's CPU from now on: the returned function gives the ms every backend `pool`'s server
 * lists in pg_stat_activity has used since this call (a backend started since counts from 0; one
 * that ended meanwhile is not counted: the pools keep theirs open).
 */
export async function postgresCpuFrom(pool: Pool): Promise<() => Promise<number>> {
  const pids = async () =>
    (await pool.query<{ pid: number }>('SELECT pid FROM pg_stat_activity')).rows.map((r) => r.pid);
  const before = new Map((await pids()).map((p) => [p, cpuMs(p)]));
  return async () => {
    let ms = 0;
    for (const p of await pids()) ms += cpuMs(p) - (before.get(p) ?? 0);
    return ms;
  };
}

/** A measure with the CPU each request cost the service's process and PostgreSQL (all its processes). */
export interface Costed extends Measure {
  khoumsUs: number;
  postgresUs: number;
  /**
   * The bench's own process (autocannon building and reading the requests), per request: it runs
   * on the same cores, so a load whose requests cost more to build (a signed notification) leaves
   * the service less of the machine than a plain one.
   */
  clientUs: number;
}

/**
 * `load`, with the CPU time spent meanwhile by the process on `pid` and by PostgreSQL, per
 * request: on a machine shared with other work, CPU per request is steadier than requests per
 * second, and on a dedicated one throughput is its inverse.
 */
export async function costed(
  port: number,
  pid: number,
  pool: Pool,
  request: autocannon.Request,
  seconds: number,
): Promise<Costed> {
  const postgresSince = await postgresCpuFrom(pool);
  const khoumsBefore = cpuMs(pid);
  const clientBefore = process.cpuUsage();
  const m = await load(port, request, seconds);
  const client = process.cpuUsage(clientBefore);
  const khoumsMs = cpuMs(pid) - khoumsBefore;
  const postgresMs = await postgresSince();
  const per = (ms: number) => (ms * 1000) / Math.max(1, m.requests);
  return {
    ...m,
    khoumsUs: per(khoumsMs),
    postgresUs: per(postgresMs),
    clientUs: per((client.user + client.system) / 1000),
  };
}

export const fmtCost = (m: Costed) =>
  `${fmt(m)}   CPU/request: node ${m.khoumsUs.toFixed(0)} µs, postgres ${m.postgresUs.toFixed(0)} µs, ` +
  `load generator ${m.clientUs.toFixed(0)} µs`;

/** What B costs more than A: throughput lost and CPU added per request, against a target. */
export function verdict(
  r: { throughput: number; cpu: number; a: Costed; b: Costed },
  target: number,
): string {
  const lost = 1 - r.throughput;
  const added = r.cpu - 1;
  const us = (f: (m: Costed) => number) =>
    `${f(r.b) - f(r.a) >= 0 ? '+' : ''}${(f(r.b) - f(r.a)).toFixed(0)} µs`;
  return (
    `  cost    ${(lost * 100).toFixed(1)}% of throughput, ${(added * 100).toFixed(1)}% more CPU per request ` +
    `(khoums ${us((m) => m.khoumsUs)}, postgres ${us((m) => m.postgresUs)}); median of 5 interleaved rounds; ` +
    `target <= ${target * 100}%: ${Math.max(lost, added) <= target ? 'met' : added <= target ? 'met in CPU, not in throughput' : 'NOT met'}\n`
  );
}

export const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];

/**
 * A against B on one machine whose load changes under us: after a warm-up of each, rounds of A and
 * B in alternating order; per round the throughput ratio B/A and the CPU ratio; the median of the rounds.
 */
export async function compare(
  a: { port: number; pid: number; request: autocannon.Request },
  b: { port: number; pid: number; request: autocannon.Request },
  pool: Pool,
  rounds = 5,
): Promise<{ a: Costed; b: Costed; throughput: number; cpu: number }> {
  const seconds = Math.max(3, Math.round(SECONDS / 2));
  await load(a.port, a.request, 3);
  await load(b.port, b.request, 3);
  const results: Array<{ a: Costed; b: Costed }> = [];
  for (let i = 0; i < rounds; i++) {
    // A then B, then B then A: a drift of the machine's load favours neither.
    if (i % 2 === 0) {
      const ra = await costed(a.port, a.pid, pool, a.request, seconds);
      results.push({ a: ra, b: await costed(b.port, b.pid, pool, b.request, seconds) });
    } else {
      const rb = await costed(b.port, b.pid, pool, b.request, seconds);
      results.push({ a: await costed(a.port, a.pid, pool, a.request, seconds), b: rb });
    }
  }
  const total = (m: Costed) => m.khoumsUs + m.postgresUs;
  const throughput = median(results.map((r) => r.b.rps / r.a.rps));
  const cpu = median(results.map((r) => total(r.b) / total(r.a)));
  const mid = results.find((r) => r.b.rps / r.a.rps === throughput)!;
  return { a: mid.a, b: mid.b, throughput, cpu };
}

export const fmt = (m: Omit<Measure, 'requests'>) =>
  `${m.rps.toFixed(0).padStart(7)} req/s   p50 ${String(m.p50).padStart(4)} ms   p99 ${String(m.p99).padStart(4)} ms` +
  (m.errors || m.non2xx ? `   (errors ${m.errors}, non-2xx ${m.non2xx})` : '');

/**
 * Peak resident memory of a process while `work` runs (sampled every 25 ms), in MB, its result,
 * and the peak of each tenth of the run (whether the memory stays flat or grows with the work).
 */
export async function peakRss<T>(
  pid: number,
  work: () => Promise<T>,
): Promise<{ result: T; peakMb: number; tenthsMb: number[] }> {
  const rss = () => {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : 0;
  };
  const samples: Array<{ at: number; mb: number }> = [];
  const sample = () => samples.push({ at: Date.now(), mb: rss() });
  sample();
  const timer = setInterval(sample, 25);
  try {
    const result = await work();
    sample();
    const [first, last] = [samples[0].at, samples[samples.length - 1].at];
    const tenthsMb = Array.from({ length: 10 }, () => 0);
    for (const s of samples) {
      const i = Math.min(9, Math.floor(((s.at - first) * 10) / Math.max(1, last - first)));
      tenthsMb[i] = Math.max(tenthsMb[i], s.mb);
    }
    return { result, peakMb: Math.max(...samples.map((s) => s.mb)), tenthsMb };
  } finally {
    clearInterval(timer);
  }
}
