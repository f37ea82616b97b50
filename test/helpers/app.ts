import 'reflect-metadata';
import type { Type } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { Client } from 'pg';
import request from 'supertest';
import type TestAgent from 'supertest/lib/agent';
import { createApp } from '../../src/app';
import { allJobsOff, AppConfig, loadConfig } from '../../src/config/config';
import { Db } from '../../src/database/db';
import { insertEvent, NewEvent } from '../../src/webhooks/outbox';
import { OrganizationsService, CreatedOrganization } from '../../src/organizations/organizations.service';
import { OpenApiCheck, type Document } from './openapi-check';

export interface TestApp {
  app: NestFastifyApplication;
  http: TestAgent;
  db: Db;
  /** Plain SQL on the app's pool, for a test's own set-up and checks: the rows. */
  query<T = any>(text: string, values?: unknown[]): Promise<T[]>; // eslint-disable-line @typescript-eslint/no-explicit-any
  config: AppConfig;
  /**
   * JSON log lines written so far (LOG_LEVEL info unless given). The services' own lines go to the
   * newest app of the test file (Nest's Logger is shared by its apps), requests' to their own app.
   */
  logs: string[];
  close(): Promise<void>;
}

/**
 * Answers of the API (received by any test of the file) that its OpenAPI document does not declare:
 * each fails the test during which it was sent, so the document lists every answer clients can get.
 */
const undeclaredAnswers: string[] = [];
function failOnUndeclaredAnswers(): void {
  const found = undeclaredAnswers.splice(0);
  if (found.length) throw new Error(`Answers the OpenAPI document does not declare:\n${found.join('\n')}`);
}
if (typeof afterEach === 'function') {
  afterEach(failOnUndeclaredAnswers);
  afterAll(failOnUndeclaredAnswers);
}

/**
 * The OpenAPI document an application serves, which its answers are checked against. Without extra
 * modules it is the same for every application of the run (it depends on the controllers only, not
 * on the configuration), so the run's first application to serve it leaves it in the run's
 * directory (KHOUMS_TEST_RUN_DIR, global-setup) and the others read it there: Jest gives each test
 * file a module registry of its own, and building the document cost 300-400 ms in every file's
 * first application. The suites that test the document itself fetch it from their app.
 */
async function openApiDocument(app: NestFastifyApplication, modules: Type[]): Promise<Document> {
  const served = async () =>
    (
      await app.getHttpAdapter().getInstance().inject({ method: 'GET', url: '/api/docs-json' })
    ).json<Document>();
  const dir = process.env.KHOUMS_TEST_RUN_DIR;
  if (!dir || modules.length > 0) return served();
  const file = join(dir, 'openapi.json');
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Document;
  } catch {
    // not written yet: this application serves it, and leaves it for the others
  }
  const document = await served();
  const written = `${file}.${process.pid}-${randomUUID()}`;
  writeFileSync(written, JSON.stringify(document));
  renameSync(written, file); // whole or not at all, for a reader in another worker
  return document;
}

export function testDatabaseUrl(): string {
  const url = process.env.KHOUMS_TEST_DATABASE_URL;
  if (!url) throw new Error('KHOUMS_TEST_DATABASE_URL is unset: run e2e specs through jest (global-setup)');
  return url;
}

/**
 * The server itself for a database reached through the run's PgBouncer (KHOUMS_TEST_PGBOUNCER=1):
 * what the app takes as DATABASE_DIRECT_URL (migrations, LISTEN). Undefined without PgBouncer.
 */
export function directUrlFor(url: string): string | undefined {
  const direct = process.env.KHOUMS_TEST_DATABASE_DIRECT_URL;
  if (!direct) return undefined;
  const u = new URL(url);
  if (u.port !== new URL(testDatabaseUrl()).port) return undefined;
  u.port = new URL(direct).port;
  return u.toString();
}

/**
 * The environment of a service or CLI process on `url`: DATABASE_URL, and behind the run's
 * PgBouncer the server itself as DATABASE_DIRECT_URL. Without it the process would take the
 * migrations' session lock through the pooler, which leaves it held by a pooled server connection:
 * every later start on that database then waits for it (a CLI spec once hung for 800 s so, and a
 * service start beside it).
 */
export function databaseEnv(url: string): { DATABASE_URL: string; DATABASE_DIRECT_URL?: string } {
  const direct = directUrlFor(url);
  return { DATABASE_URL: url, ...(direct ? { DATABASE_DIRECT_URL: direct } : {}) };
}

/**
 * The real application on the run's database, listening on an ephemeral port; every answer of
 * its API is checked against its OpenAPI document (see `undeclaredAnswers`). Its webhook
 * worker is off unless asked for (WEBHOOK_WORKER: 'true'): suites that deliver webhooks run
 * their own, so that no other suite's settings (time-out, retry schedule) deliver theirs.
 * Every scheduled job is off too (`allJobsOff`, the switches of docs/operations.md "Jobs"): no
 * tick of the app's own timers runs during a test (a prune at the wall clock's ten minutes would
 * delete what another test counts; an expiry would add statements to a count). Tests call a job's
 * work themselves, or turn its switch on in `env` (test/jobs/ checks every job is off here by
 * default). Rate limits are off (every test talks from 127.0.0.1,
 * often in bursts): the suites that test them set their own. Webhook endpoints may be private
 * addresses (the suites' receivers listen on 127.0.0.1); the suites that test the refusal set
 * WEBHOOK_ALLOW_PRIVATE_URLS to false.
 */
export async function startTestApp(
  env: Record<string, string> = {},
  databaseUrl = testDatabaseUrl(),
  modules: Type[] = [],
): Promise<TestApp> {
  const config = loadConfig({
    LOG_LEVEL: 'info',
    DEMO_ORG: 'false',
    DB_POOL_SIZE: '10',
    WEBHOOK_WORKER: 'false',
    // A frozen server's time-out (10 s in production) would fail a loaded machine's big statements
    // (a run over thousands of rows at load 8 took longer); the frozen-server suites set their own.
    DB_QUERY_TIMEOUT_MS: '60000',
    ...allJobsOff(),
    RATE_LIMIT_PER_KEY: '0',
    RATE_LIMIT_PER_IP: '0',
    WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
    // The documents' key (required with an external database), the same for every app of the run.
    DOCUMENTS_ENCRYPTION_KEY: TEST_DOCUMENTS_KEY,
    ...(directUrlFor(databaseUrl) ? { DATABASE_DIRECT_URL: directUrlFor(databaseUrl)! } : {}),
    ...env,
  });
  const logs: string[] = [];
  const logStream = new Writable({
    write(chunk: Buffer, _enc, cb) {
      logs.push(...chunk.toString().split('\n').filter(Boolean));
      cb();
    },
  });
  const app = await createApp({ config, databaseUrl, logStream, modules });
  const fastify = app.getHttpAdapter().getInstance();
  const document: { check?: OpenApiCheck } = {};
  fastify.addHook('onSend', (req, reply, payload, done) => {
    if (document.check && (typeof payload === 'string' || Buffer.isBuffer(payload))) {
      const violation = document.check.violation({
        method: req.method,
        route: req.routeOptions.url,
        url: req.url,
        status: reply.statusCode,
        contentType: reply.getHeader('content-type') as string | undefined,
        body: payload.toString(),
      });
      if (violation) undeclaredAnswers.push(violation);
    }
    done(null, payload);
  });
  // An ephemeral port, unless the test gave one (to make PUBLIC_URL this very server's address).
  await app.listen(env.PORT ? Number(env.PORT) : 0, '127.0.0.1');
  document.check = new OpenApiCheck(await openApiDocument(app, modules));
  const db = app.get(Db);
  return {
    app,
    http: request(app.getHttpServer()),
    db,
    query: async (text, values) => (await db.pool.query(text, values)).rows,
    config,
    logs,
    close: () => app.close(),
  };
}

/**
 * A migrated database of its own on the run's server, for suites whose processes must be the
 * only ones working on it (e.g. background workers racing other suites'): a copy of the run's
 * migrated template (global-setup). Dropped by `drop()`.
 */
export function privateDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const template = process.env.KHOUMS_TEST_TEMPLATE_DATABASE;
  if (!template)
    throw new Error('KHOUMS_TEST_TEMPLATE_DATABASE is unset: run e2e specs through jest (global-setup)');
  return newDatabase(template);
}

/** A database of its own with no migration run yet (a migration's test), dropped by `drop`. */
export function emptyDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  return newDatabase();
}

async function newDatabase(template?: string): Promise<{ url: string; drop(): Promise<void> }> {
  const database = `khoums_private_${randomBytes(5).toString('hex')}`;
  const admin = new Client({ connectionString: testDatabaseUrl() });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${database}${template ? ` TEMPLATE ${template}` : ''}`);
  } finally {
    await admin.end();
  }
  const u = new URL(testDatabaseUrl());
  u.pathname = `/${database}`;
  const url = u.toString();
  return {
    url,
    drop: async () => {
      const c = new Client({ connectionString: testDatabaseUrl() });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
      await c.end();
    },
  };
}

/** The go-live documents' key of every app the tests start (global-setup sets it for child processes). */
export const TEST_DOCUMENTS_KEY = 'a'.repeat(64);

let counter = 0;

/**
 * A fresh organization (both environments, four keys) so tests never share data. It is verified
 * (as `org:create` makes them), so its Production keys take money, unless `unverified` is asked for.
 */
export function newTenant(
  t: TestApp,
  name = 'Test Merchant',
  options: { verification?: 'verified' | 'unverified' } = {},
): Promise<CreatedOrganization> {
  counter += 1;
  const unique = `${process.pid}-${Date.now()}-${counter}-${Math.random().toString(36).slice(2, 8)}`;
  return t.app
    .get(OrganizationsService)
    .create({ name, email: `merchant-${unique}@test.khoums`, verification: options.verification });
}

/** Parses a 422 body (JSON sent as text/plain). */
export function validationBody(res: { text: string }): Record<string, unknown> & {
  errors: Array<Record<string, unknown>>;
} {
  return JSON.parse(res.text);
}

/** Records a webhook event in the outbox, as a domain change would; its id. */
export async function recordEvent(t: TestApp, event: Omit<NewEvent, 'id'>): Promise<string> {
  const id = randomUUID();
  await t.db.exec(insertEvent({ ...event, id }));
  return id;
}

/**
 * The app with a worker of its own on (the webhook worker, the test clocks' advance job…), on a
 * database of its own: a worker claims every due delivery or advancing clock of its database, so on
 * the run's shared one it would work on (and change) other suites' while they check them.
 * `close()` also drops the database.
 */
export async function startWorkerApp(env: Record<string, string>): Promise<TestApp> {
  const db = await privateDatabase();
  const t = await startTestApp(env, db.url);
  return {
    ...t,
    close: async () => {
      await t.close();
      await db.drop();
    },
  };
}
