import { Injectable, Logger } from '@nestjs/common';
import { Cron, CronExpression } from '@nestjs/schedule';
import { DataSource } from 'typeorm';
import { expireDueSessions } from './session-transitions';

/**
 * Expires open sessions past `expiresAt`. The tick only claims work (FOR UPDATE SKIP LOCKED), so
 * every instance may run it; use-time checks cover the window between ticks.
 */
@Injectable()
export class CheckoutExpiryJob {
  private readonly logger = new Logger(CheckoutExpiryJob.name);

  constructor(private readonly ds: DataSource) {}

  @Cron(CronExpression.EVERY_MINUTE, { name: 'checkout-expiry' })
  async tick(): Promise<void> {
    try {
      const expired = await this.run();
      if (expired > 0) this.logger.log({ expired }, 'expired checkout sessions');
    } catch (err) {
      this.logger.error({ err }, 'checkout expiry failed; retried on the next tick');
    }
  }

  run(): Promise<number> {
    return expireDueSessions(this.ds);
  }
}
