import { Injectable } from '@nestjs/common';
import { JobSchedule, ScheduledJob } from '../jobs/scheduled-job';
import { ReconcileResult, ReconciliationService } from './reconciliation.service';

/**
 * Every RECONCILE_INTERVAL_MS (0: off), asks the banks about payments left pending (a bank that
 * answered "pending", or a process that died between the bank's answer and the commit). The
 * claim in `reconcile` makes several instances safe.
 */
@Injectable()
export class ReconcilePaymentsJob extends ScheduledJob {
  readonly schedule: JobSchedule = {
    name: 'reconcile-payments',
    every: 'RECONCILE_INTERVAL_MS',
    switch: 'RECONCILE_INTERVAL_MS',
  };

  constructor(private readonly reconciliation: ReconciliationService) {
    super();
  }

  protected work(): Promise<ReconcileResult> {
    return this.reconciliation.reconcile();
  }
}
