import { Injectable } from '@nestjs/common';
import type { Page } from '../common/pagination';
import { Db } from '../database/db';
import { cursorColumn, KeysetPage, keysetClauses, keysetPage, KeysetQuery } from '../database/keyset';
import { pageRows } from '../database/paging';
import { and, empty, join, raw, sql } from '../database/sql';
import { environmentKindOf } from '../organizations/organizations.fragments';
import type { EnvironmentKind } from '../organizations/tenant';
import type { EventKind } from './event-kinds';
import { insertEventFor } from './outbox';
import type { DeliveryStatus, WebhookAttempt, WebhookDelivery, WebhookEndpoint } from './webhook';

/** First key of the advisory lock that serialises endpoint creation in an environment. */
const ENDPOINTS_LOCK_SPACE = 73720402;

/** First key of the advisory lock a claim holds on each organization it claims for. */
const CLAIM_LOCK_SPACE = 73720403;

/** NOTIFY channel the fan-out trigger uses; the workers LISTEN on it. */
export const DELIVERIES_CHANNEL = 'khoums_webhook_deliveries';

const ENDPOINT_COLUMNS =
  raw(`id, organization_id AS "organizationId", environment_id AS "environmentId", url, events,
  enabled, connected, disabled_reason AS "disabledReason", created_at AS "createdAt", updated_at AS "updatedAt"`);

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
  organization_id: string;
  retry_index: number;
  event_id: string;
  kind: EventKind;
  data: unknown;
  created_at: Date;
  url: string;
  secret: string;
  previous_secret: string | null;
  environment: EnvironmentKind;
  /** The connected account whose event a platform's endpoint receives; null for the endpoint's own. */
  account: string | null;
}

/** How many deliveries an endpoint, and an organization, may have leased at once, over all workers (see `claim`). */
export interface EndpointCaps {
  small: number;
  large: number;
  fast: string[];
  slowMs: number;
  /** An organization's leases on its endpoints held to `small`, together. */
  organization: number;
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

  /**
   * Inserts the endpoint unless its environment already has `max`; false then. Creates in one
   * environment are serialised by an advisory lock (two-key form, its own key space), so that
   * concurrent ones cannot both see room for one more; the count runs after the lock is held.
   */
  insertEndpoint(e: WebhookEndpoint, secret: string, max: number): Promise<boolean> {
    return this.db.transaction(async () => {
      await this.db.exec(
        sql`SELECT pg_advisory_xact_lock(${ENDPOINTS_LOCK_SPACE}::int, hashtext(${e.environmentId}::text))`,
      );
      const inserted = await this.db.exec(sql`
        INSERT INTO webhook_endpoints (id, organization_id, environment_id, url, events, enabled, connected, secret, created_at, updated_at)
        SELECT ${e.id}, ${e.organizationId}, ${e.environmentId}, ${e.url}, ${e.events}, ${e.enabled}, ${e.connected}, ${secret},
               ${e.createdAt}, ${e.updatedAt}
         WHERE (SELECT count(*) FROM webhook_endpoints WHERE environment_id = ${e.environmentId}) < ${max}`);
      return inserted === 1;
    });
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

  /**
   * Replay: due now, with the whole retry schedule again; nothing when the delivery is unknown or
   * its event is older than `retentionDays` (about to be pruned). The event is locked (KEY SHARE)
   * so that pruning, which locks events FOR UPDATE SKIP LOCKED, skips it while the replay commits,
   * and a replay that comes after a prune claimed the event waits and finds it gone.
   */
  replay(environmentId: string, id: string, retentionDays: number): Promise<WebhookDelivery | undefined> {
    return this.db.one<WebhookDelivery>(sql`
      WITH kept AS (
        SELECT ev.id FROM webhook_deliveries d JOIN events ev ON ev.id = d.event_id
         WHERE d.id = ${id} AND d.environment_id = ${environmentId}
           AND ev.created_at >= now() - ${retentionDays} * interval '1 day'
           FOR KEY SHARE OF ev
      )
      UPDATE webhook_deliveries
         SET status = 'pending', next_attempt_at = now(), retry_index = 0, updated_at = now()
       WHERE id = ${id} AND environment_id = ${environmentId} AND event_id IN (SELECT id FROM kept)
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

  /**
   * Claims up to `limit` due deliveries of enabled endpoints and leases them to `worker`, fairly:
   * no endpoint gets more than `caps.small` deliveries leased at once, counted over every
   * worker's leases, so a silent endpoint holds at most that many slots of all instances; and the
   * batch takes each organization's first due delivery before any one's second (then each
   * endpoint's in turn), so one organization's backlog never queues another's events behind it.
   * The endpoints in `caps.fast` (this worker saw them answer fast, and none of its calls to them
   * is in flight for longer than `caps.slowMs`) may have `caps.large` leased instead, unless one
   * of their leases of another worker's is older than `caps.slowMs`: a call that hangs holds the
   * endpoint to the small cap again. This worker's own leases are not judged by their age: one
   * whose call was answered may wait for its outcome to be written, and that is not a hang. The leases of an organization's endpoints
   * held to the small cap are capped together at `caps.organization`, so that one organization's
   * many silent endpoints hold that many slots, not the small cap of each; its fast endpoints are
   * not counted.
   *
   * The endpoints with pending deliveries are found by a loose index scan (one probe per
   * endpoint, not per delivery); those with a claimable one are locked while claiming (SKIP
   * LOCKED, FOR NO KEY UPDATE so that new deliveries may still reference them), and so is their
   * organization (a transaction-level advisory lock, tried: an organization another claim holds
   * is skipped): two workers never count and fill the same endpoint's or organization's slots at
   * once. Only a claim whose snapshot was taken just before another's commit can count that one's
   * leases short, by at most one batch.
   *
   * An endpoint's leases are counted in lease order, up to the largest cap: the planner may then
   * take an index scan, which marks the index entries of finished leases dead
   * once no transaction can see them, so that a burst's thousands of them are not read again by
   * every claim (a bitmap scan reads them all).
   */
  claim(limit: number, leaseMs: number, worker: string, caps: EndpointCaps): Promise<ClaimedDelivery[]> {
    // No cap is above this: counting an endpoint's leases up to it is enough.
    const counted = Math.max(caps.small, caps.large, caps.organization);
    return this.db.many<ClaimedDelivery>(sql`
      WITH RECURSIVE with_work AS (
        (SELECT endpoint_id FROM webhook_deliveries WHERE status = 'pending' ORDER BY endpoint_id LIMIT 1)
        UNION ALL
        SELECT (SELECT d.endpoint_id FROM webhook_deliveries d
                 WHERE d.status = 'pending' AND d.endpoint_id > w.endpoint_id ORDER BY d.endpoint_id LIMIT 1)
          FROM with_work w WHERE w.endpoint_id IS NOT NULL
      ), open AS (
        SELECT e.id, e.organization_id
          FROM webhook_endpoints e JOIN with_work w ON w.endpoint_id = e.id
         WHERE e.enabled
           AND EXISTS (SELECT 1 FROM webhook_deliveries d
                        WHERE d.endpoint_id = e.id AND d.status = 'pending' AND d.next_attempt_at <= now()
                          AND (d.locked_until IS NULL OR d.locked_until < now()))
           AND pg_try_advisory_xact_lock(${CLAIM_LOCK_SPACE}::int, hashtext(e.organization_id::text))
           FOR NO KEY UPDATE OF e SKIP LOCKED
      ), leases AS (
        -- Every endpoint of those organizations, with its leases, and whether it is held to the small cap.
        SELECT e.id, e.organization_id, l.leased,
               NOT (e.id = ANY(${caps.fast}::uuid[]) AND l.hanging = 0) AS slow
          FROM webhook_endpoints e CROSS JOIN LATERAL (
            SELECT count(*)::int AS leased,
                   -- Another worker's, leased more than slowMs ago (the lease ends leaseMs after it was taken).
                   count(*) FILTER (WHERE l.locked_by <> ${worker}
                                      AND l.locked_until < now() + ${leaseMs - caps.slowMs}::int * interval '1 millisecond')::int AS hanging
              -- Oldest first, so that the hanging ones are among those counted.
              FROM (SELECT l.locked_by, l.locked_until FROM webhook_deliveries l
                     WHERE l.endpoint_id = e.id AND l.locked_until > now()
                     ORDER BY l.locked_until LIMIT ${counted}::int) l
          ) l
         WHERE e.organization_id IN (SELECT organization_id FROM open)
      ), organization_slots AS (
        SELECT organization_id, ${caps.organization}::int - COALESCE(sum(leased) FILTER (WHERE slow), 0)::int AS free
          FROM leases GROUP BY organization_id
      ), slots AS (
        SELECT o.id, o.organization_id, l.slow,
               CASE WHEN l.slow THEN ${caps.small}::int ELSE ${caps.large}::int END - l.leased AS free
          FROM open o JOIN leases l ON l.id = o.id
      ), candidates AS (
        SELECT c.id, s.organization_id, s.slow, c.next_attempt_at,
               row_number() OVER (PARTITION BY s.id ORDER BY c.next_attempt_at) AS endpoint_turn
          FROM slots s CROSS JOIN LATERAL (
            SELECT d.id, d.next_attempt_at FROM webhook_deliveries d
             WHERE d.endpoint_id = s.id AND d.status = 'pending' AND d.next_attempt_at <= now()
               AND (d.locked_until IS NULL OR d.locked_until < now())
             ORDER BY d.next_attempt_at
             LIMIT GREATEST(s.free, 0)
          ) c
      ), ranked AS (
        SELECT c.id, c.endpoint_turn, c.next_attempt_at,
               row_number() OVER (PARTITION BY c.organization_id ORDER BY c.endpoint_turn, c.next_attempt_at) AS organization_turn
          FROM (
            SELECT c.*, g.free AS organization_free,
                   row_number() OVER (PARTITION BY c.organization_id, c.slow ORDER BY c.endpoint_turn, c.next_attempt_at) AS slow_turn
              FROM candidates c JOIN organization_slots g ON g.organization_id = c.organization_id
          ) c
         -- An organization's endpoints held to the small cap share its free slots, each one's first in turn.
         WHERE NOT c.slow OR c.slow_turn <= c.organization_free
      ), due AS (
        SELECT d.id
          FROM webhook_deliveries d JOIN ranked r ON r.id = d.id
         -- Checked again on the row as locked: another worker may have claimed it since this statement began.
         WHERE d.status = 'pending' AND (d.locked_until IS NULL OR d.locked_until < now())
         ORDER BY r.organization_turn, r.endpoint_turn, r.next_attempt_at
         LIMIT ${limit}
         FOR UPDATE OF d SKIP LOCKED
      ), claimed AS (
        UPDATE webhook_deliveries d
           SET locked_until = now() + ${leaseMs} * interval '1 millisecond', locked_by = ${worker}
          FROM due WHERE d.id = due.id
        RETURNING d.id, d.event_id, d.endpoint_id, d.retry_index
      )
      SELECT c.id, c.endpoint_id, e.organization_id, c.retry_index, ev.id AS event_id, ev.kind, ev.data, ev.created_at,
             e.url, e.secret,
             CASE WHEN e.previous_secret_expires_at > now() THEN e.previous_secret END AS previous_secret,
             -- A connected account's event delivered to its platform's endpoint names the account.
             CASE WHEN ev.organization_id <> e.organization_id THEN ev.organization_id END AS account,
             ${environmentKindOf(raw('e.environment_id'))} AS environment
        FROM claimed c
        JOIN events ev ON ev.id = c.event_id
        JOIN webhook_endpoints e ON e.id = c.endpoint_id`);
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

  /**
   * Locks (FOR UPDATE SKIP LOCKED) up to `limit` events older than `retentionDays`, oldest first,
   * in one environment or all, that have no delivery pending: their ids.
   */
  claimExpiredEvents(retentionDays: number, limit: number, environmentId?: string): Promise<string[]> {
    const inEnvironment = environmentId === undefined ? empty : sql`AND e.environment_id = ${environmentId}`;
    return this.db
      .many<{ id: string }>(
        sql`
      SELECT e.id FROM events e
       WHERE e.created_at < now() - ${retentionDays} * interval '1 day' ${inEnvironment}
         AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = e.id AND d.status = 'pending')
       ORDER BY e.created_at
       LIMIT ${limit}
         FOR UPDATE OF e SKIP LOCKED`,
      )
      .then((rows) => rows.map((r) => r.id));
  }

  /**
   * Deletes claimed events with their deliveries and attempts, in one statement (set-based rather
   * than row by row through the foreign keys' cascades). The claim's snapshot is rechecked: a
   * delivery replayed just before the claim locked its event is pending now, and its event stays.
   */
  async deleteEvents(ids: string[]): Promise<number> {
    const row = await this.db.one<{ deleted: number }>(sql`
      WITH doomed AS (
        SELECT e.id FROM events e
         WHERE e.id = ANY(${ids}::uuid[])
           AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = e.id AND d.status = 'pending')
      ), deliveries AS (
        SELECT d.id FROM webhook_deliveries d WHERE d.event_id IN (SELECT id FROM doomed)
      ), attempts_deleted AS (
        DELETE FROM webhook_attempts WHERE delivery_id IN (SELECT id FROM deliveries)
      ), deliveries_deleted AS (
        DELETE FROM webhook_deliveries WHERE id IN (SELECT id FROM deliveries)
      ), events_deleted AS (
        DELETE FROM events WHERE id IN (SELECT id FROM doomed) RETURNING id
      )
      SELECT count(*)::int AS deleted FROM events_deleted`);
    return row!.deleted;
  }
}
