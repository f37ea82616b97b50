import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { AppConfig } from '../config/config';
import { Sql } from '../database/sql';
import type { EnvironmentKind } from '../organizations/entities';
import { EventKind } from './event-kinds';
import { AttemptResult, postWebhook } from './http-delivery';
import { nextRetryDelay, parseSchedule } from './retry-schedule';
import { webhookBody, webhookHeaders } from './signing';
import { DELIVERIES_CHANNEL } from './webhooks.service';

interface Outcome {
  c: Claimed;
  startedAt: Date;
  r: AttemptResult;
  resolve: () => void;
  reject: (err: unknown) => void;
}

interface Claimed {
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

/**
 * Delivers webhooks. Runs in every instance: due deliveries are claimed with
 * `FOR UPDATE SKIP LOCKED` and leased to this worker (`locked_by`, `locked_until`), so each due
 * attempt is made by one instance, and a delivery claimed by an instance that died is retried
 * once its lease expires. Woken by the fan-out trigger's NOTIFY, with a short poll as fallback
 * (retries falling due, a lost LISTEN connection).
 */
@Injectable()
export class DeliveryWorker implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('WebhookDelivery');
  /** Identifies this worker's leases. */
  private readonly token = randomUUID();
  private readonly schedule: number[];
  private readonly inFlight = new Set<Promise<void>>();
  private running = false;
  private loop?: Promise<void>;
  private listener?: Client;
  private sleeper?: () => void;
  private wakePending = false;
  private backlog = false;
  private attemptsMade = 0;
  private readonly outcomes: Outcome[] = [];
  private flushing = false;

  constructor(
    private readonly ds: DataSource,
    private readonly sql: Sql,
    private readonly config: AppConfig,
  ) {
    this.schedule = parseSchedule(config.WEBHOOK_RETRY_SCHEDULE_MS);
  }

  onApplicationBootstrap(): void {
    if (this.config.WEBHOOK_WORKER) this.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.stop();
  }

  /** Attempts this worker has made since it started (for the benchmark and tests). */
  get attemptCount(): number {
    return this.attemptsMade;
  }

  get isRunning(): boolean {
    return this.running;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    void this.listen();
    this.loop = this.run();
  }

  /** Stops claiming, lets the attempts in flight finish (each bounded by the time-out) and closes LISTEN. */
  async stop(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    this.wake();
    await this.loop;
    await Promise.allSettled([...this.inFlight]);
    const listener = this.listener;
    this.listener = undefined;
    await listener?.end().catch(() => undefined);
  }

  private wake(): void {
    const s = this.sleeper;
    if (s) {
      this.sleeper = undefined;
      s();
    } else {
      this.wakePending = true;
    }
  }

  private sleep(ms: number): Promise<void> {
    if (this.wakePending) {
      this.wakePending = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.sleeper = undefined;
        resolve();
      }, ms);
      this.sleeper = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }

  private async run(): Promise<void> {
    const max = this.config.WEBHOOK_CONCURRENCY;
    while (this.running) {
      const capacity = max - this.inFlight.size;
      if (capacity > 0) {
        try {
          const batch = await this.claim(capacity);
          this.backlog = batch.length === capacity;
          for (const c of batch) this.track(this.attempt(c));
          if (this.backlog && this.inFlight.size < max) continue;
        } catch (err) {
          this.logger.warn(`Claiming webhook deliveries failed: ${(err as Error).message}`);
        }
      }
      if (!this.running) break;
      await this.sleep(this.config.WEBHOOK_POLL_MS);
    }
  }

  private track(p: Promise<void>): void {
    this.inFlight.add(p);
    void p.finally(() => {
      this.inFlight.delete(p);
      // With work waiting, refill in batches (half the slots) rather than one claim per finished attempt.
      if (this.backlog ? this.inFlight.size <= this.config.WEBHOOK_CONCURRENCY / 2 : this.inFlight.size === 0) this.wake();
    });
  }

  private async claim(limit: number): Promise<Claimed[]> {
    return this.sql.rows<Claimed>(
      `WITH due AS (
         SELECT d.id
           FROM webhook_deliveries d
           JOIN webhook_endpoints e ON e.id = d.endpoint_id
          WHERE d.status = 'pending' AND d.next_attempt_at <= now()
            AND (d.locked_until IS NULL OR d.locked_until < now())
            AND e.enabled
          ORDER BY d.next_attempt_at
          LIMIT $1
          FOR UPDATE OF d SKIP LOCKED
       ), claimed AS (
         UPDATE webhook_deliveries d
            SET locked_until = now() + $2 * interval '1 millisecond', locked_by = $3
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
         JOIN environments env ON env.id = e.environment_id`,
      [limit, this.config.webhookLeaseMs, this.token],
    );
  }

  private async attempt(c: Claimed): Promise<void> {
    const startedAt = new Date();
    let result: AttemptResult;
    try {
      const body = webhookBody({ id: c.event_id, kind: c.kind, createdAt: new Date(c.created_at), data: c.data });
      const headers = webhookHeaders({
        id: c.event_id,
        kind: c.kind,
        body,
        timestamp: Math.floor(Date.now() / 1000),
        secret: c.secret,
        previousSecret: c.previous_secret,
      });
      result = await postWebhook({
        url: c.url,
        headers,
        body,
        timeoutMs: this.config.WEBHOOK_TIMEOUT_MS,
        publicOnly: c.environment === 'production' && !this.config.WEBHOOK_ALLOW_PRIVATE_URLS,
      });
    } catch (err) {
      result = { statusCode: null, durationMs: Date.now() - startedAt.getTime(), error: (err as Error).message, responseSnippet: null, retryAfterMs: null };
    }
    this.attemptsMade += 1;
    try {
      await this.record(c, startedAt, result);
    } catch (err) {
      // The lease expires and another attempt is made: at least once, never silently dropped.
      this.logger.error(`Recording webhook delivery ${c.id} failed: ${(err as Error).message}`);
    }
  }

  /**
   * Queues an attempt's outcome; outcomes are written in batches (one statement for all the
   * attempts that finished while the previous batch was being written), which keeps one database
   * round trip per delivery off the hot path. Resolves once this outcome is committed.
   */
  private record(c: Claimed, startedAt: Date, r: AttemptResult): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.outcomes.push({ c, startedAt, r, resolve, reject });
      if (!this.flushing) void this.flush();
    });
  }

  private async flush(): Promise<void> {
    this.flushing = true;
    while (this.outcomes.length > 0) {
      const batch = this.outcomes.splice(0, 500);
      try {
        const written = await this.writeOutcomes(batch);
        for (const o of batch) {
          if (!written.has(o.c.id)) {
            this.logger.warn(`Webhook delivery ${o.c.id}: lease lost before the attempt was recorded; it will be attempted again`);
          }
          o.resolve();
        }
      } catch (err) {
        for (const o of batch) o.reject(err);
      }
    }
    this.flushing = false;
  }

  private async writeOutcomes(batch: Outcome[]): Promise<Set<string>> {
    const cols = {
      id: [] as string[], status: [] as string[], retryIndex: [] as number[], delay: [] as (number | null)[],
      statusCode: [] as (number | null)[], error: [] as (string | null)[], snippet: [] as (string | null)[],
      duration: [] as number[], startedAt: [] as Date[], gone: [] as boolean[], endpointId: [] as string[],
    };
    for (const { c, startedAt, r } of batch) {
      const ok = r.statusCode !== null && r.statusCode >= 200 && r.statusCode < 300;
      const gone = r.statusCode === 410;
      const failures = c.retry_index + 1;
      const delay = ok || gone ? null : nextRetryDelay(this.schedule, failures, r.retryAfterMs);
      const status = ok ? 'succeeded' : delay === null ? 'failed' : 'pending';
      cols.id.push(c.id);
      cols.status.push(status);
      cols.retryIndex.push(ok ? c.retry_index : failures);
      cols.delay.push(delay);
      cols.statusCode.push(r.statusCode);
      cols.error.push(r.error);
      cols.snippet.push(r.responseSnippet);
      cols.duration.push(r.durationMs);
      cols.startedAt.push(startedAt);
      cols.gone.push(gone);
      cols.endpointId.push(c.endpoint_id);
      if (!ok) {
        this.logger.log(`Webhook delivery ${c.id} attempt failed (${r.error ?? `HTTP ${r.statusCode}`}); ${status === 'pending' ? `retry in ${delay} ms` : 'no retry left'}`);
      }
    }
    const rows = await this.sql.rows<{ id: string }>(
      `WITH input AS (
         SELECT * FROM unnest($1::uuid[], $2::text[], $3::int[], $4::bigint[], $5::int[], $6::text[], $7::text[],
                              $8::int[], $9::timestamptz[], $10::bool[], $11::uuid[])
           AS t(id, status, retry_index, delay, status_code, error, snippet, duration_ms, started_at, gone, endpoint_id)
       ), d AS (
         UPDATE webhook_deliveries w
            SET status = i.status, attempts = w.attempts + 1, retry_index = i.retry_index,
                next_attempt_at = now() + i.delay * interval '1 millisecond',
                last_status_code = i.status_code, last_error = i.error, last_response_snippet = i.snippet,
                locked_until = NULL, locked_by = NULL, updated_at = now()
           FROM input i
          WHERE w.id = i.id AND w.locked_by = $12
         RETURNING w.id
       ), logged AS (
         INSERT INTO webhook_attempts (delivery_id, status_code, duration_ms, error, response_snippet, created_at)
         SELECT i.id, i.status_code, i.duration_ms, i.error, i.snippet, i.started_at FROM input i JOIN d ON d.id = i.id
       ), disabled AS (
         UPDATE webhook_endpoints SET enabled = false, disabled_reason = 'The receiver answered 410 Gone', updated_at = now()
          WHERE id IN (SELECT i.endpoint_id FROM input i JOIN d ON d.id = i.id WHERE i.gone)
       )
       SELECT id FROM d`,
      [cols.id, cols.status, cols.retryIndex, cols.delay, cols.statusCode, cols.error, cols.snippet, cols.duration,
        cols.startedAt, cols.gone, cols.endpointId, this.token],
    );
    return new Set(rows.map((r) => r.id));
  }

  private async listen(): Promise<void> {
    if (!this.running) return;
    const url = (this.ds.options as { url?: string }).url;
    if (!url) return;
    const client = new Client({ connectionString: url });
    const retry = () => {
      if (this.listener === client) this.listener = undefined;
      client.removeAllListeners();
      client.on('error', () => undefined);
      void client.end().catch(() => undefined);
      if (this.running) setTimeout(() => void this.listen(), 1000).unref();
    };
    client.on('error', retry);
    client.on('notification', () => this.wake());
    try {
      await client.connect();
      await client.query(`LISTEN ${DELIVERIES_CHANNEL}`);
      if (!this.running) {
        await client.end();
        return;
      }
      this.listener = client;
      this.wake(); // anything committed while we were not listening
    } catch {
      retry();
    }
  }
}
