import { DynamicModule, Global, Inject, Module, OnApplicationShutdown } from '@nestjs/common';
import { Pool } from 'pg';
import { Db } from './db';
import { ServerSecrets } from './server-secrets.repository';

export interface DatabaseOptions {
  url: string;
  poolSize: number;
}

/** The database URL, for the few that need a connection of their own (LISTEN). */
export const DATABASE_URL = Symbol('DATABASE_URL');

/** One `pg` pool per instance, behind `Db`. */
@Global()
@Module({})
export class DatabaseModule implements OnApplicationShutdown {
  constructor(@Inject(Db) private readonly db: Db) {}

  static forRoot(options: DatabaseOptions): DynamicModule {
    return {
      module: DatabaseModule,
      providers: [
        { provide: DATABASE_URL, useValue: options.url },
        {
          provide: Db,
          useFactory: () => new Db(createPool(options.url, options.poolSize)),
        },
        ServerSecrets,
      ],
      exports: [Db, DATABASE_URL, ServerSecrets],
    };
  }

  async onApplicationShutdown(): Promise<void> {
    await this.db.pool.end();
  }
}

export function createPool(url: string, max: number): Pool {
  const pool = new Pool({ connectionString: url, max, connectionTimeoutMillis: 10_000 });
  // An idle connection that breaks (a restarted server) is dropped by the pool; without a
  // listener its 'error' event would end the process.
  pool.on('error', () => undefined);
  return pool;
}
