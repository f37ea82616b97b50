import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { runMigrations } from '../src/database/data-source';
import { RunningPostgres, startEmbeddedPostgres } from '../src/database/embedded-postgres';
import { freePort } from '../src/common/net';
import { startPgBouncer } from './helpers/pgbouncer';

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
        runDir?: string;
      }
    | undefined;
}

export default async function globalSetup(): Promise<void> {
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
    globalThis.__khoumsTestDb = { adminUrl: process.env.DATABASE_URL, database };
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
    globalThis.__khoumsTestDb = { pg };
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
  // What the run's files share on disk (the applications' OpenAPI document: test/helpers/app.ts).
  process.env.KHOUMS_TEST_RUN_DIR = globalThis.__khoumsTestDb.runDir = mkdtempSync(
    join(tmpdir(), 'khoums-run-'),
  );
  // Services the tests start in child processes on this external database need the documents' key.
  process.env.DOCUMENTS_ENCRYPTION_KEY ??= 'a'.repeat(64);
}
