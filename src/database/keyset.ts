import { CommonError, commonError } from '../common/errors/common-errors';
import type { QueryResultRow } from 'pg';
import type { Db } from './db';
import { and, raw, Sql, sql } from './sql';

/**
 * Keyset pagination over `(created_at DESC, id DESC)`, the order of every dashboard list: a page
 * starts after (or ends before) the row a cursor names, found by walking an index from there, so
 * page 10,000 costs what page 1 costs (OFFSET would read and drop every row before it).
 *
 * A cursor is opaque to the browser: base64url of the row's created_at, to the microsecond, and id.
 */
export interface KeysetQuery {
  /** The page after this cursor (older rows). */
  after?: string;
  /** The page before this cursor (newer rows). */
  before?: string;
  limit: number;
}

export interface KeysetPage<T> {
  items: T[];
  /** Cursor of the next (older) page, when there is one. */
  next?: string;
  /** Cursor of the previous (newer) page, when there is one. */
  previous?: string;
}

interface Position {
  at: string;
  id: string;
}

const ISO_MICROS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function encodeCursor(position: string): string {
  return Buffer.from(position).toString('base64url');
}

/**
 * The position a cursor names, or null when it is not one of ours: also a well-formed one naming
 * a time no row can have (February 30th, hour 24, year 0), which PostgreSQL would refuse.
 */
export function decodeCursor(cursor: unknown): Position | null {
  if (typeof cursor !== 'string' || cursor.length > 200) return null;
  const [at, id, ...rest] = Buffer.from(cursor, 'base64url').toString().split(',');
  if (rest.length > 0 || !at || !id || !ISO_MICROS.test(at) || !UUID.test(id)) return null;
  const time = new Date(at);
  if (Number.isNaN(time.getTime()) || time.getUTCFullYear() < 1) return null;
  // Date reads "2025-02-30" as March 2nd: the time must print back as it was written.
  if (time.toISOString().slice(0, 23) !== at.slice(0, 23)) return null;
  return { at, id };
}

/** The position of a cursor the request gave; none given (or empty): null; one not ours: 400 `Invalid cursor`. */
function positionOf(cursor: string | undefined): Position | null {
  if (cursor === undefined || cursor === '') return null;
  const position = decodeCursor(cursor);
  if (!position) throw commonError(CommonError.InvalidCursor);
  return position;
}

/** SQL: the cursor column of a row of `alias` (created_at in UTC to the microsecond, then the id). */
export function cursorColumn(alias: string): Sql {
  return raw(
    `to_char(${alias}.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') || ',' || ${alias}.id AS cursor`,
  );
}

/**
 * The condition, order and row count of a page of `alias`. A cursor that is not one of ours is
 * 400 `Invalid cursor` (a forged link, not a page to guess). One row more than the page is read,
 * to know whether another page follows.
 */
export function keysetClauses(alias: string, q: KeysetQuery): { where: Sql[]; orderBy: Sql; limit: number } {
  const before = positionOf(q.before);
  const after = before ? null : positionOf(q.after);
  const where: Sql[] = [];
  const row = raw(`(${alias}.created_at, ${alias}.id)`);
  if (after) where.push(sql`${row} < (${after.at}::timestamptz, ${after.id}::uuid)`);
  if (before) where.push(sql`${row} > (${before.at}::timestamptz, ${before.id}::uuid)`);
  const direction = before ? 'ASC' : 'DESC';
  return {
    where,
    orderBy: raw(`${alias}.created_at ${direction}, ${alias}.id ${direction}`),
    limit: q.limit + 1,
  };
}

/** The page of rows read with `keysetClauses`, newest first, with the cursors around it. */
export function keysetPage<T extends { cursor: string }>(rows: T[], q: KeysetQuery): KeysetPage<T> {
  const backwards = decodeCursor(q.before) !== null;
  const more = rows.length > q.limit;
  const items = rows.slice(0, q.limit);
  if (backwards) items.reverse();
  const first = items[0];
  const last = items[items.length - 1];
  const hasNewer = backwards ? more : decodeCursor(q.after) !== null;
  const hasOlder = backwards ? true : more;
  return {
    items,
    next: hasOlder && last ? encodeCursor(last.cursor) : undefined,
    previous: hasNewer && first ? encodeCursor(first.cursor) : undefined,
  };
}

/**
 * Every row a list's filters select, newest first, read `batchSize` rows at a time by keyset (each
 * batch starts after the last row of the one before, walking the list's index): what an export
 * streams in constant memory, with no connection held between batches (so behind a transaction
 * pooler too). `from` is the FROM clause whose rows are aliased `alias`; rows created while the
 * export runs are newer than its first batch, so none appears twice or half-way.
 */
export async function* keysetBatches<T extends QueryResultRow>(
  db: Db,
  q: { select: Sql; from: Sql; alias: string; where: Sql[] },
  batchSize = 1000,
): AsyncGenerator<T[]> {
  let after: Position | null = null;
  const row = raw(`(${q.alias}.created_at, ${q.alias}.id)`);
  for (;;) {
    const where = after ? [...q.where, sql`${row} < (${after.at}::timestamptz, ${after.id}::uuid)`] : q.where;
    const rows: (T & { cursor: string })[] = await db.many<T & { cursor: string }>(sql`
      SELECT ${q.select}, ${cursorColumn(q.alias)} ${q.from} WHERE ${and(where)}
       ORDER BY ${raw(`${q.alias}.created_at DESC, ${q.alias}.id DESC`)} LIMIT ${batchSize}`);
    if (rows.length === 0) return;
    const last: string[] = rows[rows.length - 1].cursor.split(',');
    after = { at: last[0], id: last[1] };
    yield rows;
    if (rows.length < batchSize) return;
  }
}
