import { join } from 'node:path';
import type { AppConfig } from '../config/config';
import { RunningPostgres, startEmbeddedPostgres } from './embedded-postgres';

/** `DATABASE_URL` when set; otherwise the embedded PostgreSQL under DATA_DIR (started, or attached to when already running). */
export async function openDatabase(config: AppConfig): Promise<RunningPostgres> {
  if (config.DATABASE_URL) return { url: config.DATABASE_URL, owned: false, stop: async () => undefined };
  return startEmbeddedPostgres({
    dataDir: config.DATA_DIR,
    port: config.EMBEDDED_PG_PORT,
    database: 'khoums',
  });
}

export const embeddedDataFile = (config: AppConfig, name: string) => join(config.DATA_DIR, name);
