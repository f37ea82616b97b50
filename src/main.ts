import 'reflect-metadata';
import { existsSync, writeFileSync } from 'node:fs';
import { createApp } from './app';
import { AppConfig, ConfigError, loadConfig } from './config/config';
import { runMigrations } from './database/data-source';
import { embeddedDataFile, openDatabase } from './database/open';
import { DocumentCipher } from './going-live/document-cipher';
import { CreatedOrganization, OrganizationsService } from './organizations/organizations.service';

function demoLines(demo: CreatedOrganization, savedTo?: string): string[] {
  return [
    'Demo organization created (shown once; keep these):',
    `  Sandbox secret key:       ${demo.sandbox.secretKey}`,
    `  Sandbox publishable key:  ${demo.sandbox.publishableKey}`,
    `  Dashboard login:          ${demo.email} / ${demo.password}`,
    ...(savedTo ? [`  Also saved to ${savedTo} (local development only).`] : []),
  ];
}

/** The start-up banner in a box between blank lines, so it stands out from the log lines around it. */
function printBanner(sections: string[][]): void {
  const lines = sections.flatMap((section, i) => (i === 0 ? section : ['', ...section]));
  const width = Math.max(...lines.map((l) => l.length));
  const rule = '─'.repeat(width + 2);
  const boxed = [`┌${rule}┐`, ...lines.map((l) => `│ ${l.padEnd(width)} │`), `└${rule}┘`];
  process.stdout.write(['', ...boxed, ''].join('\n') + '\n');
}

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
  const applied = await runMigrations(db.url);
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
      process.exit(0);
    } catch (err) {
      process.stderr.write(`Shutdown failed: ${String(err)}\n`);
      process.exit(1);
    }
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  await app.listen(config.PORT);

  const database = config.DATABASE_URL ? 'DATABASE_URL' : `embedded PostgreSQL in ${config.DATA_DIR}`;
  const sections = [
    [
      `Khoums is listening on ${config.publicUrl} (${database}${applied.length ? `, applied ${applied.length} migration(s)` : ''})`,
      `  API:       ${config.publicUrl}/api/v1`,
      `  API docs:  ${config.publicUrl}/api/docs`,
      `  Dashboard: ${config.publicUrl}/dashboard`,
    ],
  ];
  const organizations = app.get(OrganizationsService);
  if (config.DEMO_ORG && (await organizations.count()) === 0) {
    const demo = await organizations.create({ name: 'Demo Merchant', email: 'demo@khoums.local' });
    let savedTo: string | undefined;
    if (!config.DATABASE_URL) {
      savedTo = embeddedDataFile(config, 'demo-credentials.json');
      writeFileSync(savedTo, JSON.stringify(demo, null, 2) + '\n', { mode: 0o600 });
    }
    sections.push(demoLines(demo, savedTo));
  } else if (!config.DATABASE_URL && existsSync(embeddedDataFile(config, 'demo-credentials.json'))) {
    sections.push([`Demo credentials: ${embeddedDataFile(config, 'demo-credentials.json')}`]);
  }
  printBanner(sections);
}

main().catch((err) => {
  process.stderr.write(
    `Khoums failed to start: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
  );
  process.exit(1);
});
