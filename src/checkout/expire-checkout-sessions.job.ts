import { Injectable } from '@nestjs/common';
import { Db } from '../database/db';
import { JobSchedule, MINUTE_MS, ScheduledJob } from '../jobs/scheduled-job';
import { CheckoutSessionsRepository } from './checkout-sessions.repository';

/**
 * Expires open sessions past `expiresAt`, every minute (CHECKOUT_EXPIRY_SCHEDULER). The tick only
 * claims work (FOR UPDATE SKIP LOCKED), so every instance may run it; use-time checks cover the
 * window between ticks.
 */
@Injectable()
export class ExpireCheckoutSessionsJob extends ScheduledJob {
  readonly schedule: JobSchedule = {
    name: 'expire-checkout-sessions',
    every: MINUTE_MS,
    switch: 'CHECKOUT_EXPIRY_SCHEDULER',
  };

  constructor(
    private readonly db: Db,
    private readonly sessions: CheckoutSessionsRepository,
  ) {
    super();
  }

  protected async work(): Promise<{ expired: number }> {
    return { expired: await this.run() };
  }

  /**
   * Expires every open session past its deadline, `batch` at a time, safe with several instances
   * at once: each batch claims the sessions' payment requests (SKIP LOCKED, the lock pay takes
   * first), so a payment being started is waited for by nobody and seen by the recheck once
   * committed. Sessions with a pending payment wait for its outcome.
   */
  async run(batch = 500): Promise<number> {
    let total = 0;
    for (;;) {
      const { claimed, expired } = await this.db.transaction(async () => {
        const requests = await this.sessions.claimDueRequests(batch);
        if (requests.length === 0) return { claimed: 0, expired: 0 };
        return { claimed: requests.length, expired: (await this.sessions.expireDueOf(requests)).length };
      });
      total += expired;
      if (claimed < batch || expired === 0) return total;
    }
  }
}
