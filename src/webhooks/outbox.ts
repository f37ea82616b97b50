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

/** An event's columns as SQL on the rows of a statement (see `insertEventPerRow`). */
export interface EventPerRow {
  organizationId: Sql;
  environmentId: Sql;
  kind: EventKind;
  /** jsonb: the object concerned, as the webhook body's `data` will carry it. */
  data: Sql;
  createdAt: Date | Sql;
}

/**
 * One event per row of `from` (SQL after FROM: a CTE of the changed rows with its alias, a join, a
 * WHERE), each with a new id, as a data-modifying CTE body: a statement that changes many rows
 * records their events in the same round trip.
 */
export function insertEventPerRow(from: Sql, event: EventPerRow): Sql {
  return sql`INSERT INTO events (id, organization_id, environment_id, kind, data, created_at)
    SELECT gen_random_uuid(), ${event.organizationId}, ${event.environmentId}, ${event.kind}, ${event.data}, ${event.createdAt}
      FROM ${from}`;
}

/** An event addressed to one endpoint only (a test delivery): the fan-out trigger skips the others. */
export function insertEventFor(endpointId: string, event: NewEvent & { id: string }): Sql {
  return sql`INSERT INTO events (id, organization_id, environment_id, kind, data, created_at, endpoint_id)
    VALUES (${event.id}, ${event.organizationId}, ${event.environmentId}, ${event.kind}, ${JSON.stringify(event.data)},
            ${event.createdAt ?? new Date()}, ${endpointId})`;
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
