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

/** Applies pending migrations. Concurrent callers (two instances starting at once) are serialised by an advisory lock. */
export async function runMigrations(url: string): Promise<string[]> {
  const ds = new DataSource(dataSourceOptions(url));
  await ds.initialize();
  try {
    const runner = ds.createQueryRunner();
    await runner.connect();
    try {
      await runner.query('SELECT pg_advisory_lock(7372040001)');
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
