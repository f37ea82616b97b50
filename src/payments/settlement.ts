import { Injectable, Logger } from '@nestjs/common';
import { Metrics } from '../common/metrics/metrics';
import type { PaymentRequest } from '../payment-requests/payment-request';
import type { SettledRow } from './pay.statements';
import { Payment, paymentFromRow, PaymentJson, toPaymentJson } from './payment';
import { PaymentsRepository } from './payments.repository';
import type { PaymentLabels, Settlement, SettlementExtension, SettlementGate } from './settlement-types';

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
    const settled = await this.settleIfPending(payment, request, organizationId, outcome, labels);
    return settled ?? (await this.repo.paymentJson(payment.environmentId, payment.id))!;
  }

  /**
   * The same, but undefined when the payment was no longer pending: for a caller that must know
   * whether this call settled it (a transfer is matched only when its payment completed by it).
   */
  async settleIfPending(
    payment: Payment,
    request: PaymentRequest,
    organizationId: string,
    outcome: Settlement,
    labels?: PaymentLabels,
  ): Promise<PaymentJson | undefined> {
    const row = await this.repo.settle(payment, request, organizationId, outcome, this.extensions.all);
    return row && this.settled(row, payment, request, outcome, labels);
  }

  /**
   * The settlement with a caller's change in the same statement deciding it (`SettlementGate`: a
   * transfer stored as matched with the payment it completes): the gate's value, and the payment
   * settled, or undefined when it was not (no longer pending, its request no longer payable, or
   * the gate said no).
   */
  async settleWhen(
    payment: Payment,
    request: PaymentRequest,
    organizationId: string,
    outcome: Settlement,
    gate: SettlementGate,
    labels?: PaymentLabels,
  ): Promise<{ gate: unknown; settled: PaymentJson | undefined }> {
    const { gate: value, settled } = await this.repo.settleGated(
      payment,
      request,
      organizationId,
      outcome,
      this.extensions.all,
      gate,
    );
    return { gate: value, settled: settled && this.settled(settled, payment, request, outcome, labels) };
  }

  private settled(
    row: SettledRow,
    payment: Payment,
    request: PaymentRequest,
    outcome: Settlement,
    labels: PaymentLabels | undefined,
  ): PaymentJson {
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
