import { Injectable } from '@nestjs/common';
import { JobSchedule, MINUTE_MS, ScheduledJob } from '../jobs/scheduled-job';
import { DunningRun } from './dunning-run';
import { ReminderRun } from './reminder-run';

/**
 * Runs the reminder run, then dunning, every minute (BILLING_SCHEDULER), on a tick apart from the
 * billing run's so neither waits for the other. Both runs' claims make every instance safe to run
 * them.
 */
@Injectable()
export class SendRemindersJob extends ScheduledJob {
  readonly schedule: JobSchedule = { name: 'send-reminders', every: MINUTE_MS, switch: 'BILLING_SCHEDULER' };

  constructor(
    private readonly reminders: ReminderRun,
    private readonly dunning: DunningRun,
  ) {
    super();
  }

  protected async work(): Promise<{ reminders: number; dunned: number }> {
    const reminders = await this.reminders.run();
    const dunned = await this.dunning.run();
    return { reminders, dunned };
  }
}
