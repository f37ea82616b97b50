import { Injectable } from '@nestjs/common';
import { JobSchedule, MINUTE_MS, ScheduledJob } from '../jobs/scheduled-job';
import { IdempotencyRepository } from './idempotency.repository';

/** Keys are kept 24 h. */
export const KEY_LIFETIME_MS = 24 * 3600 * 1000;

/**
 * Deletes Idempotency-Key records once they are 24 h old (a retry after that runs again), every
 * minute (IDEMPOTENCY_EXPIRY_SCHEDULER). The tick only claims work, in batches (FOR UPDATE SKIP
 * LOCKED), so every instance may run it.
 */
@Injectable()
export class ExpireIdempotencyKeysJob extends ScheduledJob {
  readonly schedule: JobSchedule = {
    name: 'expire-idempotency-keys',
    every: MINUTE_MS,
    switch: 'IDEMPOTENCY_EXPIRY_SCHEDULER',
  };

  constructor(private readonly repo: IdempotencyRepository) {
    super();
  }

  protected async work(): Promise<{ deleted: number }> {
    return { deleted: await this.run() };
  }

  /** Deletes every record older than `maxAgeMs`, `batch` at a time. The number deleted. */
  async run(batch = 1000, maxAgeMs = KEY_LIFETIME_MS): Promise<number> {
    let total = 0;
    for (;;) {
      const deleted = await this.repo.deleteExpired(maxAgeMs, batch);
      total += deleted;
      if (deleted < batch) return total;
    }
  }
}
