// First: tracing patches `http` and `pg` as they load (src/telemetry.ts).
import { telemetry } from './telemetry';
import 'reflect-metadata';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { setFlagsFromString } from 'node:v8';
import { createApp } from './app';
import { StartUpBanner, startUpBanner } from './banner';
import { stdoutLogFormat } from './common/logging/logger';
import { AppConfig, ConfigError, loadConfig } from './config/config';
import { createDemoOrganization } from './demo-organization';
import { runMigrations } from './database/data-source';
import { embeddedDataFile, openDatabase } from './database/open';
import { DocumentCipher } from './going-live/document-cipher';
import { OrganizationsService } from './organizations/organizations.service';

// No allocation-site pretenuring: a list's CSV export reads its rows a batch at a time, and a
// batch's rows live until the batch is written, long enough for V8 to decide that the row objects
// `pg` makes are long-lived and allocate them straight in the old generation. Every row of the
// export then became old-generation garbage, and the old generation grew to about four times what
// is live before a full collection freed it (the service's memory rose from 150 MB to over 300 MB
// while 1,000,000 rows streamed, then fell). Without it, the rows die young, in the scavenges.
setFlagsFromString('--no-allocation-site-pretenuring');
// The old generation grows to twice what is live before a full collection, not up to four times
// (V8's default for throughput): a billing run's three batches in flight keep their rows, events
// and statements alive across the round trips to PostgreSQL, so each batch's garbage is promoted,
// and the service's memory rose to 330-360 MB over a run of 100,000 invoices with about 57 MB
// live. With this, 230-240 MB, for 5-10 % more of the service's CPU during the run
// (docs/billing.md, "Performance").
setFlagsFromString('--heap-growing-percent=100');

async function main(): Promise<void> {
  let config: AppConfig;
  try {
    config = loadConfig();
    // Before anything starts: with DATABASE_URL, the documents' key must be given.
    DocumentCipher.fromConfig(config);
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(err.message + '\n');
      process.exit(1);
    }
    throw err;
  }

  const db = await openDatabase(config);
  // Behind a pooler in transaction mode, migrations need the server itself (a session's advisory lock).
  const applied = await runMigrations(config.DATABASE_DIRECT_URL ?? db.url);
  const app = await createApp({ config, databaseUrl: db.url });

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) {
      process.stderr.write('Forced exit.\n');
      process.exit(1);
    }
    stopping = true;
    process.stdout.write(`\n${signal}: finishing requests and shutting down...\n`);
    try {
      await app.close();
      await db.stop();
      await telemetry?.shutdown();
      process.exit(0);
    } catch (err) {
      process.stderr.write(`Shutdown failed: ${String(err)}\n`);
      process.exit(1);
    }
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  await app.listen(config.PORT);

  const organizations = app.get(OrganizationsService);
  const credentialsFile = embeddedDataFile(config, 'demo-credentials.json');
  let demo: StartUpBanner['demo'];
  if (config.DEMO_ORG && (await organizations.count()) === 0) {
    const created = await createDemoOrganization(app);
    const keysHidden = stdoutLogFormat(config.LOG_FORMAT) === 'json';
    let savedTo: string | undefined;
    // Saved with the embedded database, and wherever the banner may not show the credentials.
    if (!config.DATABASE_URL || keysHidden) {
      mkdirSync(config.DATA_DIR, { recursive: true });
      writeFileSync(credentialsFile, JSON.stringify(created, null, 2) + '\n', { mode: 0o600 });
      savedTo = credentialsFile;
    }
    demo = { created, savedTo, keysHidden };
  } else if (!config.DATABASE_URL && existsSync(credentialsFile)) {
    demo = { savedTo: credentialsFile };
  }
  // Written directly to stdout between blank lines, so it stands out from the log lines around it.
  const banner = startUpBanner({
    publicUrl: config.publicUrl,
    database: config.DATABASE_URL ? 'DATABASE_URL' : `embedded PostgreSQL in ${config.DATA_DIR}`,
    migrationsApplied: applied.length,
    demo,
  });
  process.stdout.write(['', ...banner, ''].join('\n') + '\n');
}

main().catch((err) => {
  process.stderr.write(
    `Khoums failed to start: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
  );
  process.exit(1);
});
