import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { AppConfig } from '../config/config';
import type { EnvironmentKind } from '../organizations/entities';
import { EventKind } from './event-kinds';
import { AttemptResult, postWebhook } from './http-delivery';
import { nextRetryDelay, parseSchedule } from './retry-schedule';
import { webhookBody, webhookHeaders } from './signing';
import { DELIVERIES_CHANNEL } from './webhooks.service';

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

  constructor(
    private readonly ds: DataSource,
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
    return this.ds.query(
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

  private async record(c: Claimed, startedAt: Date, r: AttemptResult): Promise<void> {
    const ok = r.statusCode !== null && r.statusCode >= 200 && r.statusCode < 300;
    const gone = r.statusCode === 410;
    const failures = c.retry_index + 1;
    const delay = ok || gone ? null : nextRetryDelay(this.schedule, failures, r.retryAfterMs);
    const status = ok ? 'succeeded' : delay === null ? 'failed' : 'pending';
    const rows: unknown = await this.ds.query(
      `WITH d AS (
         UPDATE webhook_deliveries
            SET status = $3, attempts = attempts + 1, retry_index = $4,
                next_attempt_at = now() + $5::bigint * interval '1 millisecond',
                last_status_code = $6, last_error = $7, last_response_snippet = $8,
                locked_until = NULL, locked_by = NULL, updated_at = now()
          WHERE id = $1 AND locked_by = $2
         RETURNING id
       ), logged AS (
         INSERT INTO webhook_attempts (delivery_id, status_code, duration_ms, error, response_snippet, created_at)
         SELECT id, $6, $9, $7, $8, $10 FROM d
       ), disabled AS (
         UPDATE webhook_endpoints SET enabled = false, disabled_reason = 'The receiver answered 410 Gone', updated_at = now()
          WHERE $11 AND id = $12 AND EXISTS (SELECT 1 FROM d)
       )
       SELECT id FROM d`,
      [c.id, this.token, status, ok ? c.retry_index : failures, delay, r.statusCode, r.error, r.responseSnippet,
        r.durationMs, startedAt, gone, c.endpoint_id],
    );
    if (Array.isArray(rows) && rows.length === 0) {
      this.logger.warn(`Webhook delivery ${c.id}: lease lost before the attempt was recorded; it will be attempted again`);
    } else if (!ok) {
      this.logger.log(`Webhook delivery ${c.id} attempt failed (${r.error ?? 'unknown'}); ${status === 'pending' ? `retry in ${delay} ms` : 'no retry left'}`);
    }
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
