import { Injectable } from '@nestjs/common';
import { raw, type Sql } from '../database/sql';

/**
 * What payments read of the ledger, which sits above them: the payout that paid a payment out (its
 * `payment` balance transaction's `payoutId`), shown on the payment record. The payouts module
 * registers the ledger's fragment when it starts (docs/architecture.md, "When a lower module must
 * let a higher one take part"), so the payment reads carry it in their own statement.
 */
@Injectable()
export class PaymentPayouts {
  private registered?: (paymentId: Sql) => Sql;

  register(payoutIdOf: (paymentId: Sql) => Sql): void {
    if (this.registered) throw new Error('the payout of payments is registered twice');
    this.registered = payoutIdOf;
  }

  /** SQL: the id of the payout that paid out the payment `paymentId` names; null until then. */
  payoutIdOf(paymentId: Sql): Sql {
    return this.registered ? this.registered(paymentId) : raw('NULL::uuid');
  }
}
