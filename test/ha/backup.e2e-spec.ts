import { execFileSync } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as pause } from 'node:timers/promises';
import { HaTopology } from '../helpers/ha-topology';
import { waitFor } from '../helpers/poll';

/**
 * Point-in-time recovery on deploy/ha's topology: the leader archives its WAL continuously,
 * deploy/ha/backup takes a base backup, deploy/ha/restore replays the archive onto it up to a
 * moment. Restored to a moment between two writes, the database has the first and not the second.
 */

let ha: HaTopology | undefined;
let restoredDir: string | undefined;

beforeAll(async () => {
  ha = await HaTopology.start();
}, 300_000);

afterAll(async () => {
  if (restoredDir && existsSync(join(restoredDir, 'postmaster.pid'))) {
    const pid = Number(execFileSync('head', ['-1', join(restoredDir, 'postmaster.pid')]).toString());
    process.kill(pid, 'SIGKILL');
  }
  if (restoredDir) rmSync(restoredDir, { recursive: true, force: true });
  await ha?.stop();
}, 120_000);

it('restores to a moment between two writes: the first is there, the second is not', async () => {
  await ha!.query('CREATE TABLE pitr_check (note text PRIMARY KEY, at timestamptz NOT NULL DEFAULT now())');
  const backup = await ha!.backup();

  await ha!.query(`INSERT INTO pitr_check (note) VALUES ('first')`);
  await pause(500);
  const [{ between }] = await ha!.query<{ between: string }>('SELECT clock_timestamp()::text AS between');
  await pause(500);
  await ha!.query(`INSERT INTO pitr_check (note) VALUES ('second')`);
  // The segment holding both is closed and archived, as archive_timeout would within a minute.
  const [{ segment }] = await ha!.query<{ segment: string }>(
    'SELECT pg_walfile_name(pg_switch_wal()) AS segment',
  );
  await waitFor(
    async () => {
      const [a] = await ha!.query<{ last: string | null }>(
        'SELECT last_archived_wal AS last FROM pg_stat_archiver',
      );
      return a.last !== null && a.last >= segment;
    },
    `the leader to archive ${segment}`,
    30_000,
  );

  restoredDir = join(ha!.dir, 'restored');
  const url = await ha!.restore(backup, between, restoredDir);
  const rows = await ha!.query<{ note: string }>('SELECT note FROM pitr_check ORDER BY note', [], url);
  expect(rows.map((r) => r.note)).toEqual(['first']);
  // Promoted at the target: a server that takes writes, on a timeline of its own.
  await ha!.query(`INSERT INTO pitr_check (note) VALUES ('after the restore')`, [], url);
}, 240_000);
