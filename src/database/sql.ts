import { Injectable } from '@nestjs/common';
import type { Pool, QueryResultRow } from 'pg';
import { DataSource } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';

/**
 * Plain parameterised SQL on the pool TypeORM already holds, for the hot paths (key look-up,
 * create, pay, checkout) where TypeORM's per-query runner and entity mapping cost more than the
 * query itself. Transactions and everything else still go through TypeORM.
 */
@Injectable()
export class Sql {
  private readonly pool: Pool;

  constructor(ds: DataSource) {
    this.pool = (ds.driver as PostgresDriver).master as Pool;
  }

  async rows<T extends QueryResultRow>(text: string, values: unknown[] = []): Promise<T[]> {
    return (await this.pool.query<T>(text, values)).rows;
  }
}
