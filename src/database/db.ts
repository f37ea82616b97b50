import { AsyncLocalStorage } from 'node:async_hooks';
import type { Pool, PoolClient, QueryResultRow } from 'pg';
import type { Sql } from './sql';

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

  constructor(readonly pool: Pool) {}

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
    const client = await this.pool.connect();
    const tx: Transaction = { client, open: true };
    let broken = false;
    try {
      await client.query('BEGIN');
      const result = await this.context.run(tx, fn);
      await client.query('COMMIT');
      return result;
    } catch (err) {
      await client.query('ROLLBACK').catch(() => {
        broken = true;
      });
      throw err;
    } finally {
      tx.open = false;
      client.release(broken);
    }
  }

  private run<T extends QueryResultRow>(statement: Sql) {
    const query = statement.query();
    const tx = this.context.getStore();
    if (!tx) return this.pool.query<T>(query);
    // A statement started from work that outlived its transaction would run on a released connection.
    if (!tx.open) throw new Error('a statement was run after its transaction ended');
    return tx.client.query<T>(query);
  }
}

interface Transaction {
  client: PoolClient;
  open: boolean;
}
