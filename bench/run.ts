import 'reflect-metadata';
import { createApp } from '../src/app';
import { loadConfig } from '../src/config/config';
import { runMigrations } from '../src/database/data-source';
import { openDatabase } from '../src/database/open';
import { benchCheckoutPage } from './checkout-page';

/** `npm run bench`: the app on its configured database (embedded by default), measured over HTTP. */
async function main(): Promise<void> {
  const config = loadConfig({ ...process.env, LOG_LEVEL: 'warn', DEMO_ORG: 'false' });
  const seconds = Number(process.env.BENCH_SECONDS ?? 10);
  const db = await openDatabase(config);
  await runMigrations(db.url);
  const app = await createApp({ config, databaseUrl: db.url });
  await app.listen(0, '127.0.0.1');
  const { port } = app.getHttpServer().address() as { port: number };
  try {
    const renders = await benchCheckoutPage(app, `http://127.0.0.1:${port}`, seconds);
    process.stdout.write(`checkout page renders per second: ${renders.toFixed(0)}\n`);
  } finally {
    await app.close();
    await db.stop();
  }
}

main().catch((err) => {
  process.stderr.write(`bench failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
