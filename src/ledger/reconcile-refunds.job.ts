import { Injectable } from '@nestjs/common';
import { AppConfig } from '../config/config';
import { JobSchedule, ScheduledJob } from '../jobs/scheduled-job';
import { RefundsPass, RefundsService } from './refunds.service';

/**
 * With the payments' reconciliation (every RECONCILE_INTERVAL_MS, 0: off), sends again the refunds
 * left pending for RECONCILE_MIN_AGE_MS: a bank that answered "pending" or did not answer, or a
 * process that died between committing a refund and the bank's answer. The claim makes several
 * instances safe; the bank's idempotency reference (the refund's id) makes a second send harmless.
 */
@Injectable()
export class ReconcileRefundsJob extends ScheduledJob {
  readonly schedule: JobSchedule = {
    name: 'reconcile-refunds',
    every: 'RECONCILE_INTERVAL_MS',
    switch: 'RECONCILE_INTERVAL_MS',
  };

  constructor(
    private readonly refunds: RefundsService,
    private readonly config: AppConfig,
  ) {
    super();
  }

  protected work(): Promise<RefundsPass> {
    return this.refunds.resolvePending(this.config.RECONCILE_MIN_AGE_MS);
  }
}
