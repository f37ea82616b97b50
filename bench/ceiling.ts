import autocannon from 'autocannon';
import { fmt, load, Measure, median } from './measure';

/**
 * One route of Khoums against the bare server doing the same work (the ceiling), after a warm-up
 * of each; prints both and their ratio against `target` (default 0.70 with p99 <= 25 ms). With
 * `rounds` > 1 the two are loaded in alternating order, round after round (a drift of the
 * machine's load favours neither), and the round of the median ratio is printed. Returns the
 * ceiling's measure.
 */
export async function againstCeiling(
  name: string,
  ports: { khoums: number; bare: number },
  khoumsReq: autocannon.Request,
  bareReq: autocannon.Request,
  {
    target = 0.7,
    p99 = 25,
    rounds = 1,
    why = '',
  }: { target?: number; p99?: number; rounds?: number; why?: string } = {},
): Promise<Measure> {
  await load(ports.khoums, khoumsReq, 2); // warm-up
  await load(ports.bare, bareReq, 2);
  const results: Array<{ k: Measure; b: Measure }> = [];
  for (let i = 0; i < rounds; i++) {
    if (i % 2 === 0) {
      const k = await load(ports.khoums, khoumsReq);
      results.push({ k, b: await load(ports.bare, bareReq) });
    } else {
      const b = await load(ports.bare, bareReq);
      results.push({ k: await load(ports.khoums, khoumsReq), b });
    }
  }
  const ratio = median(results.map((r) => r.k.rps / r.b.rps));
  const { k, b } = results.find((r) => r.k.rps / r.b.rps === ratio)!;
  const met = ratio >= target && k.p99 <= p99;
  process.stdout.write(
    `${name}\n  khoums  ${fmt(k)}\n  ceiling ${fmt(b)}\n  ratio   ${ratio.toFixed(2)} of the ceiling` +
      (rounds > 1
        ? ` (median of ${rounds} alternating rounds: ${results.map((r) => (r.k.rps / r.b.rps).toFixed(2)).join(', ')})`
        : '') +
      `   (target >= ${target.toFixed(2)}${why}, p99 <= ${p99} ms: ${met ? 'met' : 'NOT met'})\n` +
      '\n',
  );
  return b;
}
