import { Sql, sql } from '../database/sql';

/**
 * Whose objects a time-driven run (billing, reminders, dunning) touches: the real clock's (`null`:
 * the objects on no test clock, as of now) or one test clock's (only its objects, as of its times).
 * The real clock never touches an object on a test clock, and a clock never touches another's.
 */
export type ClockScope = string | null;

/** SQL: the condition that the row's `column` (its test_clock_id) is in `clock`'s scope. */
export function onClock(column: Sql, clock: ClockScope): Sql {
  return clock === null ? sql`${column} IS NULL` : sql`${column} = ${clock}::uuid`;
}
