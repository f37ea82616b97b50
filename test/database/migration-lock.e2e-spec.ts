import { Client } from 'pg';
import { MIGRATION_LOCK_MESSAGE, runMigrations } from '../../src/database/data-source';
import { directUrlFor, privateDatabase } from '../helpers/app';

/*
 * The migrations' advisory lock: instances starting at once migrate one after the other, and a
 * lock nobody releases (taken through a pooler in transaction mode, docs/operations.md) stops a
 * start with a reason after a bounded wait instead of hanging it.
 */
let db: { url: string; drop(): Promise<void> };
let url: string;
beforeAll(async () => {
  db = await privateDatabase();
  url = directUrlFor(db.url) ?? db.url;
});
afterAll(() => db.drop());

it('gives up with its reason when the lock stays held past the wait, and migrates once it is free', async () => {
  const holder = new Client({ connectionString: url });
  await holder.connect();
  try {
    await holder.query('SELECT pg_advisory_lock(7372040001)');
    const started = Date.now();
    await expect(runMigrations(url, 300)).rejects.toThrow(MIGRATION_LOCK_MESSAGE);
    expect(Date.now() - started).toBeLessThan(20_000);
    // The failed wait left no setting behind on its session, and no lock of its own. Advisory locks
    // are per database: the other files' apps, starting meanwhile, take the same key on theirs.
    const { rows } = await holder.query(
      `SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND objid = 7372040001 % 4294967296
          AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
          AND pid <> pg_backend_pid()`,
    );
    expect(rows[0].n).toBe(0);
  } finally {
    await holder.query('SELECT pg_advisory_unlock(7372040001)');
    await holder.end();
  }
  // Free: nothing pending on a migrated database, and no wait.
  await expect(runMigrations(url, 300)).resolves.toEqual([]);
});

it('serialises instances starting at once: both finish', async () => {
  await expect(Promise.all([runMigrations(url), runMigrations(url), runMigrations(url)])).resolves.toEqual([
    [],
    [],
    [],
  ]);
});
