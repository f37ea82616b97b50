import { Sql, sql, SqlValue } from '../database/sql';

/**
 * Whose objects a time-driven run (billing, reminders, dunning, transfer claim expiry) touches: the
 * real clock's (`null`: the objects on no test clock, as of now) or one test clock's (only its
 * objects, as of its times). The real clock never touches an object on a test clock, and a clock
 * never touches another's.
 */
export type ClockScope = string | null;

/** SQL: the condition that the row's `column` (its test_clock_id) is in `clock`'s scope. */
export function onClock(column: Sql, clock: ClockScope): Sql {
  return clock === null ? sql`${column} IS NULL` : sql`${column} = ${clock}::uuid`;
}

/**
 * SQL: the time now of the test clock `clockId` (SQL naming its id): how far its advance has got,
 * its `frozen_time` once ready; null when there is no such clock. What a transfer claim on a clock
 * is measured against (docs/transfers.md "Claims on a test clock").
 */
export function clockTimeOf(clockId: Sql): SqlValue<Date | null> {
  return sql`(SELECT tc.position FROM test_clocks tc WHERE tc.id = ${clockId})`;
}
