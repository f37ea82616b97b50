import { randomUUID } from 'node:crypto';
import type { EventKind } from './event-kinds';

/** Anything that runs a parameterised query on the caller's transaction (EntityManager, QueryRunner, DataSource). */
export interface Queryable {
  query(sql: string, parameters?: unknown[]): Promise<unknown>;
}

export interface NewEvent {
  organizationId: string;
  environmentId: string;
  kind: EventKind;
  /** The object concerned, exactly as the webhook body's `data` will carry it. */
  data: object;
  createdAt?: Date;
}

const COLUMNS = '(id, organization_id, environment_id, kind, data, created_at)';

/**
 * Records a webhook event in the outbox. Call it with the transaction of the change the event
 * describes, so that the change and its event are committed (or lost) together.
 */
export async function recordEvent(q: Queryable, event: NewEvent): Promise<string> {
  const id = randomUUID();
  await q.query(`INSERT INTO events ${COLUMNS} VALUES ($1, $2, $3, $4, $5, $6)`, eventParams(id, event));
  return id;
}

/**
 * The same insert as a data-modifying CTE for hot paths that make a change and record its event
 * in a single statement (one round trip, still one transaction): the event is written only when
 * the CTE named `source` produced a row. `at` is the number of the first parameter it uses.
 */
export function recordEventWhen(source: string, at: number, event: NewEvent): { sql: string; params: unknown[] } {
  const p = (i: number) => `$${at + i}`;
  return {
    sql: `INSERT INTO events ${COLUMNS} SELECT ${p(0)}, ${p(1)}, ${p(2)}, ${p(3)}, ${p(4)}, ${p(5)} FROM ${source}`,
    params: eventParams(randomUUID(), event),
  };
}

function eventParams(id: string, e: NewEvent): unknown[] {
  return [id, e.organizationId, e.environmentId, e.kind, JSON.stringify(e.data), e.createdAt ?? new Date()];
}
