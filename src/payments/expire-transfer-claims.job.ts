import { Injectable } from '@nestjs/common';
import { JobSchedule, ScheduledJob } from '../jobs/scheduled-job';
import { TransferClaims } from './transfer-claims';

/**
 * Every TRANSFER_CLAIM_EXPIRY_INTERVAL_MS (0: off), fails the transfer payments still pending 2
 * minutes past `claimExpiresAt` (`expired`): the real clock's, never one on a Sandbox test clock
 * (its advance expires those, as of its own time). Safe on every instance at once: a payment is
 * settled only from `pending` (TransferClaims).
 */
@Injectable()
export class ExpireTransferClaimsJob extends ScheduledJob {
  readonly schedule: JobSchedule = {
    name: 'expire-transfer-claims',
    every: 'TRANSFER_CLAIM_EXPIRY_INTERVAL_MS',
    switch: 'TRANSFER_CLAIM_EXPIRY_INTERVAL_MS',
  };

  constructor(private readonly claims: TransferClaims) {
    super();
  }

  protected async work(): Promise<{ expired: number }> {
    return { expired: await this.claims.expire() };
  }
}
