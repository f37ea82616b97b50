import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import type { Config } from '@jest/types';
import { Client } from 'pg';
import { runMigrations } from '../src/database/data-source';
import { RunningPostgres, startEmbeddedPostgres } from '../src/database/embedded-postgres';
import { freePort } from '../src/common/net';
import { startPgBouncer } from './helpers/pgbouncer';
import { startSharedBrowser } from './helpers/browser';

/**
 * Once per run: a database of its own (a fresh embedded PostgreSQL, or a new database on the
 * server of DATABASE_URL), migrated once, and a copy of it that no one connects to, the template
 * of the suites' private databases (KHOUMS_TEST_TEMPLATE_DATABASE: `privateDatabase()` copies it
 * in a fraction of a second, where migrating a database took seconds). Tests then work on fresh
 * tenants, in parallel. With
 * KHOUMS_TEST_PGBOUNCER=1 the tests reach it through a PgBouncer in transaction pooling, the
 * server itself being their DATABASE_DIRECT_URL (KHOUMS_TEST_DATABASE_DIRECT_URL).
 */
declare global {
  var __khoumsTestDb:
    | {
        pg?: RunningPostgres;
        adminUrl?: string;
        database?: string;
        template?: string;
        pgbouncer?: { stop(): Promise<void> };
        browser?: { stop(): Promise<void> };
      }
    | undefined;
}

/** The e2e spec files under `dir`. */
function specFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory()
      ? specFiles(join(dir, e.name))
      : e.name.endsWith('.e2e-spec.ts')
        ? [join(dir, e.name)]
        : [],
  );
}

/** Whether the run has a suite that drives Chromium (test/helpers/browser.ts's `launchBrowser`). */
function runHasBrowserSuites(globalConfig: Config.GlobalConfig | undefined): boolean {
  const root = join(__dirname, '..');
  const pattern = globalConfig?.testPathPattern ? new RegExp(globalConfig.testPathPattern, 'i') : undefined;
  return specFiles(__dirname).some(
    (file) =>
      (!pattern || pattern.test(file) || pattern.test(relative(root, file))) &&
      readFileSync(file, 'utf8').includes('launchBrowser'),
  );
}

export default async function globalSetup(globalConfig?: Config.GlobalConfig): Promise<void> {
  // The browser suites' one Chromium, launched while the database is set up (see startSharedBrowser).
  if (!process.env.KHOUMS_TEST_BROWSER_WS && runHasBrowserSuites(globalConfig)) {
    const browser = startSharedBrowser(await freePort());
    process.env.KHOUMS_TEST_BROWSER_WS = browser.ws;
    globalThis.__khoumsTestDb = { browser };
  }
  let url: string;
  if (process.env.DATABASE_URL) {
    const database = `khoums_test_${randomBytes(5).toString('hex')}`;
    const admin = new Client({ connectionString: process.env.DATABASE_URL });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${database}`);
    await admin.end();
    const u = new URL(process.env.DATABASE_URL);
    u.pathname = `/${database}`;
    url = u.toString();
    globalThis.__khoumsTestDb = {
      ...globalThis.__khoumsTestDb,
      adminUrl: process.env.DATABASE_URL,
      database,
    };
  } else {
    const dataDir = mkdtempSync(join(tmpdir(), 'khoums-test-'));
    chmodSync(dataDir, 0o755); // the postgres user runs the server when the tests run as root
    const pg = await startEmbeddedPostgres({
      dataDir,
      port: await freePort(),
      database: 'khoums_test',
      ephemeral: true,
    });
    url = pg.url;
    globalThis.__khoumsTestDb = { ...globalThis.__khoumsTestDb, pg };
  }
  await runMigrations(url);
  const database = new URL(url).pathname.slice(1);
  const template = `${database}_template`;
  // Copied from another database than its own: a database cannot be copied while a session is on it.
  const maintenance = new URL(url);
  maintenance.pathname = '/postgres';
  const admin = new Client({
    connectionString: globalThis.__khoumsTestDb.adminUrl ?? maintenance.toString(),
  });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${template} TEMPLATE ${database}`);
  } finally {
    await admin.end();
  }
  globalThis.__khoumsTestDb.template = template;
  process.env.KHOUMS_TEST_TEMPLATE_DATABASE = template;
  if (process.env.KHOUMS_TEST_PGBOUNCER === '1') {
    const pgbouncer = await startPgBouncer(url);
    globalThis.__khoumsTestDb.pgbouncer = pgbouncer;
    process.env.KHOUMS_TEST_DATABASE_DIRECT_URL = url;
    const pooled = new URL(url);
    pooled.port = String(pgbouncer.port);
    url = pooled.toString();
  }
  process.env.KHOUMS_TEST_DATABASE_URL = url;
  // Services the tests start in child processes on this external database need the documents' key.
  process.env.DOCUMENTS_ENCRYPTION_KEY ??= 'a'.repeat(64);
}
