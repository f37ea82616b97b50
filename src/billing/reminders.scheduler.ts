import { Injectable, Logger } from '@nestjs/common';
import { Cron, CronExpression } from '@nestjs/schedule';
import { AppConfig } from '../config/config';
import { DatabaseAvailability } from '../database/availability';
import { DunningRun } from './dunning-run';
import { ReminderRun } from './reminder-run';

/**
 * Runs the reminder run, then dunning, every minute (BILLING_SCHEDULER=false turns them off on an
 * instance), apart from the billing run's tick so neither waits for the other. The tick never
 * overlaps the previous one; both runs' claims make every instance safe to run them.
 */
@Injectable()
export class RemindersScheduler {
  private readonly logger = new Logger(RemindersScheduler.name);
  private running: Promise<void> | null = null;

  constructor(
    private readonly reminders: ReminderRun,
    private readonly dunning: DunningRun,
    private readonly config: AppConfig,
    private readonly availability: DatabaseAvailability,
  ) {}

  @Cron(CronExpression.EVERY_MINUTE, { name: 'reminder-run' })
  async tick(): Promise<void> {
    if (!this.config.BILLING_SCHEDULER || this.running) return;
    const started = Date.now();
    this.running = (async () => {
      const reminders = await this.reminders.run();
      const dunned = await this.dunning.run();
      if (reminders + dunned > 0)
        this.logger.log({ reminders, dunned, ms: Date.now() - started }, 'reminder run');
    })()
      .catch((err: unknown) => {
        if (!this.availability.failed(err))
          this.logger.error({ err }, 'reminder run failed; continued on the next tick');
      })
      .finally(() => {
        this.running = null;
      });
    await this.running;
  }
}
