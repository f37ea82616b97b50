import { Logger } from '@nestjs/common';
import { isDatabaseUnavailable } from '../common/errors/database-unavailable';
import type { AttemptResult } from './http-delivery';
import { nextRetryDelay } from './retry-schedule';
import { ClaimedDelivery, OutcomeColumns, WebhooksRepository } from './webhooks.repository';

/** How often an outcome is tried again while PostgreSQL is unreachable. */
const UNAVAILABLE_RETRY_MS = 1000;

interface Outcome {
  c: ClaimedDelivery;
  startedAt: Date;
  r: AttemptResult;
  resolve: () => void;
  reject: (err: unknown) => void;
}

/**
 * Writes attempt outcomes in batches: one statement for all the attempts that finished while the
 * previous batch was being written, which keeps one database round trip per delivery off the
 * hot path. Each attempt is then succeeded, failed for good, or due again after its retry delay.
 * While PostgreSQL is unreachable, outcomes wait and are written once it is back: an attempt made
 * but not recorded would be made again when its lease expires, sending the event twice.
 */
export class DeliveryOutcomes {
  private readonly logger = new Logger('WebhookDelivery');
  private readonly queue: Outcome[] = [];
  private flushing = false;
  private stopping = false;

  constructor(
    private readonly repo: WebhooksRepository,
    private readonly schedule: number[],
    /** The worker's lease token: only deliveries still leased to it are written. */
    private readonly worker: string,
  ) {}

  /** Resolves once this outcome is committed. */
  record(c: ClaimedDelivery, startedAt: Date, r: AttemptResult): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ c, startedAt, r, resolve, reject });
      if (!this.flushing) void this.flush();
    });
  }

  /** Shutting down: stops waiting for PostgreSQL (an outcome it cannot take now fails, its lease expires and it is retried). */
  stop(): void {
    this.stopping = true;
  }

  private async flush(): Promise<void> {
    this.flushing = true;
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0, 500);
      try {
        const written = await this.repo.writeOutcomes(this.columns(batch), this.worker);
        for (const o of batch) {
          if (!written.has(o.c.id)) {
            this.logger.warn(
              `Webhook delivery ${o.c.id}: lease lost before the attempt was recorded; it will be attempted again`,
            );
          }
          o.resolve();
        }
      } catch (err) {
        if (isDatabaseUnavailable(err) && !this.stopping) {
          this.queue.unshift(...batch);
          await new Promise((r) => setTimeout(r, UNAVAILABLE_RETRY_MS).unref());
          continue;
        }
        for (const o of batch) o.reject(err);
      }
    }
    this.flushing = false;
  }

  private columns(batch: Outcome[]): OutcomeColumns {
    const cols: OutcomeColumns = {
      id: [],
      status: [],
      retryIndex: [],
      delay: [],
      statusCode: [],
      error: [],
      snippet: [],
      duration: [],
      startedAt: [],
      gone: [],
      endpointId: [],
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
        this.logger.log(
          `Webhook delivery ${c.id} attempt failed (${r.error ?? `HTTP ${r.statusCode}`}); ${status === 'pending' ? `retry in ${delay} ms` : 'no retry left'}`,
        );
      }
    }
    return cols;
  }
}
