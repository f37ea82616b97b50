import { BeforeApplicationShutdown, Injectable, Logger } from '@nestjs/common';
import { Cron, CronExpression } from '@nestjs/schedule';
import { AppConfig } from '../config/config';
import { Db } from '../database/db';
import { WebhooksRepository } from './webhooks.repository';

/** Events one transaction of the pruning deletes: short transactions, small bites of WAL. */
export const PRUNE_BATCH = 1000;

/**
 * Deletes events older than EVENT_RETENTION_DAYS with their deliveries and attempts
 * (docs/operations.md), never an event with a delivery still pending. Every instance runs it every
 * ten minutes (EVENT_RETENTION_SCHEDULER=false turns it off on an instance): each batch is one
 * transaction that claims its events FOR UPDATE SKIP LOCKED, so instances delete disjoint batches.
 * A tick never overlaps the previous one and, on shutdown, stops after its current batch.
 */
@Injectable()
export class EventRetentionJob implements BeforeApplicationShutdown {
  private readonly logger = new Logger(EventRetentionJob.name);
  private running: Promise<void> | null = null;
  private stopping = false;

  constructor(
    private readonly db: Db,
    private readonly repo: WebhooksRepository,
    private readonly config: AppConfig,
  ) {}

  @Cron(CronExpression.EVERY_10_MINUTES, { name: 'event-retention' })
  async tick(): Promise<void> {
    if (!this.config.EVENT_RETENTION_SCHEDULER || this.running) return;
    const started = Date.now();
    this.running = this.run()
      .then((deleted) => {
        if (deleted > 0)
          this.logger.log({ deleted, ms: Date.now() - started }, 'pruned events past retention');
      })
      .catch((err: unknown) => {
        // While the database is away, DatabaseAvailability logs its going and return once.
        if (!this.db.availability.failed(err))
          this.logger.error({ err }, 'event pruning failed; retried on the next tick');
      })
      .finally(() => {
        this.running = null;
      });
    await this.running;
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopping = true;
    await this.running;
  }

  /**
   * Deletes, `batch` at a time, every event past retention that has no delivery pending, in one
   * environment (the tests' scope) or all. The number deleted.
   */
  async run(options: { environmentId?: string; batch?: number } = {}): Promise<number> {
    const batch = options.batch ?? PRUNE_BATCH;
    const days = this.config.EVENT_RETENTION_DAYS;
    let total = 0;
    while (!this.stopping) {
      const { claimed, deleted } = await this.db.transaction(async () => {
        const ids = await this.repo.claimExpiredEvents(days, batch, options.environmentId);
        return { claimed: ids.length, deleted: ids.length === 0 ? 0 : await this.repo.deleteEvents(ids) };
      });
      total += deleted;
      if (claimed < batch) break;
    }
    return total;
  }
}
