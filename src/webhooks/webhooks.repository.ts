import { Injectable } from '@nestjs/common';
import type { Page } from '../common/pagination';
import { Db } from '../database/db';
import { cursorColumn, KeysetPage, keysetClauses, keysetPage, KeysetQuery } from '../database/keyset';
import { pageRows } from '../database/paging';
import { and, join, raw, sql } from '../database/sql';
import type { EnvironmentKind } from '../organizations/tenant';
import type { EventKind } from './event-kinds';
import { insertEventFor } from './outbox';
import type { DeliveryStatus, WebhookAttempt, WebhookDelivery, WebhookEndpoint } from './webhook';

/** NOTIFY channel the fan-out trigger uses; the workers LISTEN on it. */
export const DELIVERIES_CHANNEL = 'khoums_webhook_deliveries';

const ENDPOINT_COLUMNS =
  raw(`id, organization_id AS "organizationId", environment_id AS "environmentId", url, events,
  enabled, disabled_reason AS "disabledReason", created_at AS "createdAt", updated_at AS "updatedAt"`);

const DELIVERY_COLUMNS =
  raw(`id, event_id AS "eventId", endpoint_id AS "endpointId", environment_id AS "environmentId",
  event, status, attempts, retry_index AS "retryIndex", next_attempt_at AS "nextAttemptAt",
  last_status_code AS "lastStatusCode", last_error AS "lastError", last_response_snippet AS "lastResponseSnippet",
  created_at AS "createdAt", updated_at AS "updatedAt"`);

/** A delivery as the dashboard's log shows it: with its endpoint's URL. */
export type DeliveryLogItem = WebhookDelivery & { endpointUrl: string };

/** The dashboard's filters of the delivery log; they combine. */
export interface DeliverySearch {
  endpointId?: string;
  event?: EventKind;
  status?: DeliveryStatus;
}

const LOG_COLUMNS =
  raw(`d.id, d.event_id AS "eventId", d.endpoint_id AS "endpointId", d.environment_id AS "environmentId",
  d.event, d.status, d.attempts, d.retry_index AS "retryIndex", d.next_attempt_at AS "nextAttemptAt",
  d.last_status_code AS "lastStatusCode", d.last_error AS "lastError", d.last_response_snippet AS "lastResponseSnippet",
  d.created_at AS "createdAt", d.updated_at AS "updatedAt", e.url AS "endpointUrl"`);

/** A delivery claimed by a worker, with its event and endpoint (secrets included). */
export interface ClaimedDelivery {
  id: string;
  endpoint_id: string;
  retry_index: number;
  event_id: string;
  kind: EventKind;
  data: unknown;
  created_at: Date;
  url: string;
  secret: string;
  previous_secret: string | null;
  environment: EnvironmentKind;
}

/** The outcomes of a batch of attempts, one array per column (written with one `unnest`). */
export interface OutcomeColumns {
  id: string[];
  status: DeliveryStatus[];
  retryIndex: number[];
  delay: (number | null)[];
  statusCode: (number | null)[];
  error: (string | null)[];
  snippet: (string | null)[];
  duration: number[];
  startedAt: Date[];
  gone: boolean[];
  endpointId: string[];
}

/** Endpoints, deliveries, attempts and the workers' claims. */
@Injectable()
export class WebhooksRepository {
  constructor(private readonly db: Db) {}

  async insertEndpoint(e: WebhookEndpoint, secret: string): Promise<void> {
    await this.db.exec(sql`
      INSERT INTO webhook_endpoints (id, organization_id, environment_id, url, events, enabled, secret, created_at, updated_at)
      VALUES (${e.id}, ${e.organizationId}, ${e.environmentId}, ${e.url}, ${e.events}, ${e.enabled}, ${secret},
              ${e.createdAt}, ${e.updatedAt})`);
  }

  /** Newest first. */
  async endpoints(environmentId: string, page: Page) {
    const { rows, total } = await pageRows<WebhookEndpoint>(
      this.db,
      {
        select: ENDPOINT_COLUMNS,
        from: sql`FROM webhook_endpoints WHERE environment_id = ${environmentId}`,
        orderBy: sql`created_at DESC, id DESC`,
      },
      page,
    );
    return { items: rows, total };
  }

  /** The environment's endpoints, newest first (the dashboard shows them all; an environment has a few). */
  allEndpoints(environmentId: string, limit = 500): Promise<WebhookEndpoint[]> {
    return this.db.many<WebhookEndpoint>(sql`
      SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE environment_id = ${environmentId}
       ORDER BY created_at DESC, id DESC LIMIT ${limit}`);
  }

  endpoint(environmentId: string, id: string): Promise<WebhookEndpoint | undefined> {
    return this.db.one<WebhookEndpoint>(
      sql`SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE id = ${id} AND environment_id = ${environmentId}`,
    );
  }

  updateEndpoint(
    environmentId: string,
    id: string,
    changes: { url?: string; events?: EventKind[]; enabled?: boolean; disabledReason?: string | null },
  ): Promise<WebhookEndpoint | undefined> {
    const set = [sql`updated_at = now()`];
    if (changes.url !== undefined) set.push(sql`url = ${changes.url}`);
    if (changes.events !== undefined) set.push(sql`events = ${changes.events}`);
    if (changes.enabled !== undefined) set.push(sql`enabled = ${changes.enabled}`);
    if (changes.disabledReason !== undefined) set.push(sql`disabled_reason = ${changes.disabledReason}`);
    return this.db.one<WebhookEndpoint>(sql`
      UPDATE webhook_endpoints SET ${join(set)} WHERE id = ${id} AND environment_id = ${environmentId}
      RETURNING ${ENDPOINT_COLUMNS}`);
  }

  deleteEndpoint(environmentId: string, id: string): Promise<WebhookEndpoint | undefined> {
    return this.db.one<WebhookEndpoint>(
      sql`DELETE FROM webhook_endpoints WHERE id = ${id} AND environment_id = ${environmentId} RETURNING ${ENDPOINT_COLUMNS}`,
    );
  }

  /** A new secret; the old one keeps signing until `overlapMs` from now. */
  rotateSecret(
    environmentId: string,
    id: string,
    secret: string,
    overlapMs: number,
  ): Promise<WebhookEndpoint | undefined> {
    return this.db.one<WebhookEndpoint>(sql`
      UPDATE webhook_endpoints
         SET previous_secret = secret, previous_secret_expires_at = now() + ${overlapMs} * interval '1 millisecond',
             secret = ${secret}, updated_at = now()
       WHERE id = ${id} AND environment_id = ${environmentId}
      RETURNING ${ENDPOINT_COLUMNS}`);
  }

  /** An event addressed to one endpoint only; the fan-out trigger creates its delivery, returned here. */
  async insertEventFor(
    endpointId: string,
    event: {
      id: string;
      organizationId: string;
      environmentId: string;
      kind: EventKind;
      data: object;
      createdAt: Date;
    },
  ): Promise<WebhookDelivery> {
    return this.db.transaction(async () => {
      await this.db.exec(insertEventFor(endpointId, event));
      return (await this.db.one<WebhookDelivery>(
        sql`SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries WHERE event_id = ${event.id} AND endpoint_id = ${endpointId}`,
      ))!;
    });
  }

  /** Newest first; filters combine. */
  async deliveries(
    environmentId: string,
    filter: { endpointId?: string; event?: EventKind; status?: DeliveryStatus },
    page: Page,
  ) {
    const where = [sql`environment_id = ${environmentId}`];
    if (filter.endpointId) where.push(sql`endpoint_id = ${filter.endpointId}`);
    if (filter.event) where.push(sql`event = ${filter.event}`);
    if (filter.status) where.push(sql`status = ${filter.status}`);
    const { rows, total } = await pageRows<WebhookDelivery>(
      this.db,
      {
        select: DELIVERY_COLUMNS,
        from: sql`FROM webhook_deliveries WHERE ${and(where)}`,
        orderBy: sql`created_at DESC, id DESC`,
      },
      page,
    );
    return { items: rows, total };
  }

  delivery(environmentId: string, id: string): Promise<WebhookDelivery | undefined> {
    return this.db.one<WebhookDelivery>(
      sql`SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries WHERE id = ${id} AND environment_id = ${environmentId}`,
    );
  }

  /** Every attempt of a delivery, oldest first. */
  attempts(deliveryId: string): Promise<WebhookAttempt[]> {
    return this.db.many<WebhookAttempt>(sql`
      SELECT id, delivery_id AS "deliveryId", status_code AS "statusCode", duration_ms AS "durationMs", error,
             response_snippet AS "responseSnippet", created_at AS "createdAt"
        FROM webhook_attempts WHERE delivery_id = ${deliveryId} ORDER BY created_at, id`);
  }

  /** A keyset page of the delivery log, newest first. */
  async searchDeliveries(
    environmentId: string,
    filter: DeliverySearch,
    page: KeysetQuery,
  ): Promise<KeysetPage<DeliveryLogItem>> {
    const where = [sql`d.environment_id = ${environmentId}`];
    if (filter.endpointId) where.push(sql`d.endpoint_id = ${filter.endpointId}`);
    if (filter.event) where.push(sql`d.event = ${filter.event}`);
    if (filter.status) where.push(sql`d.status = ${filter.status}`);
    const k = keysetClauses('d', page);
    const rows = await this.db.many<DeliveryLogItem & { cursor: string }>(sql`
      SELECT ${LOG_COLUMNS}, ${cursorColumn('d')}
        FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id
       WHERE ${and([...where, ...k.where])} ORDER BY ${k.orderBy} LIMIT ${k.limit}`);
    return keysetPage(rows, page);
  }

  /**
   * The deliveries of the events about one object (a payment request: its own events carry its id,
   * those of its payments, checkout sessions and invoice carry it as paymentRequestId), newest first.
   */
  deliveriesConcerning(environmentId: string, subjectId: string, limit = 100): Promise<DeliveryLogItem[]> {
    return this.db.many<DeliveryLogItem>(sql`
      SELECT ${LOG_COLUMNS}
        FROM events ev
        JOIN webhook_deliveries d ON d.event_id = ev.id
        JOIN webhook_endpoints e ON e.id = d.endpoint_id
       WHERE ev.environment_id = ${environmentId}
         AND COALESCE(ev.data->>'paymentRequestId', ev.data->>'id') = ${subjectId}
       ORDER BY d.created_at DESC, d.id DESC
       LIMIT ${limit}`);
  }

  /** A delivery of the environment with its endpoint's URL and the event's body. */
  deliveryWithEvent(
    environmentId: string,
    id: string,
  ): Promise<(DeliveryLogItem & { eventData: unknown; eventCreatedAt: Date }) | undefined> {
    return this.db.one(sql`
      SELECT ${LOG_COLUMNS}, ev.data AS "eventData", ev.created_at AS "eventCreatedAt"
        FROM webhook_deliveries d
        JOIN webhook_endpoints e ON e.id = d.endpoint_id
        JOIN events ev ON ev.id = d.event_id
       WHERE d.id = ${id} AND d.environment_id = ${environmentId}`);
  }

  /** Replay: due now, with the whole retry schedule again. */
  replay(environmentId: string, id: string): Promise<WebhookDelivery | undefined> {
    return this.db.one<WebhookDelivery>(sql`
      UPDATE webhook_deliveries
         SET status = 'pending', next_attempt_at = now(), retry_index = 0, updated_at = now()
       WHERE id = ${id} AND environment_id = ${environmentId}
      RETURNING ${DELIVERY_COLUMNS}`);
  }

  /** Deliveries still to make (the outbox's backlog, for the metrics). */
  async countPendingDeliveries(): Promise<number> {
    const row = await this.db.one<{ count: number }>(
      sql`SELECT count(*)::int AS count FROM webhook_deliveries WHERE status = 'pending'`,
    );
    return row!.count;
  }

  /** Wakes the delivery workers (a replay, a re-enabled endpoint). */
  async notifyWorkers(): Promise<void> {
    await this.db.exec(sql`SELECT pg_notify(${DELIVERIES_CHANNEL}, '')`);
  }

  /** Claims up to `limit` due deliveries of enabled endpoints (SKIP LOCKED) and leases them to `worker`. */
  claim(limit: number, leaseMs: number, worker: string): Promise<ClaimedDelivery[]> {
    return this.db.many<ClaimedDelivery>(sql`
      WITH due AS (
        SELECT d.id
          FROM webhook_deliveries d
          JOIN webhook_endpoints e ON e.id = d.endpoint_id
         WHERE d.status = 'pending' AND d.next_attempt_at <= now()
           AND (d.locked_until IS NULL OR d.locked_until < now())
           AND e.enabled
         ORDER BY d.next_attempt_at
         LIMIT ${limit}
         FOR UPDATE OF d SKIP LOCKED
      ), claimed AS (
        UPDATE webhook_deliveries d
           SET locked_until = now() + ${leaseMs} * interval '1 millisecond', locked_by = ${worker}
          FROM due WHERE d.id = due.id
        RETURNING d.id, d.event_id, d.endpoint_id, d.retry_index
      )
      SELECT c.id, c.endpoint_id, c.retry_index, ev.id AS event_id, ev.kind, ev.data, ev.created_at,
             e.url, e.secret,
             CASE WHEN e.previous_secret_expires_at > now() THEN e.previous_secret END AS previous_secret,
             env.kind AS environment
        FROM claimed c
        JOIN events ev ON ev.id = c.event_id
        JOIN webhook_endpoints e ON e.id = c.endpoint_id
        JOIN environments env ON env.id = e.environment_id`);
  }

  /**
   * Records a batch of attempts in one statement: each delivery still leased to `worker` gets its
   * new state and an attempt row; an endpoint that answered 410 is disabled. Returns the ids written.
   */
  async writeOutcomes(c: OutcomeColumns, worker: string): Promise<Set<string>> {
    const rows = await this.db.many<{ id: string }>(sql`
      WITH input AS (
        SELECT * FROM unnest(${c.id}::uuid[], ${c.status}::text[], ${c.retryIndex}::int[], ${c.delay}::bigint[],
                             ${c.statusCode}::int[], ${c.error}::text[], ${c.snippet}::text[], ${c.duration}::int[],
                             ${c.startedAt}::timestamptz[], ${c.gone}::bool[], ${c.endpointId}::uuid[])
          AS t(id, status, retry_index, delay, status_code, error, snippet, duration_ms, started_at, gone, endpoint_id)
      ), d AS (
        UPDATE webhook_deliveries w
           SET status = i.status, attempts = w.attempts + 1, retry_index = i.retry_index,
               next_attempt_at = now() + i.delay * interval '1 millisecond',
               last_status_code = i.status_code, last_error = i.error, last_response_snippet = i.snippet,
               locked_until = NULL, locked_by = NULL, updated_at = now()
          FROM input i
         WHERE w.id = i.id AND w.locked_by = ${worker}
        RETURNING w.id
      ), logged AS (
        INSERT INTO webhook_attempts (delivery_id, status_code, duration_ms, error, response_snippet, created_at)
        SELECT i.id, i.status_code, i.duration_ms, i.error, i.snippet, i.started_at FROM input i JOIN d ON d.id = i.id
      ), disabled AS (
        UPDATE webhook_endpoints SET enabled = false, disabled_reason = 'The receiver answered 410 Gone', updated_at = now()
         WHERE id IN (SELECT i.endpoint_id FROM input i JOIN d ON d.id = i.id WHERE i.gone)
      )
      SELECT id FROM d`);
    return new Set(rows.map((r) => r.id));
  }
}
