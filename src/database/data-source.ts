import { DataSource, DataSourceOptions } from 'typeorm';
import { migrations } from './migrations';

/**
 * TypeORM runs the migrations (here, in the CLI and in the TypeORM CLI through ormconfig.ts);
 * everything else goes through `Db` (docs/architecture.md).
 */
export function dataSourceOptions(url: string): DataSourceOptions {
  return {
    type: 'postgres',
    url,
    entities: [],
    migrations,
    migrationsTableName: 'migrations',
    migrationsTransactionMode: 'each',
    synchronize: false,
    logging: false,
    extra: { max: 2, connectionTimeoutMillis: 10_000 },
  };
}

/**
 * How long a start waits for another instance's migrations (the advisory lock) before it gives up
 * with `MIGRATION_LOCK_MESSAGE`: long enough for a big migration, bounded so that a lock nobody will
 * release (taken through a pooler in transaction mode, where it stays with a pooled server
 * connection) stops the start with a reason instead of hanging it.
 */
export const MIGRATION_LOCK_WAIT_MS = 600_000;

export const MIGRATION_LOCK_MESSAGE =
  "Waited too long for the migrations' lock: another instance is migrating, or the lock was taken " +
  'through a pooler in transaction mode, where it stays with a pooled connection (point ' +
  'DATABASE_DIRECT_URL at the server itself, then restart the pooler)';

/**
 * Applies pending migrations. Concurrent callers (two instances starting at once) are serialised by
 * an advisory lock, waited for at most `lockWaitMs`.
 */
export async function runMigrations(url: string, lockWaitMs = MIGRATION_LOCK_WAIT_MS): Promise<string[]> {
  const ds = new DataSource(dataSourceOptions(url));
  await ds.initialize();
  try {
    const runner = ds.createQueryRunner();
    await runner.connect();
    try {
      // The session's lock, waited for under a time-out of this transaction only (SET LOCAL: no
      // setting outlives it, even on a pooled connection).
      await runner.query('BEGIN');
      try {
        await runner.query(`SET LOCAL lock_timeout = ${Math.max(1, Math.round(lockWaitMs))}`);
        await runner.query('SELECT pg_advisory_lock(7372040001)');
        await runner.query('COMMIT');
      } catch (err) {
        await runner.query('ROLLBACK').catch(() => undefined);
        if ((err as { code?: string }).code === '55P03') throw new Error(MIGRATION_LOCK_MESSAGE);
        throw err;
      }
      const applied = await ds.runMigrations({ transaction: 'each' });
      return applied.map((m) => m.name);
    } finally {
      await runner.query('SELECT pg_advisory_unlock(7372040001)').catch(() => undefined);
      await runner.release();
    }
  } finally {
    await ds.destroy();
  }
}
