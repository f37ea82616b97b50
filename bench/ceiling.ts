import type autocannon from 'autocannon';
import type { Pool } from 'pg';
import { Costed, costed, fmtCost, load, median, SECONDS } from './measure';

/** A server under load: its port, its process (for its CPU) and the request that loads it. */
export interface Side {
  port: number;
  pid: number;
  request: autocannon.Request;
}

export interface AgainstCeiling {
  k: Costed;
  ceiling: Costed;
  ratio: number;
  p99Ratio: number;
}

/**
 * One hot path of Khoums against its fixed ceiling (bench/README.md, "The ceilings"), in one run:
 * after a warm-up of each, `rounds` rounds loading the two in alternating order (a drift of the
 * machine's load favours neither), each measured with the CPU per request of the server's
 * process and of PostgreSQL; the round of the median throughput ratio is printed, with every
 * round's ratio. Goals: throughput >= `target` of the ceiling's, p99 <= `p99Factor` × the
 * ceiling's. With `sameStatement`, the bare server running Khoums's own statements on Khoums's
 * schema is measured once too (what the framework costs, apart from the schema and statements).
 */
export async function againstCeiling(
  name: string,
  khoums: Side,
  ceiling: Side,
  pool: Pool,
  {
    target,
    p99Factor,
    rounds = 3,
    sameStatement,
  }: { target: number; p99Factor?: number; rounds?: number; sameStatement?: Side },
): Promise<AgainstCeiling> {
  await load(khoums.port, khoums.request, 2); // warm-up
  await load(ceiling.port, ceiling.request, 2);
  const results: Array<{ k: Costed; b: Costed }> = [];
  for (let i = 0; i < rounds; i++) {
    if (i % 2 === 0) {
      const k = await costed(khoums.port, khoums.pid, pool, khoums.request, SECONDS);
      results.push({ k, b: await costed(ceiling.port, ceiling.pid, pool, ceiling.request, SECONDS) });
    } else {
      const b = await costed(ceiling.port, ceiling.pid, pool, ceiling.request, SECONDS);
      results.push({ k: await costed(khoums.port, khoums.pid, pool, khoums.request, SECONDS), b });
    }
  }
  let same: Costed | undefined;
  if (sameStatement) {
    await load(sameStatement.port, sameStatement.request, 2);
    same = await costed(sameStatement.port, sameStatement.pid, pool, sameStatement.request, SECONDS);
  }
  const ratio = median(results.map((r) => r.k.rps / r.b.rps));
  const { k, b } = results.find((r) => r.k.rps / r.b.rps === ratio)!;
  const p99Ratio = median(results.map((r) => r.k.p99 / Math.max(1, r.b.p99)));
  const met = ratio >= target;
  const p99Met = p99Factor === undefined || p99Ratio <= p99Factor;
  process.stdout.write(
    `${name}\n` +
      `  khoums          ${fmtCost(k)}\n` +
      `  ceiling         ${fmtCost(b)}\n` +
      (same ? `  same-statement  ${fmtCost(same)}   (bare server, Khoums's statements and schema)\n` : '') +
      `  ratio           ${ratio.toFixed(2)} of the ceiling's throughput (target >= ${target.toFixed(2)}: ${met ? 'met' : 'NOT met'}); ` +
      `rounds ${results.map((r) => (r.k.rps / r.b.rps).toFixed(2)).join(', ')}\n` +
      `  p99             ${p99Ratio.toFixed(2)}× the ceiling's` +
      (p99Factor === undefined ? '' : ` (target <= ${p99Factor}×: ${p99Met ? 'met' : 'NOT met'})`) +
      `; rounds ${results.map((r) => (r.k.p99 / Math.max(1, r.b.p99)).toFixed(2)).join(', ')}\n` +
      `  CPU/request     ${((k.khoumsUs + k.postgresUs) / Math.max(1, b.khoumsUs + b.postgresUs)).toFixed(2)}× the ceiling's` +
      ` (Node ${(k.khoumsUs / Math.max(1, b.khoumsUs)).toFixed(2)}×, PostgreSQL ${(k.postgresUs / Math.max(1, b.postgresUs)).toFixed(2)}×)\n\n`,
  );
  return { k, ceiling: b, ratio, p99Ratio };
}
