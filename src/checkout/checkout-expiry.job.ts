import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { Cron, CronExpression } from '@nestjs/schedule';
import { Db } from '../database/db';
import { CheckoutSessionsRepository } from './checkout-sessions.repository';

/**
 * Expires open sessions past `expiresAt`. The tick only claims work (FOR UPDATE SKIP LOCKED), so
 * every instance may run it; use-time checks cover the window between ticks. A tick never
 * overlaps the previous one.
 */
@Injectable()
export class CheckoutExpiryJob implements OnApplicationShutdown {
  private readonly logger = new Logger(CheckoutExpiryJob.name);
  private running: Promise<void> | null = null;

  constructor(
    private readonly db: Db,
    private readonly sessions: CheckoutSessionsRepository,
  ) {}

  @Cron(CronExpression.EVERY_MINUTE, { name: 'checkout-expiry' })
  async tick(): Promise<void> {
    if (this.running) return;
    this.running = this.run()
      .then((expired) => {
        if (expired > 0) this.logger.log({ expired }, 'expired checkout sessions');
      })
      .catch((err: unknown) => {
        if (!this.db.availability.failed(err))
          this.logger.error({ err }, 'checkout expiry failed; retried on the next tick');
      })
      .finally(() => {
        this.running = null;
      });
    await this.running;
  }

  /** Lets a tick in progress finish before the database goes away. */
  async onApplicationShutdown(): Promise<void> {
    await this.running;
  }

  /**
   * Expires every open session past its deadline, `batch` at a time, safe with several instances
   * at once: each batch claims the sessions' payment requests (SKIP LOCKED, the lock pay takes
   * first), so a payment being started is waited for by nobody and seen by the recheck once
   * committed. Sessions with a pending payment wait for its outcome.
   */
  async run(batch = 500): Promise<number> {
    let total = 0;
    for (;;) {
      const { claimed, expired } = await this.db.transaction(async () => {
        const requests = await this.sessions.claimDueRequests(batch);
        if (requests.length === 0) return { claimed: 0, expired: 0 };
        return { claimed: requests.length, expired: (await this.sessions.expireDueOf(requests)).length };
      });
      total += expired;
      if (claimed < batch || expired === 0) return total;
    }
  }
}
