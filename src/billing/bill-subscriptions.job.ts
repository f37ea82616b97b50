import { Injectable } from '@nestjs/common';
import { JobSchedule, MINUTE_MS, ScheduledJob } from '../jobs/scheduled-job';
import { BillingRun, BillingRunJson } from './billing-run';

/**
 * Runs the billing run every minute (BILLING_SCHEDULER). The run's claims make every instance
 * safe to run it, and it stops after its current batches on shutdown (BillingRun).
 */
@Injectable()
export class BillSubscriptionsJob extends ScheduledJob {
  readonly schedule: JobSchedule = {
    name: 'bill-subscriptions',
    every: MINUTE_MS,
    switch: 'BILLING_SCHEDULER',
  };

  constructor(private readonly billing: BillingRun) {
    super();
  }

  protected work(): Promise<BillingRunJson> {
    return this.billing.run();
  }
}
