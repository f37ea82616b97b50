import { Injectable, Logger } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import type { Tenant } from '../auth/tenant';
import { AppConfig } from '../config/config';
import { PaymentRequestJson, toPaymentRequestJson } from '../payment-requests/payment-request';
import { PaymentRequestError, paymentRequestError } from '../payment-requests/payment-requests.errors';
import { PaymentRequestsRepository } from '../payment-requests/payment-requests.repository';
import {
  BankUnavailableError,
  PAYMENT_METHOD_TYPES,
  type BankAnswer,
  type PaymentMethodType,
} from './banks/bank';
import { BanksService } from './banks/banks.service';
import { PaymentsRepository, PendingPayment } from './payments.repository';
import { PaymentSettlement } from './settlement';
import { Settlement } from './settlement-types';

/** One bank question refresh-status asked: a pending payment and what its bank said. */
export class BankingApiResponseJson {
  @ApiProperty({ description: "The payment request's transactionId" }) transactionId!: string;
  @ApiProperty({ format: 'uuid', description: 'The payment method of the payment' }) configurationId!: string;
  @ApiProperty({ enum: PAYMENT_METHOD_TYPES }) configurationType!: PaymentMethodType;
  @ApiProperty({ enum: ['completed', 'failed', 'pending', 'error'] }) outcome!: BankQuestionOutcome;
  @ApiProperty({ description: "The bank adapter's normalised answer as JSON text (at most 2 KB)" })
  body!: string;
}

export type BankQuestionOutcome = 'completed' | 'failed' | 'pending' | 'error';

/** A body longer than this is cut: the answer is for reading, not for storing. */
const MAX_BODY_LENGTH = 2048;

export interface ReconcileResult {
  claimed: number;
  completed: number;
  failed: number;
  stillPending: number;
}

/** Asks the banks about payments left pending, and settles what they know. */
@Injectable()
export class ReconciliationService {
  private readonly logger = new Logger(ReconciliationService.name);

  constructor(
    private readonly repo: PaymentsRepository,
    private readonly requests: PaymentRequestsRepository,
    private readonly banks: BanksService,
    private readonly settlement: PaymentSettlement,
    private readonly config: AppConfig,
  ) {}

  /** PATCH /payment-request/:transactionId/refresh-status: ask the bank about the request's pending payments now. */
  async refreshStatus(
    tenant: Tenant,
    transactionId: string,
  ): Promise<{ data: PaymentRequestJson; bankingApiResponses: BankingApiResponseJson[] }> {
    const request = await this.requests.byTransactionId(tenant.environmentId, transactionId);
    if (!request) throw paymentRequestError(PaymentRequestError.NotFound);
    const bankingApiResponses: BankingApiResponseJson[] = [];
    for (const p of await this.repo.pending({ paymentRequestId: request.id })) {
      const asked = await this.reconcileOne(p, 0);
      bankingApiResponses.push({
        transactionId: request.transactionId,
        configurationId: p.payment.paymentMethodId,
        configurationType: p.methodType,
        outcome: asked.outcome,
        body: asked.body.length > MAX_BODY_LENGTH ? asked.body.slice(0, MAX_BODY_LENGTH) : asked.body,
      });
    }
    const data = toPaymentRequestJson((await this.requests.byId(tenant.environmentId, request.id))!);
    return { data, bankingApiResponses };
  }

  /**
   * One reconciliation pass: claims pending payments at least `minAgeMs` old (so an in-flight pay
   * has finished its bank call) and due for a check, pushes their next check back (the claim, so
   * other instances skip them), then asks each bank and settles what it knows. Idempotent.
   */
  async reconcile(options: { minAgeMs?: number; limit?: number } = {}): Promise<ReconcileResult> {
    const minAgeMs = options.minAgeMs ?? this.config.RECONCILE_MIN_AGE_MS;
    const ids = await this.repo.claimForReconciliation(
      minAgeMs,
      options.limit ?? 100,
      this.maxBankCallMs() + 30_000,
    );
    const result: ReconcileResult = { claimed: ids.length, completed: 0, failed: 0, stillPending: 0 };
    if (ids.length === 0) return result;
    for (const p of await this.repo.pending({ ids })) {
      const { status } = await this.reconcileOne(p, minAgeMs);
      if (status === 'completed') result.completed += 1;
      else if (status === 'failed') result.failed += 1;
      else result.stillPending += 1;
    }
    return result;
  }

  /**
   * Asks the bank about one pending payment and settles it when the bank knows the outcome: the
   * payment's status after, and what the bank said (`error`: no usable answer) as JSON text made
   * of the adapter's normalised answer only (never a credential or a raw bank body).
   */
  private async reconcileOne(
    p: PendingPayment,
    minAgeMs: number,
  ): Promise<{ status: 'pending' | 'completed' | 'failed'; outcome: BankQuestionOutcome; body: string }> {
    const { payment } = p;
    let answer: BankAnswer;
    try {
      answer = await this.banks.status(p.environment, p.methodType, {
        reference: payment.id,
        phoneNumber: payment.phoneNumber,
      });
    } catch (err) {
      this.logger.warn(
        { paymentId: payment.id, reason: err instanceof Error ? err.message : String(err) },
        'bank status unavailable; will ask again',
      );
      const error = err instanceof BankUnavailableError ? err.kind : 'error';
      return { status: 'pending', outcome: 'error', body: JSON.stringify({ error }) };
    }
    const body = JSON.stringify(answer);
    let settlement: Settlement;
    switch (answer.status) {
      case 'pending':
        return { status: 'pending', outcome: 'pending', body };
      case 'completed':
        settlement = { status: 'completed', bankReference: answer.bankReference };
        break;
      case 'declined':
        settlement = { status: 'failed', reason: answer.reason };
        break;
      case 'unknown':
        // The charge never reached the bank (the process stopped before sending it). Only once
        // the payment is older than a bank call can take, so an in-flight charge is not failed.
        if (Date.now() - payment.createdAt.getTime() < Math.max(minAgeMs, this.maxBankCallMs()))
          return { status: 'pending', outcome: 'pending', body };
        settlement = { status: 'failed', reason: 'the bank has no record of the charge' };
        break;
    }
    const settled = await this.settlement.settle(
      payment,
      (await this.requests.byIdAnywhere(payment.paymentRequestId))!,
      p.organizationId,
      settlement,
      { method: p.methodType, environment: p.environment },
    );
    this.logger.log({ paymentId: payment.id, status: settled.status }, 'pending payment reconciled');
    return { status: settled.status, outcome: settled.status, body };
  }

  private maxBankCallMs(): number {
    return Math.max(this.config.BANK_TIMEOUT_MS, this.config.SANDBOX_BANK_TIMEOUT_MS);
  }
}
