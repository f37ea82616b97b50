import { Injectable } from '@nestjs/common';
import { PaymentRequestsRepository } from '../payment-requests/payment-requests.repository';
import type { ClockScope } from '../test-clocks/test-clocks.fragments';
import { PaymentsRepository } from './payments.repository';
import { PaymentSettlement } from './settlement';

/** Which claims to look at, and as of when (a test clock runs it for its own objects at its own time). */
export interface ClaimExpiryRun {
  /** Default: now. */
  asOf?: Date;
  paymentIds?: readonly string[];
  environmentIds?: readonly string[];
  /** Whose payments: the real clock's (default, null), or one test clock's, as of its moment `asOf`. */
  clock?: ClockScope;
  batch?: number;
}

/**
 * Fails the transfer payments whose claim, and its 2 minutes of grace, ended (docs/transfers.md):
 * `failed` with `failureReason` `expired` and `payment-updated`, through the settlement of any
 * payment, which moves a payment only from `pending`. So a transfer matching the payment at the
 * same moment, or another instance expiring it, settles it once: whichever locks its request
 * first wins, and the other finds it settled. No row is locked while the list is read (the
 * settlement locks the request before the payment, the order every path takes).
 *
 * A payment on a test clock (its request's invoice is on one) is expired only by that clock's
 * advance (`clock`, as of each of its moments): the real clock's run never touches it, however far
 * past its claim the real time is (docs/transfers.md "Claims on a test clock").
 */
@Injectable()
export class TransferClaims {
  constructor(
    private readonly repo: PaymentsRepository,
    private readonly requests: PaymentRequestsRepository,
    private readonly settlement: PaymentSettlement,
  ) {}

  /** The number of payments this run failed. */
  async expire(run: ClaimExpiryRun = {}): Promise<number> {
    const asOf = run.asOf ?? new Date();
    const batch = run.batch ?? 500;
    let total = 0;
    for (;;) {
      const due = await this.repo.expiredTransferClaims(asOf, batch, run);
      for (const { payment, organizationId } of due) {
        const request = await this.requests.byIdAnywhere(payment.paymentRequestId);
        const settled = await this.settlement.settleIfPending(payment, request!, organizationId, {
          status: 'failed',
          reason: 'expired',
        });
        if (settled) total += 1;
      }
      // Each payment read left `pending` (here or elsewhere), so the next read starts further on.
      if (due.length < batch) return total;
    }
  }
}
