import { Db } from './db';
import { migrations } from './migrations';
import { sql } from './sql';

/**
 * True when every known migration has been applied (readiness). Apart from data-source.ts, so
 * that the service's modules do not load TypeORM, which only the migration runners need.
 */
export async function migrationsApplied(db: Db): Promise<boolean> {
  const rows = await db.many<{ name: string }>(sql`SELECT name FROM migrations`);
  const applied = new Set(rows.map((r) => r.name));
  return migrations.every((m) => applied.has(m.name));
}
