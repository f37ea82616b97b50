import { Injectable } from '@nestjs/common';
import { AppConfig } from '../config/config';
import { Db } from '../database/db';
import { JobSchedule, MINUTE_MS, ScheduledJob } from '../jobs/scheduled-job';
import { WebhooksRepository } from './webhooks.repository';

/** Events one transaction of the pruning deletes: short transactions, small bites of WAL. */
export const PRUNE_BATCH = 1000;

/**
 * Deletes events older than EVENT_RETENTION_DAYS with their deliveries and attempts
 * (docs/operations.md), never an event with a delivery still pending. Every instance runs it every
 * ten minutes (EVENT_RETENTION_SCHEDULER): each batch is one transaction that claims its events
 * FOR UPDATE SKIP LOCKED, so instances delete disjoint batches. On shutdown it stops after its
 * current batch.
 */
@Injectable()
export class PruneEventsJob extends ScheduledJob {
  readonly schedule: JobSchedule = {
    name: 'prune-events',
    every: 10 * MINUTE_MS,
    switch: 'EVENT_RETENTION_SCHEDULER',
  };

  constructor(
    private readonly db: Db,
    private readonly repo: WebhooksRepository,
    private readonly config: AppConfig,
  ) {
    super();
  }

  protected async work(): Promise<{ deleted: number }> {
    return { deleted: await this.run() };
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
