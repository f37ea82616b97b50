import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { AppConfig } from '../config/config';
import { DatabaseAvailability } from '../database/availability';
import { DATABASE_DIRECT_URL } from '../database/database.module';
import { PgListener } from '../database/listener';
import { DeliveryOutcomes } from './delivery-outcomes';
import { AttemptResult, postWebhook } from './http-delivery';
import { parseSchedule } from './retry-schedule';
import { webhookBody, webhookHeaders } from './signing';
import { ClaimedDelivery, DELIVERIES_CHANNEL, WebhooksRepository } from './webhooks.repository';

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
  private readonly outcomes: DeliveryOutcomes;
  private readonly listener: PgListener;
  private readonly inFlight = new Set<Promise<void>>();
  private running = false;
  private loop?: Promise<void>;
  private sleeper?: () => void;
  private wakePending = false;
  private backlog = false;
  private attemptsMade = 0;

  constructor(
    private readonly repo: WebhooksRepository,
    private readonly config: AppConfig,
    private readonly availability: DatabaseAvailability,
    @Inject(DATABASE_DIRECT_URL) databaseUrl: string,
  ) {
    this.outcomes = new DeliveryOutcomes(repo, parseSchedule(config.WEBHOOK_RETRY_SCHEDULE_MS), this.token);
    // Anything committed while we were not listening is caught up when listening starts.
    this.listener = new PgListener(
      databaseUrl,
      DELIVERIES_CHANNEL,
      () => this.wake(),
      () => this.wake(),
    );
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
    this.listener.start();
    this.loop = this.run();
  }

  /** Stops claiming, lets the attempts in flight finish (each bounded by the time-out) and closes LISTEN. */
  async stop(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    this.wake();
    await this.loop;
    this.outcomes.stop();
    await Promise.allSettled([...this.inFlight]);
    await this.listener.stop();
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
          const batch = await this.repo.claim(capacity, this.config.webhookLeaseMs, this.token);
          this.backlog = batch.length === capacity;
          for (const c of batch) this.track(this.attempt(c));
          if (this.backlog && this.inFlight.size < max) continue;
        } catch (err) {
          // PostgreSQL away: logged once by the availability tracker; the poll goes on until it is back.
          if (!this.availability.failed(err))
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
      if (this.backlog ? this.inFlight.size <= this.config.WEBHOOK_CONCURRENCY / 2 : this.inFlight.size === 0)
        this.wake();
    });
  }

  private async attempt(c: ClaimedDelivery): Promise<void> {
    const startedAt = new Date();
    let result: AttemptResult;
    try {
      const body = webhookBody({
        id: c.event_id,
        kind: c.kind,
        createdAt: new Date(c.created_at),
        data: c.data,
      });
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
      result = {
        statusCode: null,
        durationMs: Date.now() - startedAt.getTime(),
        error: (err as Error).message,
        responseSnippet: null,
        retryAfterMs: null,
      };
    }
    this.attemptsMade += 1;
    try {
      await this.outcomes.record(c, startedAt, result);
    } catch (err) {
      // The lease expires and another attempt is made: at least once, never silently dropped.
      this.logger.error(`Recording webhook delivery ${c.id} failed: ${(err as Error).message}`);
    }
  }
}
