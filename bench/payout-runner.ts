import 'reflect-metadata';
import { performance } from 'node:perf_hooks';
import { Writable } from 'node:stream';
import { createApp } from '../src/app';
import { loadConfig } from '../src/config/config';
import { PayoutRun } from '../src/payouts/payout-run';

/**
 * One payout run over every due environment of DATABASE_URL, in a process of its own, as an
 * instance's scheduler tick runs it (the service's PayoutRun, its transfers through
 * PAYOUT_GATEWAY_URL). Prints the run's result and how long it took as one JSON line, then exits.
 */
async function main(): Promise<void> {
  const config = loadConfig({ ...process.env, DEMO_ORG: 'false' });
  const logStream = new Writable({ write: (_c: Buffer, _e, cb) => cb() });
  const app = await createApp({ config, databaseUrl: process.env.DATABASE_URL!, logStream });
  await app.init();
  const t0 = performance.now();
  const result = await app.get(PayoutRun).run();
  process.stdout.write(JSON.stringify({ ...result, ms: performance.now() - t0 }) + '\n');
  await app.close();
}

main().catch((err) => {
  process.stderr.write(String(err instanceof Error ? err.stack : err) + '\n');
  process.exit(1);
});
