import { Injectable } from '@nestjs/common';
import { JobSchedule, ScheduledJob } from '../jobs/scheduled-job';
import { PollResult, TransferPolling } from './transfer-polling.service';

/**
 * Every TRANSFER_POLL_MS (0: off), asks each bank gateway for the incoming transfers since its
 * cursor: a transfer whose notification was lost is found here. The gateway's lease keeps
 * instances apart.
 */
@Injectable()
export class PollTransfersJob extends ScheduledJob {
  readonly schedule: JobSchedule = {
    name: 'poll-transfers',
    every: 'TRANSFER_POLL_MS',
    switch: 'TRANSFER_POLL_MS',
  };

  constructor(private readonly polling: TransferPolling) {
    super();
  }

  protected work(): Promise<PollResult> {
    return this.polling.pollAll(() => this.stopping);
  }
}
