import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { Cron, CronExpression } from '@nestjs/schedule';
import { DatabaseAvailability } from '../database/availability';
import { IdempotencyRepository } from './idempotency.repository';

/** Keys are kept 24 h. */
export const KEY_LIFETIME_MS = 24 * 3600 * 1000;

/**
 * Deletes Idempotency-Key records once they are 24 h old (a retry after that runs again). The tick
 * only claims work, in batches (FOR UPDATE SKIP LOCKED), so every instance may run it; a tick never
 * overlaps the previous one, and shutdown waits for the one in progress.
 */
@Injectable()
export class IdempotencyExpiryJob implements OnApplicationShutdown {
  private readonly logger = new Logger(IdempotencyExpiryJob.name);
  private running: Promise<void> | null = null;

  constructor(
    private readonly repo: IdempotencyRepository,
    private readonly availability: DatabaseAvailability,
  ) {}

  @Cron(CronExpression.EVERY_MINUTE, { name: 'idempotency-expiry' })
  async tick(): Promise<void> {
    if (this.running) return;
    this.running = this.run()
      .then((deleted) => {
        if (deleted > 0) this.logger.log({ deleted }, 'deleted expired idempotency keys');
      })
      .catch((err: unknown) => {
        if (!this.availability.failed(err))
          this.logger.error({ err }, 'idempotency key expiry failed; retried on the next tick');
      })
      .finally(() => {
        this.running = null;
      });
    await this.running;
  }

  async onApplicationShutdown(): Promise<void> {
    await this.running;
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
