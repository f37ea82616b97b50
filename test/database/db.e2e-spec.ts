import { randomUUID } from 'node:crypto';
import { isDatabaseUnavailable } from '../../src/common/errors/database-unavailable';
import { createPool } from '../../src/database/database.module';
import { Db } from '../../src/database/db';
import { prepared, sql } from '../../src/database/sql';
import { testDatabaseUrl } from '../helpers/app';
import { waitFor } from '../helpers/poll';

/** Db, the one way the service reaches PostgreSQL: statements, ambient transactions, rollbacks. */
let db: Db;
const table = `db_spec_${randomUUID().replace(/-/g, '')}`;
const t = (text: string) => sql([text.replaceAll('$T', table)] as unknown as TemplateStringsArray);

beforeAll(async () => {
  db = new Db(createPool(testDatabaseUrl(), 4));
  await db.exec(t('CREATE TABLE $T (id int PRIMARY KEY, note text)'));
});
afterAll(async () => {
  await db.exec(t('DROP TABLE $T'));
  await db.pool.end();
});

const ids = async () => (await db.many<{ id: number }>(t('SELECT id FROM $T ORDER BY id'))).map((r) => r.id);
const insert = (id: number) => db.exec(sql`INSERT INTO ${t('$T')} (id) VALUES (${id})`);

beforeEach(() => db.exec(t('DELETE FROM $T')));

it('returns rows, the first row, and the count of changed rows', async () => {
  expect(await insert(1)).toBe(1);
  await insert(2);
  expect(await db.many(t('SELECT id FROM $T ORDER BY id'))).toEqual([{ id: 1 }, { id: 2 }]);
  expect(await db.one(t('SELECT id FROM $T ORDER BY id DESC'))).toEqual({ id: 2 });
  expect(await db.one(t('SELECT id FROM $T WHERE false'))).toBeUndefined();
  expect(await db.exec(t(`UPDATE $T SET note = 'x'`))).toBe(2);
});

it('commits what a transaction did, and any repository call inside it joins it', async () => {
  const seen = await db.transaction(async () => {
    await insert(1);
    await insert(2);
    expect(db.inTransaction).toBe(true);
    // Same connection: the uncommitted rows are visible to the transaction's own statements.
    return ids();
  });
  expect(seen).toEqual([1, 2]);
  expect(await ids()).toEqual([1, 2]);
  expect(db.inTransaction).toBe(false);
});

it('rolls everything back when the transaction throws, and rethrows', async () => {
  await expect(
    db.transaction(async () => {
      await insert(1);
      throw new Error('a rule failed after the insert');
    }),
  ).rejects.toThrow('a rule failed after the insert');
  expect(await ids()).toEqual([]);
});

it('joins an outer transaction: the inner one commits nothing on its own', async () => {
  await expect(
    db.transaction(async () => {
      await db.transaction(() => insert(1));
      throw new Error('outer fails');
    }),
  ).rejects.toThrow('outer fails');
  expect(await ids()).toEqual([]);
});

it('keeps concurrent transactions apart', async () => {
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  const first = db.transaction(async () => {
    await insert(1);
    await held;
    throw new Error('first rolls back');
  });
  await db.transaction(() => insert(2));
  release();
  await expect(first).rejects.toThrow('first rolls back');
  expect(await ids()).toEqual([2]);
});

it('refuses a statement from work the transaction started but did not wait for', async () => {
  let late!: Promise<number>;
  let go!: () => void;
  const after = new Promise<void>((r) => (go = r));
  await db.transaction(async () => {
    // Started inside, continued after the commit: it must not reach a released connection.
    late = after.then(() => insert(9));
  });
  go();
  await expect(late).rejects.toThrow('a statement was run after its transaction ended');
  expect(await ids()).toEqual([]);
});

it('runs a prepared statement as a named one, parsed once per connection, and its results are the same', async () => {
  const label = `prepared-${Date.now()}`;
  const statement = (n: number) => prepared(sql`SELECT ${label}::text AS label, ${n}::int * 2 AS twice`);
  await db.transaction(async () => {
    expect(await db.one(statement(1))).toEqual({ label, twice: 2 });
    expect(await db.one(statement(21))).toEqual({ label, twice: 42 });
    const named = await db.many<{ name: string }>(
      sql`SELECT name FROM pg_prepared_statements WHERE statement LIKE ${'%AS twice%'}`,
    );
    expect(named).toHaveLength(1);
    expect(named[0].name).toMatch(/^khoums_/);
  });
});

it('survives a connection lost between two statements of a transaction: the COMMIT fails as an outage (503, logged once), the process runs on', async () => {
  expect(db.availability.available).toBe(true);
  const commit = db.transaction(async () => {
    await insert(1);
    const { pid } = (await db.one<{ pid: number }>(sql`SELECT pg_backend_pid() AS pid`))!;
    // From another connection, waiting until the transaction's own is gone: its COMMIT is the
    // first thing to meet the loss.
    await db.pool.query('SELECT pg_terminate_backend($1, 10000)', [pid]);
  });
  expect(
    isDatabaseUnavailable(
      await commit.then(
        () => 'committed',
        (e: unknown) => e,
      ),
    ),
  ).toBe(true);
  expect(db.availability.available).toBe(false);
  // The next statement that succeeds says it is back.
  expect(await ids()).toEqual([]);
  expect(db.availability.available).toBe(true);
});

it('counts a COMMIT cut off while it runs as an outage, as any statement that found PostgreSQL gone', async () => {
  // A deferred check runs inside COMMIT, and waits there for a lock this test holds until the
  // connection is ended: the COMMIT is running when the loss comes, however slow the machine. The
  // lock is held by an open transaction, not by a session: behind PgBouncer (transaction pooling) a
  // session's lock stays on a server connection handed to the next client, who may be the very
  // transaction meant to wait for it.
  const key = Math.floor(Math.random() * 2 ** 31);
  await db.exec(
    t(`CREATE FUNCTION $T_held() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN PERFORM pg_advisory_xact_lock(${key}); RETURN NULL; END $$`),
  );
  await db.exec(
    t(`CREATE CONSTRAINT TRIGGER $T_held AFTER INSERT ON $T DEFERRABLE INITIALLY DEFERRED
         FOR EACH ROW EXECUTE FUNCTION $T_held()`),
  );
  const holder = await db.pool.connect();
  try {
    await holder.query('BEGIN');
    await holder.query('SELECT pg_advisory_xact_lock($1)', [key]);
    let pid = 0;
    const outcome = db
      .transaction(async () => {
        await insert(1);
        pid = (await db.one<{ pid: number }>(sql`SELECT pg_backend_pid() AS pid`))!.pid;
      })
      .then(
        () => 'committed',
        (e: unknown) => e,
      );
    const committing = async () =>
      (
        await db.pool.query<{ waiting: boolean }>(
          `SELECT count(*) > 0 AS waiting FROM pg_stat_activity
            WHERE pid = $1 AND query = 'COMMIT' AND wait_event = 'advisory'`,
          [pid],
        )
      ).rows[0].waiting;
    await waitFor(committing, 'the COMMIT waiting in its deferred check', 10_000);
    await db.pool.query('SELECT pg_terminate_backend($1, 10000)', [pid]);
    expect(isDatabaseUnavailable(await outcome)).toBe(true);
    expect(db.availability.available).toBe(false);
    expect(await ids()).toEqual([]);
    expect(db.availability.available).toBe(true);
  } finally {
    await holder.query('ROLLBACK');
    holder.release();
    await db.exec(t('DROP TRIGGER $T_held ON $T'));
    await db.exec(t('DROP FUNCTION $T_held()'));
  }
});
