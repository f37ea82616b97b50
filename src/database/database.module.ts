import { DynamicModule, Global, Inject, Module, OnApplicationShutdown } from '@nestjs/common';
import { Pool } from 'pg';
import { DatabaseAvailability } from './availability';
import { Db } from './db';
import { ReadReplica } from './read-replica';
import { ServerSecrets } from './server-secrets.repository';

export interface DatabaseOptions {
  /** What the pool connects to: the server, or a pooler such as PgBouncer in transaction mode. */
  url: string;
  /** A read replica for the dashboard's reads (`DATABASE_READ_URL`); none by default. */
  readUrl?: string;
  /** Reads skip the replica while it is further behind than this (`DATABASE_READ_MAX_LAG_MS`). */
  readMaxLagMs?: number;
  /** The server itself, for what needs a session of its own (LISTEN). Default: `url`. */
  directUrl?: string;
  poolSize: number;
  /** See `PoolTimeouts.queryTimeoutMs`. */
  queryTimeoutMs: number;
  /** See `DbOptions`. */
  preparedStatements: boolean;
}

/**
 * The URL of the server itself, for the few that need a session of their own (LISTEN): behind a
 * pooler in transaction mode, `DATABASE_DIRECT_URL`; else `DATABASE_URL`.
 */
export const DATABASE_DIRECT_URL = Symbol('DATABASE_DIRECT_URL');

/** One `pg` pool per instance, behind `Db`; its `DatabaseAvailability` for the jobs. */
@Global()
@Module({})
export class DatabaseModule implements OnApplicationShutdown {
  constructor(@Inject(Db) private readonly db: Db) {}

  static forRoot(options: DatabaseOptions): DynamicModule {
    return {
      module: DatabaseModule,
      providers: [
        { provide: DATABASE_DIRECT_URL, useValue: options.directUrl ?? options.url },
        {
          provide: Db,
          useFactory: () =>
            new Db(
              createPool(options.url, options.poolSize, { queryTimeoutMs: options.queryTimeoutMs }),
              { preparedStatements: options.preparedStatements },
              options.readUrl
                ? new ReadReplica(
                    createPool(options.readUrl, options.poolSize, { queryTimeoutMs: options.queryTimeoutMs }),
                    options.readMaxLagMs ?? 10_000,
                  )
                : undefined,
            ),
        },
        { provide: DatabaseAvailability, useFactory: (db: Db) => db.availability, inject: [Db] },
        ServerSecrets,
      ],
      exports: [Db, DATABASE_DIRECT_URL, DatabaseAvailability, ServerSecrets],
    };
  }

  async onApplicationShutdown(): Promise<void> {
    await Promise.all([this.db.pool.end(), this.db.replica?.pool.end()]);
  }
}

/**
 * How long a statement waits for a connection (a new one, or a free one of the pool) before it
 * fails: while PostgreSQL is unreachable, requests answer 503 within this time rather than hang.
 */
export const CONNECTION_TIMEOUT_MS = 5_000;

/**
 * A connection unused for this long gets TCP keepalive probes, so a peer that vanished without
 * closing it (a frozen or powered-off leader) is found dead instead of waited on forever.
 */
export const KEEPALIVE_INITIAL_DELAY_MS = 10_000;

export interface PoolTimeouts {
  /**
   * How long a statement may go unanswered before it fails and its connection is dropped
   * (`DB_QUERY_TIMEOUT_MS`): a frozen server keeps its sockets open and silent, and neither the
   * connection time-out nor a server-side `statement_timeout` ends a statement it never answers.
   * 0: none (the server's own `statement_timeout` still applies).
   */
  queryTimeoutMs?: number;
}

export function createPool(url: string, max: number, { queryTimeoutMs = 0 }: PoolTimeouts = {}): Pool {
  const pool = new Pool({
    connectionString: url,
    max,
    connectionTimeoutMillis: CONNECTION_TIMEOUT_MS,
    keepAlive: true,
    keepAliveInitialDelayMillis: KEEPALIVE_INITIAL_DELAY_MS,
    ...(queryTimeoutMs > 0 ? { query_timeout: queryTimeoutMs } : {}),
  });
  // An idle connection that breaks (a restarted server) is dropped by the pool; without a
  // listener its 'error' event would end the process.
  pool.on('error', () => undefined);
  return pool;
}
