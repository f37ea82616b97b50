import { Injectable, Logger } from '@nestjs/common';
import { Metrics } from '../common/metrics/metrics';
import type { EnvironmentKind } from '../organizations/tenant';
import type { Sql } from '../database/sql';
import type { PaymentRequest } from '../payment-requests/payment-request';
import { Payment, paymentFromRow, PaymentJson, toPaymentJson } from './payment';
import { settleStatement } from './pay.statements';
import { PaymentsRepository } from './payments.repository';

/** How a payment ends: the bank took the money, or it did not. */
export type Settlement =
  { status: 'completed'; bankReference: string | null } | { status: 'failed'; reason: string };

/** How a settled payment is counted in `khoums_payments_total`. */
export interface PaymentLabels {
  method: string;
  environment: EnvironmentKind;
}

/** What a settlement extension's SQL may refer to. */
export interface SettlementContext {
  /** Name of a CTE returning `id`: the payment requests this statement marks paid (none or one). */
  paid: string;
  /** Name of a CTE returning the settled payment's row (`status` completed or failed; none when it was no longer pending). */
  settled: string;
  /** The time of the settlement. */
  at: Date;
  /** The payment method the customer paid with (null: not known). */
  paymentMethodId: string | null;
}

/**
 * A module's part in paying a payment request: CTEs added to the statement that settles a
 * payment, so that what the module changes when a request is paid (the checkout session is
 * completed, the invoice is paid) commits in the same transaction as the payment, whichever
 * route paid it (pay, simulated transfer, reconciliation). Payments knows none of its callers.
 */
export interface SettlementExtension {
  /** Unique; its CTE names start with it. */
  name: string;
  /** `name_x AS (...), name_y AS (...)`, reading `ctx.paid`. */
  ctes(ctx: SettlementContext): Sql;
}

/** Where modules above payments register their settlement extension when they start. */
@Injectable()
export class SettlementExtensions {
  private readonly registered: SettlementExtension[] = [];

  register(extension: SettlementExtension): void {
    if (this.registered.some((e) => e.name === extension.name))
      throw new Error(`settlement extension ${extension.name} registered twice`);
    this.registered.push(extension);
  }

  get all(): readonly SettlementExtension[] {
    return this.registered;
  }
}

/**
 * Settles a pending payment: the only way a payment leaves `pending`, and the only way a payment
 * request becomes paid. One statement (`settleStatement`), so one transaction: the payment is
 * updated only from `pending` and records `payment-updated`; when it completed, its request is
 * marked paid (`payment-request-updated`) and every registered extension runs. When the payment
 * is no longer pending (someone settled it first), nothing changes and its current state is
 * returned. The request row is locked first, the order pay takes its locks in, so a settle and a
 * concurrent pay of the same request queue instead of deadlocking; the database refuses a second
 * completed payment for a request.
 */
@Injectable()
export class PaymentSettlement {
  private readonly logger = new Logger(PaymentSettlement.name);

  constructor(
    private readonly repo: PaymentsRepository,
    private readonly extensions: SettlementExtensions,
    private readonly metrics: Metrics,
  ) {}

  /** `labels`: to count the settlement in the metrics (a simulated transfer is not counted). */
  async settle(
    payment: Payment,
    request: PaymentRequest,
    organizationId: string,
    outcome: Settlement,
    labels?: PaymentLabels,
  ): Promise<PaymentJson> {
    const row = await this.repo.settle(
      settleStatement(payment, request, organizationId, outcome, this.extensions.all),
    );
    if (!row) return (await this.repo.paymentJson(payment.environmentId, payment.id))!;
    if (labels) this.metrics.payments.inc({ ...labels, status: outcome.status });
    if (outcome.status === 'completed' && row.paid !== 1) {
      // Cannot happen while pending payments are unique per request and only this statement pays one.
      this.logger.error(
        { paymentId: payment.id, paymentRequestId: request.id },
        'completed payment of a request that was not pending',
      );
    }
    return toPaymentJson(paymentFromRow(row), request.transactionId);
  }
}
