import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { context, propagation, SpanKind, trace } from '@opentelemetry/api';
import { randomUUID } from 'node:crypto';
import { Metrics } from '../common/metrics/metrics';
import { AppConfig } from '../config/config';
import { DatabaseAvailability } from '../database/availability';
import { DATABASE_DIRECT_URL } from '../database/database.module';
import { PgListener } from '../database/listener';
import { DeliveryOutcomes } from './delivery-outcomes';
import { EndpointPace, SLOW_CALL_MS } from './endpoint-pace';
import { AttemptResult, postWebhook } from './http-delivery';
import { parseSchedule } from './retry-schedule';
import { webhookBody, webhookHeaders } from './signing';
import { ClaimedDelivery, DELIVERIES_CHANNEL, WebhooksRepository } from './webhooks.repository';

const tracer = trace.getTracer('khoums');

/**
 * Delivers webhooks. Runs in every instance: due deliveries are claimed with
 * `FOR UPDATE SKIP LOCKED` and leased to this worker (`locked_by`, `locked_until`), so each due
 * attempt is made by one instance, and a delivery claimed by an instance that died is retried
 * once its lease expires. Woken by the fan-out trigger's NOTIFY, with a short poll as fallback
 * (retries falling due, a lost LISTEN connection).
 *
 * Each endpoint holds at most WEBHOOK_ENDPOINT_CONCURRENCY leases over all instances until this
 * worker sees it answer fast; then it may hold up to WEBHOOK_CONCURRENCY, so that one busy
 * merchant's deliveries go at the instance's pace, until one of its calls hangs. An organization's
 * deliveries to its endpoints held to the small cap are capped together at
 * WEBHOOK_ORGANIZATION_CONCURRENCY (docs/architecture.md, "Webhook delivery").
 */
@Injectable()
export class DeliveryWorker implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('WebhookDelivery');
  /** Identifies this worker's leases. */
  private readonly token = randomUUID();
  private readonly outcomes: DeliveryOutcomes;
  private readonly listener: PgListener;
  private readonly inFlight = new Set<Promise<void>>();
  private readonly pace = new EndpointPace();
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
    private readonly metrics: Metrics,
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
    const small = this.config.WEBHOOK_ENDPOINT_CONCURRENCY;
    const organization = this.config.WEBHOOK_ORGANIZATION_CONCURRENCY;
    while (this.running) {
      const capacity = max - this.inFlight.size + this.pace.overflow(small, organization);
      if (capacity > 0) {
        try {
          const batch = await this.repo.claim(capacity, this.config.webhookLeaseMs, this.token, {
            small,
            large: Math.max(max, small),
            fast: this.pace.fastEndpoints(),
            slowMs: SLOW_CALL_MS,
            organization,
          });
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
      // With work waiting, refill in batches (half the slots) rather than one claim per finished
      // attempt. Otherwise claim again at once too: the last claim may have been held back by an
      // endpoint's cap, which this attempt frees (wakes in one tick make one claim).
      if (!this.backlog || this.inFlight.size <= this.config.WEBHOOK_CONCURRENCY / 2) this.wake();
    });
  }

  /** One attempt, traced (a span `webhook delivery`, whose W3C `traceparent` the receiver gets). */
  private attempt(c: ClaimedDelivery): Promise<void> {
    return tracer.startActiveSpan(
      'webhook delivery',
      {
        kind: SpanKind.PRODUCER,
        attributes: { 'khoums.webhook.delivery_id': c.id, 'khoums.webhook.event': c.kind },
      },
      (span) => this.attemptInSpan(c).finally(() => span.end()),
    );
  }

  private async attemptInSpan(c: ClaimedDelivery): Promise<void> {
    const startedAt = new Date();
    this.pace.started(c.endpoint_id, c.organization_id, c.id);
    this.metrics.webhookLag.observe((startedAt.getTime() - new Date(c.created_at).getTime()) / 1000);
    let result: AttemptResult;
    try {
      const body = webhookBody({
        id: c.event_id,
        kind: c.kind,
        createdAt: new Date(c.created_at),
        data: c.data,
        account: c.account,
      });
      const headers = webhookHeaders({
        id: c.event_id,
        kind: c.kind,
        body,
        timestamp: Math.floor(Date.now() / 1000),
        secret: c.secret,
        previousSecret: c.previous_secret,
      });
      if (c.account) headers['x-khoums-account'] = c.account;
      // Nothing without tracing: the API's propagator is a no-op until src/telemetry.ts starts.
      propagation.inject(context.active(), headers);
      result = await postWebhook({
        url: c.url,
        headers,
        body,
        timeoutMs: this.config.WEBHOOK_TIMEOUT_MS,
        publicOnly: !this.config.WEBHOOK_ALLOW_PRIVATE_URLS,
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
    this.pace.finished(c.endpoint_id, c.id, result.durationMs);
    const delivered = result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300;
    this.metrics.webhookDeliveries.inc({ outcome: delivered ? 'delivered' : 'failed' });
    try {
      await this.outcomes.record(c, startedAt, result);
    } catch (err) {
      // The lease expires and another attempt is made: at least once, never silently dropped.
      this.logger.error(`Recording webhook delivery ${c.id} failed: ${(err as Error).message}`);
    }
  }
}
