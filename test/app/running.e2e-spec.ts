import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client } from 'pg';
import { displayWidth } from '../../src/banner';
import { freePort } from '../../src/common/net';
import { databaseEnv, privateDatabase } from '../helpers/app';
import { waitFor } from '../helpers/poll';
import { buildDist } from '../helpers/build';

/**
 * What a new user does (README "Run it"): the built service on an embedded PostgreSQL under a
 * data directory, the demo organization, the CLI beside a running server, restarts, Ctrl-C,
 * a crash and a stale lock. Real processes, real PostgreSQL, real HTTP.
 */

const ROOT = resolve(__dirname, '../..');
jest.setTimeout(180_000);

let dataDir: string;
let env: NodeJS.ProcessEnv;
let port: number;

interface Server {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

async function startServer(serverEnv = env): Promise<Server> {
  const child = spawn(process.execPath, ['dist/src/main.js'], {
    cwd: ROOT,
    env: serverEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  await waitFor(
    () => {
      if (child.exitCode !== null) throw new Error(`server exited before it listened:\n${out}`);
      return /Khoums is listening[^]*└/.test(out); // the banner's last line
    },
    'the server to start',
    60_000,
  ).catch((err: Error) => {
    throw new Error(`${err.message}:\n${out}`);
  });
  return { child, output: () => out, exited };
}

function cli(...args: string[]): { stdout: string; status: number } {
  try {
    const stdout = execFileSync(process.execPath, ['dist/src/cli/main.js', ...args], {
      cwd: ROOT,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    return { stdout: stdout.toString(), status: 0 };
  } catch (e) {
    const err = e as { stdout: Buffer; stderr: Buffer; status: number };
    return { stdout: err.stdout.toString() + err.stderr.toString(), status: err.status };
  }
}

const api = (path: string, key: string, init: RequestInit = {}) =>
  fetch(`http://127.0.0.1:${port}/api/v1${path}`, {
    ...init,
    headers: { authorization: key, 'content-type': 'application/json', ...(init.headers ?? {}) },
  });

/** The printed dashboard login signs in: the form's CSRF cookie and field, then 303 to /dashboard. */
async function expectDashboardLogin(email: string, password: string): Promise<void> {
  const form = await fetch(`http://127.0.0.1:${port}/dashboard/login`);
  const cookie = form.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  const csrf = /name="_csrf" value="([^"]+)"/.exec(await form.text())![1];
  const res = await fetch(`http://127.0.0.1:${port}/dashboard/login`, {
    method: 'POST',
    redirect: 'manual',
    headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ email, password, _csrf: csrf }).toString(),
  });
  expect({ status: res.status, location: res.headers.get('location') }).toEqual({
    status: 303,
    location: '/dashboard',
  });
}

const pidFile = () => join(dataDir, 'pg', 'postmaster.pid');
const postmasterPid = () => Number(readFileSync(pidFile(), 'utf8').split('\n')[0]);
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

beforeAll(async () => {
  buildDist();
  dataDir = mkdtempSync(join(tmpdir(), 'khoums-run-'));
  chmodSync(dataDir, 0o755);
  port = await freePort();
  env = {
    ...process.env,
    PORT: String(port),
    DATA_DIR: dataDir,
    EMBEDDED_PG_PORT: String(await freePort()),
    LOG_LEVEL: 'warn',
  };
  delete env.DATABASE_URL;
});

afterAll(() => {
  if (existsSync(pidFile())) {
    const pid = postmasterPid();
    if (alive(pid)) process.kill(pid, 'SIGKILL');
  }
  rmSync(dataDir, { recursive: true, force: true });
});

it('serves on the embedded database, saves the demo keys once (never printing them in JSON logs), and survives restarts, the CLI, a crash and a stale lock', async () => {
  // First start: migrations, the demo organization, its keys and login saved to a file. Its stdout
  // is not a terminal, so the logs are JSON: the banner names the file and prints no secret.
  const first = await startServer();
  const credentials = join(dataDir, 'demo-credentials.json');
  const saved = JSON.parse(readFileSync(credentials, 'utf8'));
  const secretKey = saved.sandbox.secretKey as string;
  const publishableKey = saved.sandbox.publishableKey as string;
  expect(secretKey).toMatch(/^sk_test_/);
  expect(first.output()).toContain('Demo organization created');
  expect(first.output()).toContain(credentials);
  expect(first.output()).not.toContain(saved.password);
  expect(first.output()).not.toContain(secretKey);
  expect(first.output()).toContain(`http://localhost:${port}/dashboard`);
  // The banner fits an 80-column terminal.
  const banner = first.output().slice(first.output().indexOf('┌'), first.output().indexOf('┘') + 1);
  expect(banner.split('\n').length).toBeGreaterThan(8);
  for (const line of banner.split('\n')) expect(displayWidth(line)).toBeLessThanOrEqual(80);
  await expectDashboardLogin(saved.email, saved.password);

  const created = await api('/payment-request', secretKey, {
    method: 'POST',
    body: JSON.stringify({ transactionId: 'first-run', amount: 1500 }),
  });
  expect(created.status).toBe(200);
  expect((await api('/payment-request/by-transaction/first-run', publishableKey)).status).toBe(200);

  // The CLI beside the running server uses the same embedded database.
  const made = cli('org:create', '--name', 'Boutique Atar', '--email', 'owner@atar.example', '--json');
  expect(made.status).toBe(0);
  const org = JSON.parse(made.stdout);
  expect(Object.keys(org).sort()).toEqual(['email', 'organizationId', 'password', 'production', 'sandbox']);
  expect(org.email).toBe('owner@atar.example');
  for (const kind of ['sandbox', 'production']) {
    expect(Object.keys(org[kind]).sort()).toEqual(['environmentId', 'publishableKey', 'secretKey']);
  }
  expect(org.sandbox.secretKey).toMatch(/^sk_test_[0-9A-Za-z]{32,}$/);
  expect(org.production.publishableKey).toMatch(/^pk_live_[0-9A-Za-z]{32,}$/);
  expect((await api('/payment-request', org.production.secretKey)).status).toBe(200);
  expect(cli('org:create', '--name', 'Dup', '--email', 'owner@atar.example', '--json').status).not.toBe(0);

  // Ctrl-C: the server exits 0 and PostgreSQL stops cleanly.
  const pgPid = postmasterPid();
  first.child.kill('SIGINT');
  expect(await first.exited).toBe(0);
  expect(alive(pgPid)).toBe(false);
  expect(existsSync(pidFile())).toBe(false);
  expect(readFileSync(join(dataDir, 'postgres.log'), 'utf8')).toContain('database system is shut down');

  // Second start reuses the data: no new demo organization, the earlier request is there.
  const second = await startServer();
  expect(second.output()).not.toContain('Demo organization created');
  const again = await api('/payment-request/by-transaction/first-run', secretKey);
  expect(((await again.json()) as { data: { amount: number } }).data.amount).toBe(1500);

  // A crash (SIGKILL) leaves PostgreSQL running; the next start attaches to it.
  second.child.kill('SIGKILL');
  await second.exited;
  const orphan = postmasterPid();
  expect(alive(orphan)).toBe(true);
  const third = await startServer();
  expect((await api('/payment-request/by-transaction/first-run', secretKey)).status).toBe(200);
  third.child.kill('SIGINT');
  expect(await third.exited).toBe(0);

  // A stale lock (its server is gone, the file stayed) is recovered.
  process.kill(orphan, 'SIGINT');
  await waitFor(() => !alive(orphan), 'PostgreSQL to stop', 30_000);
  writeFileSync(pidFile(), `999999\n${join(dataDir, 'pg')}\n1700000000\n${env.EMBEDDED_PG_PORT}\n\n\n`);
  const fourth = await startServer();
  expect((await api('/payment-request/by-transaction/first-run', secretKey)).status).toBe(200);
  fourth.child.kill('SIGINT');
  expect(await fourth.exited).toBe(0);

  // The CLI on its own starts and stops the embedded database.
  const alone = cli('org:create', '--name', 'Alone', '--email', 'alone@example.mr', '--json');
  expect(alone.status).toBe(0);
  expect(JSON.parse(alone.stdout).organizationId).toMatch(/^[0-9a-f-]{36}$/);
  expect(existsSync(pidFile())).toBe(false);
});

it('refuses to start with a bad configuration and says which variable is wrong', () => {
  let output = '';
  try {
    execFileSync(process.execPath, ['dist/src/main.js'], {
      cwd: ROOT,
      env: { ...env, PORT: 'abc' },
      stdio: 'pipe',
    });
  } catch (e) {
    output = (e as { stderr: Buffer }).stderr.toString();
  }
  expect(output).toContain('Invalid configuration');
  expect(output).toContain('PORT="abc"');
});

it('keeps Nest’s route table out of the info log: JSON lines and the boxed banner when stdout is not a terminal', async () => {
  const db = await privateDatabase();
  const run = async (extra: NodeJS.ProcessEnv) => {
    const serverPort = await freePort();
    const server = await startServer({
      ...env,
      ...databaseEnv(db.url),
      PORT: String(serverPort),
      WEBHOOK_WORKER: 'false',
      RECONCILE_INTERVAL_MS: '0',
      ...extra,
    });
    expect((await fetch(`http://127.0.0.1:${serverPort}/health`)).status).toBe(200);
    expect((await fetch(`http://127.0.0.1:${serverPort}/api/v1/payment-request`)).status).toBe(401);
    await waitFor(() => server.output().includes('/api/v1/payment-request'), 'the request log line', 30_000);
    server.child.kill('SIGINT');
    expect(await server.exited).toBe(0);
    return server.output().split('\n');
  };
  try {
    const info = await run({ LOG_LEVEL: 'info' });
    expect(info.filter((l) => l.includes('Mapped {'))).toEqual([]);
    expect(info.filter((l) => /InstanceLoader|RoutesResolver|NestFactory/.test(l))).toEqual([]);
    const json = info
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as { level: number; msg: string; url?: string });
    expect(json.find((l) => l.url === '/api/v1/payment-request')).toMatchObject({
      level: 30,
      msg: 'request',
      statusCode: 401,
    });
    // Health probes are logged at debug only.
    expect(json.filter((l) => l.url === '/health')).toEqual([]);
    for (const line of json) expect(line.level).toBeGreaterThanOrEqual(30);
    const banner = info.findIndex((l) => l.startsWith('┌'));
    expect(info[banner - 1]).toBe('');
    expect(info[banner + 1]).toMatch(/^│ Khoums is listening on http:\/\/localhost:\d+ +│$/);
    expect(info[banner + 2]).toMatch(/^│ {3}Database: {2}DATABASE_URL +│$/);
    // With DATABASE_URL (a deployment) there is no demo organization unless DEMO_ORG asks for one.
    expect(info.join('\n')).not.toContain('Demo organization');
    const pg = new Client({ connectionString: db.url });
    await pg.connect();
    try {
      expect((await pg.query('SELECT count(*)::int AS n FROM organizations')).rows).toEqual([{ n: 0 }]);
    } finally {
      await pg.end();
    }

    // The table is still there for whoever asks for debug, here in the readable format.
    const debug = await run({ LOG_LEVEL: 'debug', LOG_FORMAT: 'pretty', DEMO_ORG: 'true' });
    expect(debug.some((l) => / DEBUG request .*url=\/health /.test(l))).toBe(true);
    // Asked for, the demo login is shown in the readable banner (not in a log line).
    expect(debug.some((l) => /^│ {3}Dashboard login: +demo@khoums\.local \/ \S+ +│$/.test(l))).toBe(true);
    const routes = debug.filter((l) => l.includes('Mapped {'));
    expect(routes.length).toBeGreaterThan(20);
    for (const line of routes)
      expect(line).toMatch(/^\d\d:\d\d:\d\d\.\d{3} DEBUG \[RouterExplorer\] Mapped \{\/.+, [A-Z]+\} route$/);
    expect(debug.filter((l) => l.startsWith('{'))).toEqual([]);
  } finally {
    await db.drop();
  }
});
