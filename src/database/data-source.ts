import { DataSource, DataSourceOptions } from 'typeorm';
import { entities } from './entities';
import { migrations } from './migrations';

export function dataSourceOptions(url: string, poolSize = 20): DataSourceOptions {
  return {
    type: 'postgres',
    url,
    entities,
    migrations,
    migrationsTableName: 'migrations',
    migrationsTransactionMode: 'each',
    synchronize: false,
    logging: false,
    extra: { max: poolSize, connectionTimeoutMillis: 10_000 },
  };
}

/** Applies pending migrations. Concurrent callers (two instances starting at once) are serialised by an advisory lock. */
export async function runMigrations(url: string): Promise<string[]> {
  const ds = new DataSource({ ...dataSourceOptions(url, 2) });
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

/** True when every known migration has been applied (readiness). */
export async function migrationsApplied(ds: DataSource): Promise<boolean> {
  const rows: { name: string }[] = await ds.query('SELECT name FROM migrations');
  const applied = new Set(rows.map((r) => r.name));
  return migrations.every((m) => applied.has(m.name));
}
