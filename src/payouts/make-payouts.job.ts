import { Injectable } from '@nestjs/common';
import { JobSchedule, MINUTE_MS, ScheduledJob } from '../jobs/scheduled-job';
import { PayoutRun, PayoutRunJson } from './payout-run';

/**
 * Runs the payout run every minute (PAYOUT_SCHEDULER). The run's claims make every instance safe
 * to run it, and it stops after its current batch on shutdown (PayoutRun).
 */
@Injectable()
export class MakePayoutsJob extends ScheduledJob {
  readonly schedule: JobSchedule = { name: 'make-payouts', every: MINUTE_MS, switch: 'PAYOUT_SCHEDULER' };

  constructor(private readonly payouts: PayoutRun) {
    super();
  }

  protected work(): Promise<PayoutRunJson> {
    return this.payouts.run();
  }
}
