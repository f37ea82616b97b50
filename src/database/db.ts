import { AsyncLocalStorage } from 'node:async_hooks';
import type { Pool, PoolClient, QueryResultRow } from 'pg';
import { isDatabaseUnavailable } from '../common/errors/database-unavailable';
import { DatabaseAvailability } from './availability';
import type { ReadReplica } from './read-replica';
import type { Sql } from './sql';

export interface DbOptions {
  /**
   * Run the statements marked `prepared` as named prepared statements (parsed and planned once per
   * connection). Off behind a pooler in transaction mode, where a connection is not the client's
   * from one transaction to the next (docs/architecture.md, "Idempotent requests").
   */
  preparedStatements?: boolean;
}

/**
 * The one way the service talks to PostgreSQL (docs/architecture.md, "Data access"): plain
 * parameterised SQL, written with the `sql` tag in each domain's repository, run here on one
 * `pg` pool.
 *
 * Transactions are ambient: inside `db.transaction(fn)`, every statement run through this Db (by
 * any repository) goes to that transaction's connection, so repositories take no transaction
 * argument and a service composes them freely. A transaction opened inside another joins it.
 */
export class Db {
  private readonly context = new AsyncLocalStorage<Transaction>();
  /** Whether PostgreSQL answers, from the outcome of every statement run here. */
  readonly availability = new DatabaseAvailability();
  readonly preparedStatements: boolean;

  /** Set inside `readFromReplica`. */
  private readonly replicaReads = new AsyncLocalStorage<boolean>();

  constructor(
    readonly pool: Pool,
    options: DbOptions = {},
    /** `DATABASE_READ_URL`'s replica, when there is one. */
    readonly replica?: ReadReplica,
  ) {
    this.preparedStatements = options.preparedStatements ?? true;
  }

  /**
   * Runs `fn` with its statements on the read replica (docs/operations.md, "Read replica"): the
   * dashboard's lists, searches, reports and CSV exports, which may be a few seconds behind. A
   * transaction opened inside still runs on the leader, and so does every statement while the
   * replica is down, lagging more than `DATABASE_READ_MAX_LAG_MS`, or not configured.
   */
  readFromReplica<T>(fn: () => T): T {
    return this.replica ? this.replicaReads.run(true, fn) : fn();
  }

  /** True inside `readFromReplica` with a replica configured (whether or not it takes the reads now). */
  get readsFromReplica(): boolean {
    return this.replicaReads.getStore() === true;
  }

  /** The rows of a statement. */
  async many<T extends QueryResultRow>(statement: Sql): Promise<T[]> {
    return (await this.run<T>(statement)).rows;
  }

  /** The first row of a statement, or undefined. */
  async one<T extends QueryResultRow>(statement: Sql): Promise<T | undefined> {
    return (await this.run<T>(statement)).rows[0];
  }

  /** The number of rows a statement changed. */
  async exec(statement: Sql): Promise<number> {
    return (await this.run(statement)).rowCount ?? 0;
  }

  /** True inside `transaction()`. */
  get inTransaction(): boolean {
    return this.context.getStore() !== undefined;
  }

  /**
   * Runs `fn` in a transaction: committed when it resolves, rolled back when it throws. Joins the
   * surrounding transaction when there is one (no savepoint: the outer one decides).
   */
  async transaction<T>(fn: () => Promise<T>): Promise<T> {
    if (this.context.getStore()) return fn();
    const client = await this.reported(this.pool.connect());
    const tx: Transaction = { client, open: true };
    let broken = false;
    // A connection lost while the transaction is between statements (PostgreSQL stopped, a leader
    // demoted) is reported as an 'error' event of a client the pool no longer listens to: unheard,
    // it would end the process. Heard here, the loss fails the transaction's next statement or its
    // COMMIT, which answers 503 as any statement that found PostgreSQL gone.
    const lost = (err: Error) => {
      broken = true;
      this.availability.failed(err);
    };
    client.on('error', lost);
    try {
      await this.reported(client.query('BEGIN'));
      const result = await this.context.run(tx, fn);
      await this.reported(client.query('COMMIT'));
      return result;
    } catch (err) {
      // A connection that broke or went silent is dropped rather than asked to roll back (on a
      // frozen server, that would wait the whole query time-out again): the server rolls back
      // what a closed connection left open.
      if (isDatabaseUnavailable(err)) broken = true;
      else
        await client.query('ROLLBACK').catch(() => {
          broken = true;
        });
      throw err;
    } finally {
      client.off('error', lost);
      tx.open = false;
      client.release(broken);
    }
  }

  /**
   * `work` (a statement, BEGIN, COMMIT, a connection from the pool), whose failure tells
   * `DatabaseAvailability` whether PostgreSQL is reachable.
   */
  private async reported<T>(work: Promise<T>): Promise<T> {
    try {
      return await work;
    } catch (err) {
      this.availability.failed(err);
      throw err;
    }
  }

  private async run<T extends QueryResultRow>(statement: Sql) {
    const query = this.preparedStatements ? statement.query() : statement.compile();
    const tx = this.context.getStore();
    // A statement started from work that outlived its transaction would run on a released connection.
    if (tx && !tx.open) throw new Error('a statement was run after its transaction ended');
    if (!tx && this.replica && this.replicaReads.getStore() && this.replica.usable) {
      try {
        return await this.replica.pool.query<T>(query);
      } catch (err) {
        if (!isDatabaseUnavailable(err)) throw err;
        // A standby refuses a write (25006) without being down: that statement goes to the leader.
        if ((err as { code?: unknown }).code !== '25006') this.replica.failed(err);
      }
    }
    const result = await this.reported(tx ? tx.client.query<T>(query) : this.pool.query<T>(query));
    if (!this.availability.available) this.availability.succeeded();
    return result;
  }
}

interface Transaction {
  client: PoolClient;
  open: boolean;
}
