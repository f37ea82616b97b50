import { Injectable, Logger } from '@nestjs/common';
import { Cron, CronExpression } from '@nestjs/schedule';
import { AppConfig } from '../config/config';
import { DatabaseAvailability } from '../database/availability';
import { PayoutRun } from './payout-run';

/**
 * Runs the payout run every minute (PAYOUT_SCHEDULER=false turns it off on an instance). The tick
 * never overlaps the previous one; the run's claims make every instance safe to run it, and it
 * drains on shutdown (PayoutRun).
 */
@Injectable()
export class PayoutsScheduler {
  private readonly logger = new Logger(PayoutsScheduler.name);
  private running: Promise<void> | null = null;

  constructor(
    private readonly payouts: PayoutRun,
    private readonly config: AppConfig,
    private readonly availability: DatabaseAvailability,
  ) {}

  @Cron(CronExpression.EVERY_MINUTE, { name: 'payout-run' })
  async tick(): Promise<void> {
    if (!this.config.PAYOUT_SCHEDULER || this.running) return;
    const started = Date.now();
    this.running = this.payouts
      .run()
      .then((r) => {
        if (r.payoutsCreated > 0 || r.payoutsUpdated > 0)
          this.logger.log({ ...r, ms: Date.now() - started }, 'payout run');
      })
      .catch((err: unknown) => {
        if (!this.availability.failed(err))
          this.logger.error({ err }, 'payout run failed; continued on the next tick');
      })
      .finally(() => {
        this.running = null;
      });
    await this.running;
  }
}
