import { Injectable, Logger } from '@nestjs/common';
import { Cron, CronExpression } from '@nestjs/schedule';
import { AppConfig } from '../config/config';
import { DatabaseAvailability } from '../database/availability';
import { BillingRun } from './billing-run';

/**
 * Runs the billing run every minute (BILLING_SCHEDULER=false turns it off on an instance). The
 * tick never overlaps the previous one; the run's claims make every instance safe to run it, and
 * it drains on shutdown (BillingRun).
 */
@Injectable()
export class BillingScheduler {
  private readonly logger = new Logger(BillingScheduler.name);
  private running: Promise<void> | null = null;

  constructor(
    private readonly billing: BillingRun,
    private readonly config: AppConfig,
    private readonly availability: DatabaseAvailability,
  ) {}

  @Cron(CronExpression.EVERY_MINUTE, { name: 'billing-run' })
  async tick(): Promise<void> {
    if (!this.config.BILLING_SCHEDULER || this.running) return;
    const started = Date.now();
    this.running = this.billing
      .run()
      .then((r) => {
        if (r.subscriptionsUpdated > 0) this.logger.log({ ...r, ms: Date.now() - started }, 'billing run');
      })
      .catch((err: unknown) => {
        // PostgreSQL away: logged once by the tracker; the next tick after it is back continues the run.
        if (!this.availability.failed(err))
          this.logger.error({ err }, 'billing run failed; continued on the next tick');
      })
      .finally(() => {
        this.running = null;
      });
    await this.running;
  }
}
