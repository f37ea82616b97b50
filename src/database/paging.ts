import type { QueryResultRow } from 'pg';
import type { Page } from '../common/pagination';
import type { Db } from './db';
import { Sql, sql } from './sql';

/**
 * One page of a list and the total it is a page of: two statements sent together (the page,
 * the count), whatever the page size. `from` is the FROM and WHERE clauses.
 */
export async function pageRows<T extends QueryResultRow>(
  db: Db,
  q: { select: Sql; from: Sql; orderBy: Sql },
  page: Page,
): Promise<{ rows: T[]; total: number }> {
  const [rows, count] = await Promise.all([
    db.many<T>(
      sql`SELECT ${q.select} ${q.from} ORDER BY ${q.orderBy} LIMIT ${page.limit} OFFSET ${page.offset}`,
    ),
    db.one<{ total: number }>(sql`SELECT count(*)::int AS total ${q.from}`),
  ]);
  return { rows, total: count!.total };
}
