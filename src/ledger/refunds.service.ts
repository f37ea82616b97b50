import { StreamableFile } from '@nestjs/common';
import { csvFile, mapBatches } from '../common/http/csv';
import { Injectable, Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { Tenant } from '../auth/tenant';
import { CommonError, commonError } from '../common/errors/common-errors';
import { Metrics } from '../common/metrics/metrics';
import { envelope, ListEnvelope, pageOf } from '../common/pagination';
import { Db } from '../database/db';
import { IdempotentReplay, IdempotencyKeyRecords } from '../idempotency/idempotency-key-records';
import type { RequestKey } from '../idempotency/request-key';
import { InvoicesRepository } from '../invoices/invoices.repository';
import { BankUnavailableError, RefundAnswer } from '../payments/banks/bank';
import { BanksService } from '../payments/banks/banks.service';
import { PaymentsRepository, RefundablePayment } from '../payments/payments.repository';
import { CreateRefundDto, ListRefundsQuery } from './dto/refund.dto';
import { ledgerError, LedgerError } from './ledger.errors';
import { RefundsRepository } from './refunds.repository';
import { Refund, REFUND_CSV_COLUMNS, RefundJson, toRefundJson, RefundOutcome } from './refund';

/** A refunds pass: how many pending refunds it claimed and how many it settled. */
export interface RefundsPass {
  claimed: number;
  settled: number;
}

/**
 * Refunds (docs/ledger.md). Creating one is a transaction that locks the payment (so refunds of
 * one payment queue), checks what is left to refund, adds to the payment's `refundedAmount`, and
 * records the `pending` refund with its `refund` balance transaction and `refund-created`. The
 * bank is called after the commit, outside any transaction, as pay calls it; its answer settles
 * the refund in a second transaction (a failure credits `refund_failure` and gives the amount
 * back to what may be refunded; a payment refunded in full makes its invoice `refunded`). A bank
 * that does not answer, or a process that dies around the call, leaves the refund `pending`: the
 * refunds job sends it again (the bank's idempotency reference is the refund's id).
 */
@Injectable()
export class RefundsService {
  private readonly logger = new Logger(RefundsService.name);

  constructor(
    private readonly db: Db,
    private readonly repo: RefundsRepository,
    private readonly payments: PaymentsRepository,
    private readonly invoices: InvoicesRepository,
    private readonly banks: BanksService,
    private readonly keys: IdempotencyKeyRecords,
    private readonly metrics: Metrics,
  ) {}

  async create(tenant: Tenant, dto: CreateRefundDto, key?: RequestKey): Promise<RefundJson> {
    let opened: { refund: Refund; payment: RefundablePayment } | undefined;
    const open = async () => {
      opened = await this.open(tenant, dto);
      return { data: toRefundJson(opened.refund) };
    };
    if (!key) await this.db.transaction(open);
    else {
      try {
        await this.keys.runOnce(key, 200, open);
      } catch (err) {
        if (!(err instanceof IdempotentReplay)) throw err;
        // A retry: the refund its key's first request created, as it is now.
        const first = JSON.parse(err.answer.body) as { data: { id: string } };
        key.replayed = true;
        return this.get(tenant, first.data.id);
      }
    }
    const { refund, payment } = opened!;
    return toRefundJson(await this.send(refund, payment));
  }

  async get(tenant: Tenant, id: string): Promise<RefundJson> {
    const refund = await this.repo.find(tenant.environmentId, id);
    if (!refund) throw ledgerError(LedgerError.RefundNotFound);
    return toRefundJson(refund);
  }

  /** Every refund the filters select, as CSV, streamed. */
  csv(tenant: Tenant, q: ListRefundsQuery): StreamableFile {
    return csvFile(
      'refunds',
      REFUND_CSV_COLUMNS,
      mapBatches(this.repo.listAll(tenant.environmentId, q), toRefundJson),
    );
  }

  async list(tenant: Tenant, q: ListRefundsQuery): Promise<ListEnvelope<RefundJson>> {
    const page = pageOf(q);
    const { rows, total } = await this.repo.list(tenant.environmentId, q, page);
    return envelope(rows.map(toRefundJson), total, page);
  }

  /**
   * Sends again, once each, up to `limit` refunds left pending for `minAgeMs` (claimed, so any
   * number of instances may run this at once).
   */
  async resolvePending(minAgeMs = 60_000, limit = 100, retryAfterMs = 60_000): Promise<RefundsPass> {
    const ids = await this.repo.claimPending(minAgeMs, limit, retryAfterMs);
    let settled = 0;
    for (const id of ids) {
      const refund = await this.repo.findById(id);
      if (!refund || refund.status !== 'pending') continue;
      const payment = await this.payments.lockForRefund(refund.environmentId, refund.paymentId);
      if (!payment) continue;
      if ((await this.send(refund, payment)).status !== 'pending') settled += 1;
    }
    return { claimed: ids.length, settled };
  }

  /** The transaction that opens a refund; its rules answer 404, 409 and 400. */
  private async open(
    tenant: Tenant,
    dto: CreateRefundDto,
  ): Promise<{ refund: Refund; payment: RefundablePayment }> {
    const payment = await this.payments.lockForRefund(tenant.environmentId, dto.paymentId);
    if (!payment) throw ledgerError(LedgerError.PaymentNotFound);
    if (payment.payment.status !== 'completed') throw ledgerError(LedgerError.PaymentNotCompleted);
    if (dto.amount !== undefined && dto.amount <= 0) throw commonError(CommonError.AmountNotPositive);
    const left = payment.payment.amount - payment.payment.refundedAmount;
    const amount = dto.amount ?? left;
    if (amount <= 0 || amount > left) throw ledgerError(LedgerError.AmountExceedsLeft);
    const now = new Date();
    const refund: Refund = {
      id: randomUUID(),
      environmentId: tenant.environmentId,
      organizationId: payment.organizationId,
      paymentId: payment.payment.id,
      paymentRequestId: payment.payment.paymentRequestId,
      transactionId: payment.transactionId,
      amount,
      status: 'pending',
      reason: dto.reason ?? null,
      failureReason: null,
      createdAt: now,
      updatedAt: now,
    };
    await this.payments.addRefunded(payment.payment.id, amount);
    await this.repo.insert(refund);
    return { refund, payment };
  }

  /** The bank call, outside any transaction; its answer settles the refund. Returns the refund as it now is. */
  private async send(refund: Refund, payment: RefundablePayment): Promise<Refund> {
    let answer: RefundAnswer;
    try {
      answer = await this.banks.refund(payment.environment, payment.methodType, {
        reference: refund.id,
        chargeReference: payment.payment.id,
        amount: refund.amount,
        phoneNumber: payment.payment.phoneNumber,
      });
    } catch (err) {
      if (!(err instanceof BankUnavailableError)) throw err;
      this.logger.warn(
        { refundId: refund.id, reason: err.message },
        'refund left pending: the bank did not answer',
      );
      return refund;
    }
    if (answer.status === 'pending' || answer.status === 'unknown') return refund;
    return this.settle(refund, answer);
  }

  /** One transaction: the payment locked first (as when opening), then the refund settled from pending. */
  private async settle(refund: Refund, outcome: RefundOutcome): Promise<Refund> {
    let counted = false;
    const result = await this.db.transaction(async () => {
      const payment = await this.payments.lockForRefund(refund.environmentId, refund.paymentId);
      const settled = await this.repo.settle(refund, outcome);
      if (!settled || !payment) return (await this.repo.find(refund.environmentId, refund.id)) ?? refund;
      if (outcome.status === 'failed') await this.payments.addRefunded(refund.paymentId, -refund.amount);
      else if ((await this.repo.succeededTotal(refund.paymentId)) >= payment.payment.amount)
        await this.invoices.markRefunded(refund.paymentRequestId);
      counted = true;
      return settled;
    });
    // Counted once committed, by the one settlement that changed it.
    if (counted) this.metrics.refunds.inc({ status: result.status });
    return result;
  }
}
