import autocannon from 'autocannon';
import { fmt, load, Measure } from './measure';

/**
 * One route of Khoums against the bare server doing the same work (the ceiling), after a warm-up
 * of each; prints both and their ratio. Returns the ceiling's measure.
 */
export async function againstCeiling(
  name: string,
  ports: { khoums: number; bare: number },
  khoumsReq: autocannon.Request,
  bareReq: autocannon.Request,
): Promise<Measure> {
  await load(ports.khoums, khoumsReq, 2); // warm-up
  await load(ports.bare, bareReq, 2);
  const k = await load(ports.khoums, khoumsReq);
  const b = await load(ports.bare, bareReq);
  process.stdout.write(
    `${name}\n  khoums  ${fmt(k)}\n  ceiling ${fmt(b)}\n  ratio   ${(k.rps / b.rps).toFixed(2)} of the ceiling` +
      `   (target >= 0.70, p99 <= 25 ms: ${k.rps / b.rps >= 0.7 && k.p99 <= 25 ? 'met' : 'NOT met'})\n` +
      '\n',
  );
  return b;
}
