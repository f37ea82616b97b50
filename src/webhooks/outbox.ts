import { randomUUID } from 'node:crypto';
import { raw, Sql, sql } from '../database/sql';
import type { EventKind } from './event-kinds';

export interface NewEvent {
  /** Given by the caller that needs to know it; a new UUID otherwise. */
  id?: string;
  organizationId: string;
  environmentId: string;
  kind: EventKind;
  /** The object concerned, exactly as the webhook body's `data` will carry it. */
  data: object;
  createdAt?: Date;
}

/**
 * The outbox: a webhook event is a row of `events`, written by the statement (or in the
 * transaction) of the change it describes, so the two are committed or lost together. A trigger
 * fans each event out to the endpoints that receive it (docs/architecture.md).
 */

/** The statement recording one event; run it in the transaction of the change. */
export function insertEvent(event: NewEvent): Sql {
  return sql`INSERT INTO events (id, organization_id, environment_id, kind, data, created_at)
    VALUES (${event.id ?? randomUUID()}, ${event.organizationId}, ${event.environmentId}, ${event.kind}, ${JSON.stringify(event.data)}, ${event.createdAt ?? new Date()})`;
}

/**
 * The same insert as a data-modifying CTE body, for a statement that makes a change and records
 * its event at once (one round trip): the event is written only when the CTE named `source`
 * produced a row.
 */
export function insertEventWhen(source: string, event: NewEvent): Sql {
  return sql`INSERT INTO events (id, organization_id, environment_id, kind, data, created_at)
    SELECT ${event.id ?? randomUUID()}, ${event.organizationId}, ${event.environmentId}, ${event.kind}, ${JSON.stringify(event.data)}, ${event.createdAt ?? new Date()}
      FROM ${raw(source)}`;
}

/**
 * Many events at once, as a statement or data-modifying CTE body: one per row of `source` (SQL
 * after FROM, e.g. a recordset with a WHERE), whose columns are id, organization_id,
 * environment_id, kind, data (jsonb) and created_at. For set-based work such as a billing batch.
 */
export function insertEventsFrom(source: Sql): Sql {
  return sql`INSERT INTO events (id, organization_id, environment_id, kind, data, created_at)
    SELECT id, organization_id, environment_id, kind, data, created_at FROM ${source}`;
}
