import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { dataSourceOptions, runMigrations } from '../../src/database/data-source';
import { migrations } from '../../src/database/migrations';
import { emptyDatabase } from './app';

/** Runs on `url` the migrations listed before `migration`: the schema as it was before it. */
export async function migrateUpTo(url: string, migration: (typeof migrations)[number]): Promise<void> {
  const ds = new DataSource({
    ...dataSourceOptions(url),
    migrations: migrations.slice(0, migrations.indexOf(migration)),
  });
  await ds.initialize();
  try {
    await ds.runMigrations({ transaction: 'each' });
  } finally {
    await ds.destroy();
  }
}

export interface MigrationDatabase {
  /** A connection to the database, for the rows written before the migration and the checks after. */
  readonly db: Client;
  /** Applies the migration under test and every later one, as an upgrade does, with `env` set meanwhile. */
  migrateRest(env?: Record<string, string>): Promise<void>;
}

/**
 * The set-up of a migration's test (test/<module>/…-migration.e2e-spec.ts): a database of its own
 * (registered in the file's beforeAll, dropped in its afterAll), migrated up to `migration`, with
 * a connection to it. The test writes the rows of the older schema, calls `migrateRest()` and
 * checks what the migration made of them.
 */
export function migrationDatabase(migration: (typeof migrations)[number]): MigrationDatabase {
  let client: Client | undefined;
  let database: { url: string; drop(): Promise<void> } | undefined;
  beforeAll(async () => {
    database = await emptyDatabase();
    await migrateUpTo(database.url, migration);
    client = new Client({ connectionString: database.url });
    await client.connect();
  });
  afterAll(async () => {
    await client?.end();
    await database?.drop();
  });
  return {
    get db() {
      if (!client) throw new Error('migrationDatabase: used before its beforeAll');
      return client;
    },
    async migrateRest(env = {}) {
      const before = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
      Object.assign(process.env, env);
      try {
        await runMigrations(database!.url);
      } finally {
        for (const [k, v] of Object.entries(before)) {
          if (v === undefined) delete process.env[k];
          else process.env[k] = v;
        }
      }
    },
  };
}

/** An environment of an older schema, with its Masrivi payment method. */
export interface OldEnvironment {
  environmentId: string;
  methodId: string;
}

/** An organization of an older schema: its environments and a Masrivi payment method in each. */
export interface OldOrganization {
  id: string;
  environments: Record<'sandbox' | 'production', OldEnvironment>;
}

/**
 * An organization as the first migrations knew it (name only; `feeBps` from GoingLive on), with a
 * Sandbox and a Production environment, each with a Masrivi payment method.
 */
export async function oldOrganization(
  db: Client,
  options: { feeBps?: number | null } = {},
): Promise<OldOrganization> {
  const id = randomUUID();
  if (options.feeBps === undefined)
    await db.query(`INSERT INTO organizations (id, name) VALUES ($1, 'Old shop')`, [id]);
  else
    await db.query(`INSERT INTO organizations (id, name, fee_bps) VALUES ($1, 'Old shop', $2)`, [
      id,
      options.feeBps,
    ]);
  const environments = {} as OldOrganization['environments'];
  for (const kind of ['sandbox', 'production'] as const) {
    const environmentId = randomUUID();
    await db.query(`INSERT INTO environments (id, organization_id, kind) VALUES ($1, $2, $3)`, [
      environmentId,
      id,
      kind,
    ]);
    const [method] = (
      await db.query(
        `INSERT INTO payment_methods (environment_id, type, name, requires_pass_code, code)
         VALUES ($1, 'masrivi', 'Masrivi', false, 'masrivi') RETURNING id`,
        [environmentId],
      )
    ).rows;
    environments[kind] = { environmentId, methodId: method.id as string };
  }
  return { id, environments };
}

let oldRequests = 0;

/**
 * A payment request of `amount` and one payment of it with `status` in an environment of an older
 * schema; a completed one completed `completedAgo` (a PostgreSQL interval) ago. The payment's id.
 */
export async function oldPayment(
  db: Client,
  environment: OldEnvironment,
  payment: { amount: number; status: string; completedAgo?: string },
): Promise<string> {
  const request = randomUUID();
  await db.query(
    `INSERT INTO payment_requests (id, environment_id, transaction_id, amount) VALUES ($1, $2, $3, $4)`,
    [request, environment.environmentId, `old-${++oldRequests}`, payment.amount],
  );
  const id = randomUUID();
  await db.query(
    `INSERT INTO payments (id, environment_id, payment_request_id, payment_method_id, amount, phone_number,
                           status, completed_at, next_check_at)
     VALUES ($1, $2, $3, $4, $5, '22123456', $6,
             CASE WHEN $6 = 'completed' THEN now() - $7::interval END, now())`,
    [
      id,
      environment.environmentId,
      request,
      environment.methodId,
      payment.amount,
      payment.status,
      payment.completedAgo ?? '0',
    ],
  );
  return id;
}
