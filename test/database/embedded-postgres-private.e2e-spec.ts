import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  cpSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  rmSync,
  statSync,
} from 'node:fs';
import { arch, platform, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client } from 'pg';
import { freePort } from '../../src/common/net';
import {
  postgresBinaries,
  startEmbeddedPostgres,
  writeLoadSettings,
} from '../../src/database/embedded-postgres';

/**
 * `npm ci && npm start` as root in a directory the `postgres` user cannot enter (a clone under
 * /root, or any `mktemp -d`): PostgreSQL runs as `postgres`, so its cluster and its binaries
 * must be somewhere that user can reach. Here a 0700 directory holds the package's
 * node_modules/@embedded-postgres and the data directory, as in such a checkout; a 0755
 * directory stands for /var/tmp.
 */

const ROOT = resolve(__dirname, '../..');
const asRoot = process.getuid?.() === 0;
jest.setTimeout(120_000);

let privateDir: string;
let reachable: string;
const packaged = () =>
  join(privateDir, 'node_modules', '@embedded-postgres', `${platform()}-${arch()}`, 'native', 'bin');

beforeAll(() => {
  privateDir = mkdtempSync(join(tmpdir(), 'khoums-private-')); // 0700, like root's home
  cpSync(
    join(ROOT, 'node_modules', '@embedded-postgres'),
    join(privateDir, 'node_modules', '@embedded-postgres'),
    {
      recursive: true,
      verbatimSymlinks: true,
    },
  );
  reachable = mkdtempSync(join(tmpdir(), 'khoums-reachable-'));
  chmodSync(reachable, 0o755);
});

afterAll(() => {
  rmSync(privateDir, { recursive: true, force: true });
  rmSync(reachable, { recursive: true, force: true });
});

async function selectOne(url: string): Promise<unknown> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query('SELECT 1 + 1 AS two')).rows[0];
  } finally {
    await client.end();
  }
}

/** The settings `writeLoadSettings` gives, and work_mem, as the server runs with them. */
async function serverSettings(url: string): Promise<Record<string, string>> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<Record<string, string>>(
      `SELECT CASE WHEN pg_size_bytes(current_setting('shared_buffers')) = pg_size_bytes($1)
                   THEN $1 ELSE current_setting('shared_buffers') END AS shared_buffers,
              current_setting('max_wal_size') AS max_wal_size,
              current_setting('checkpoint_timeout') AS checkpoint_timeout, current_setting('work_mem') AS work_mem`,
      [writeLoadSettings().shared_buffers],
    );
    return rows[0];
  } finally {
    await client.end();
  }
}

/** The executable of the running server, from its pid file. */
function serverExecutable(dataDir: string): string {
  const pid = Number(readFileSync(join(dataDir, 'pg', 'postmaster.pid'), 'utf8').split('\n')[0]);
  return readlinkSync(`/proc/${pid}/exe`);
}

/** What runs PostgreSQL's processes: `postgres` when we are root, else ourselves. */
function postgresUser(): { uid?: number; gid?: number } {
  if (!asRoot) return {};
  const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres']).toString().trim());
  return { uid: id('-u'), gid: id('-g') };
}

it(
  asRoot
    ? 'as root, starts PostgreSQL from a checkout the postgres user cannot enter, on a copy of the binaries made once and reused'
    : 'as a regular user, starts PostgreSQL from binaries under a private (0700) directory of its own, where they are',
  async () => {
    expect(statSync(privateDir).mode & 0o777).toBe(0o700);
    const dataDir = join(privateDir, '.data');
    const options = {
      dataDir,
      port: await freePort(),
      database: 'khoums_private',
      packageRoot: privateDir,
      reachableDir: reachable,
    };

    const first = await startEmbeddedPostgres({ ...options, settings: { work_mem: '32MB' } });
    let executable: string;
    try {
      expect(await selectOne(first.url)).toEqual({ two: 2 });
      // The write load's settings, sized to this machine, and those the caller adds.
      expect(await serverSettings(first.url)).toEqual({
        shared_buffers: writeLoadSettings().shared_buffers,
        max_wal_size: '16GB',
        checkpoint_timeout: '15min',
        work_mem: '32MB',
      });
      executable = serverExecutable(dataDir);
    } finally {
      await first.stop();
    }
    const copies = () => readdirSync(reachable).filter((name) => name.startsWith('khoums-pg-bin-'));
    if (asRoot) {
      expect(copies()).toEqual([expect.stringMatching(/^khoums-pg-bin-[0-9a-f]{16}$/)]);
      expect(executable).toBe(join(reachable, copies()[0], 'bin', 'postgres'));
    } else {
      expect(copies()).toEqual([]);
      expect(executable).toBe(realpathSync(join(packaged(), 'postgres')));
    }

    // A second start reuses the cluster and the binaries: nothing copied again.
    const before = asRoot ? statSync(join(reachable, copies()[0])).ino : undefined;
    const second = await startEmbeddedPostgres({ ...options, ephemeral: true });
    try {
      expect(await selectOne(second.url)).toEqual({ two: 2 });
      expect(serverExecutable(dataDir)).toBe(executable);
    } finally {
      await second.stop();
    }
    if (asRoot) expect(statSync(join(reachable, copies()[0])).ino).toBe(before);
    expect(readdirSync(reachable).filter((name) => /\.(tmp|stale)$/.test(name))).toEqual([]);
  },
);

it(
  asRoot
    ? 'as root, gives starts that race one intact copy of the binaries, and replaces a copy that lost files'
    : 'as a regular user, runs the binaries where they are, also when starts race',
  async () => {
    const race = mkdtempSync(join(tmpdir(), 'khoums-race-'));
    chmodSync(race, 0o755);
    try {
      const options = { packageRoot: privateDir, reachableDir: race };
      const [a, b] = await Promise.all([postgresBinaries(options), postgresBinaries(options)]);
      expect(a).toBe(b);
      const version = () => execFileSync(join(a, 'postgres'), ['--version'], postgresUser()).toString();
      expect(version()).toMatch(/^postgres \(PostgreSQL\) \d+\.\d+/);
      if (!asRoot) {
        expect(a).toBe(packaged());
        expect(readdirSync(race)).toEqual([]);
        return;
      }
      const copy = resolve(a, '..');
      expect(readdirSync(race)).toEqual([copy.split('/').pop()]); // the loser's staging is gone

      // A /var/tmp cleaner removed files nobody had read for weeks: the next start restores them.
      const timezones = join(copy, 'share', 'postgresql', 'timezonesets');
      rmSync(timezones, { recursive: true });
      expect(await postgresBinaries(options)).toBe(a);
      expect(readdirSync(timezones)).toContain('Default');
      expect(version()).toMatch(/^postgres \(PostgreSQL\)/);
      expect(readdirSync(race)).toHaveLength(1);
    } finally {
      rmSync(race, { recursive: true, force: true });
    }
  },
);
