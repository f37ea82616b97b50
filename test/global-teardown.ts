import { rmSync } from 'node:fs';
import { Client } from 'pg';

export default async function globalTeardown(): Promise<void> {
  const db = globalThis.__khoumsTestDb;
  if (db?.runDir) rmSync(db.runDir, { recursive: true, force: true });
  await db?.pgbouncer?.stop();
  if (db?.pg) await db.pg.stop();
  if (db?.adminUrl && db.database && !process.env.KEEP_TEST_DATABASE) {
    const admin = new Client({ connectionString: db.adminUrl });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${db.database} WITH (FORCE)`);
    if (db.template) await admin.query(`DROP DATABASE IF EXISTS ${db.template} WITH (FORCE)`);
    await admin.end();
  }
}
