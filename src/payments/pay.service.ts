import { Injectable, Logger } from '@nestjs/common';
import type { Tenant } from '../auth/tenant';
import { Db } from '../database/db';
import { Metrics } from '../common/metrics/metrics';
import { AppError } from '../common/errors/app-error';
import { assertPhone } from '../common/validation/rules';
import { IdempotencyError, idempotencyError } from '../idempotency/idempotency.errors';
import { isKeyTaken } from '../idempotency/idempotency.repository';
import { KeyRecord } from '../idempotency/idempotency.fragments';
import type { RequestKey } from '../idempotency/request-key';
import type { PaymentRequest } from '../payment-requests/payment-request';
import {
  PaymentRequestError,
  paymentRequestError,
  voidRequestError,
} from '../payment-requests/payment-requests.errors';
import { PaymentRequestsRepository } from '../payment-requests/payment-requests.repository';
import { BankAnswer, BankUnavailableError } from './banks/bank';
import { BanksService } from './banks/banks.service';
import type { PayDto } from './dto/payment.dto';
import { GimtelInstructionsJson, instructionsOf, Payment, PaymentJson, toPaymentJson } from './payment';
import { PaymentError, paymentError } from './payments.errors';
import { keyedPayment, PayMethod, TransferClaim } from './pay.statements';
import { AppConfig } from '../config/config';
import { PaymentsRepository } from './payments.repository';
import { PaymentSettlement } from './settlement';

/**
 * A caller's own check, run inside pay's first transaction once the request row is locked and
 * known unpaid, before the pending payment is recorded; throwing refuses the payment. The hosted
 * checkout locks and rechecks its session here, so an expired or cancelled session is never paid.
 */
export type PayGuard = (request: PaymentRequest) => Promise<void>;

/**
 * Pay. The money rules:
 * - the bank is called outside any transaction, after a `pending` payment is committed, and only
 *   when the request is unpaid and has no other pending payment (row lock + partial unique index);
 * - a payment is settled only from `pending` (PaymentSettlement), so pay, simulated transfers,
 *   refresh and reconciliation can race without settling one twice;
 * - completing a payment and marking its request paid are one transaction, and the database
 *   refuses a second completed payment for a request;
 * - with an Idempotency-Key, the key is recorded with the payment it opens (in the opening
 *   statement), and a retry gets that payment in whatever state it reached, without the bank
 *   being called again: pending while the first request still waits on the bank, then completed,
 *   or failed (502, as the first request answered);
 * - at most MAX_FAILED_PAYMENTS failed payments per request and payer phone in the window: that
 *   phone's next attempt is 429 before the bank is called (another phone still pays).
 */
@Injectable()
export class PayService {
  private readonly logger = new Logger(PayService.name);

  constructor(
    private readonly db: Db,
    private readonly repo: PaymentsRepository,
    private readonly requests: PaymentRequestsRepository,
    private readonly banks: BanksService,
    private readonly settlement: PaymentSettlement,
    private readonly metrics: Metrics,
    private readonly config: AppConfig,
  ) {}

  async pay(tenant: Tenant, dto: PayDto, guard?: PayGuard, key?: RequestKey): Promise<PaymentJson> {
    return (await this.payWithInstructions(tenant, dto, guard, key)).payment;
  }

  /**
   * Pay, with what the customer must do next: a transfer method's payment stays `pending` with
   * its claim and `instructions` (docs/transfers.md), never asking a bank; a push method's has
   * null instructions.
   */
  async payWithInstructions(
    tenant: Tenant,
    dto: PayDto,
    guard?: PayGuard,
    key?: RequestKey,
  ): Promise<PayAnswer> {
    const phoneNumber = assertPhone(dto.phoneNumber);
    const { method, request, keyed } = await this.repo.lookUp(
      tenant.environmentId,
      dto.configurationId,
      dto.transactionId,
      key,
    );
    if (key && keyed) return this.replay(key, keyed);
    if (!method) throw paymentError(PaymentError.MethodNotFound);
    const wallet = this.transferWalletOf(method);
    const passCode = method.requiresPassCode ? dto.passCode : undefined;
    if (method.requiresPassCode && !passCode) throw paymentError(PaymentError.PassCodeRequired);
    if (!request) throw paymentRequestError(PaymentRequestError.NotFound);
    if (request.status === 'paid') throw paymentRequestError(PaymentRequestError.AlreadyPaid);
    if (request.voidedAt) throw voidRequestError(request);
    const transfer = wallet && { ...wallet, claimExpiresAt: await this.claimEnd(request) };

    let payment: Payment;
    try {
      payment = guard
        ? await this.db.transaction(async () => {
            // The caller's check needs the request locked first (the lock order of every path).
            await this.requests.lock(request.environmentId, { id: request.id });
            await guard(request);
            return this.open(tenant, request, method.id, phoneNumber, key, transfer);
          })
        : await this.open(tenant, request, method.id, phoneNumber, key, transfer);
    } catch (err) {
      // Refused, perhaps because a request with this key opened its payment after our read (a
      // concurrent retry): then that payment is the answer.
      if (key && (isKeyTaken(err) || err instanceof AppError)) {
        const record = await this.repo.keyRecordWithPayment(key);
        if (record) return this.replay(key, record);
      }
      throw err;
    }

    if (transfer) {
      // The customer sends the money: nothing to ask a bank, the transfer's matching settles it.
      this.metrics.payments.inc({ method: method.type, environment: tenant.environment, status: 'pending' });
      return {
        payment: toPaymentJson(payment, request.transactionId),
        instructions: instructionsOf(payment),
      };
    }

    // The request as settlement shows it: with the payment just opened counted.
    const opened: PaymentRequest = { ...request, paymentCount: request.paymentCount + 1 };
    const labels = { method: method.type, environment: tenant.environment };
    this.metrics.payments.inc({ ...labels, status: 'pending' });
    let answer: BankAnswer;
    try {
      answer = await this.banks.charge(tenant.environment, method.type, {
        reference: payment.id,
        amount: payment.amount,
        phoneNumber,
        passCode,
        description: request.transactionId,
      });
    } catch (err) {
      const reason = err instanceof BankUnavailableError ? err.message : 'bank adapter failure';
      this.logger.warn(
        {
          paymentId: payment.id,
          method: method.type,
          reason,
          err: err instanceof BankUnavailableError ? undefined : err,
        },
        'bank call failed',
      );
      answer = {
        status: 'declined',
        reason:
          err instanceof BankUnavailableError && err.kind === 'timeout'
            ? 'bank did not answer in time'
            : 'bank unavailable',
      };
    }

    switch (answer.status) {
      case 'completed': {
        const settled = await this.settlement.settle(
          payment,
          opened,
          tenant.organizationId,
          { status: 'completed', bankReference: answer.bankReference },
          labels,
        );
        return pushAnswer(settled);
      }
      case 'pending':
        if (answer.bankReference) await this.repo.setReference(payment.id, answer.bankReference);
        return pushAnswer(
          toPaymentJson({ ...payment, referenceId: answer.bankReference }, request.transactionId),
        );
      case 'declined':
      case 'unknown': {
        const reason = answer.status === 'declined' ? answer.reason : 'bank gave no outcome';
        this.logger.warn(
          { paymentId: payment.id, method: method.type, reason },
          'payment failed at the bank',
        );
        const settled = await this.settlement.settle(
          payment,
          opened,
          tenant.organizationId,
          { status: 'failed', reason },
          labels,
        );
        if (settled.status === 'failed' && answer.status === 'declined' && answer.wrongPassCode)
          throw paymentError(PaymentError.WrongPassCode);
        return pushAnswer(settled);
      }
    }
  }

  /**
   * Records a `pending` payment and `payment-created`, in one statement that locks the request
   * and rechecks it under the lock: still unpaid, no other pending payment (the partial unique
   * index). Concurrent pays of one request queue on the row lock; after the first commits, the
   * others find its pending payment or the paid request (409). Only then is the bank called.
   */
  private async open(
    tenant: Tenant,
    request: PaymentRequest,
    methodId: string,
    phoneNumber: string,
    key: RequestKey | undefined,
    transfer: TransferClaim | undefined,
  ): Promise<Payment> {
    const { payment, flags } = await this.repo.open({
      request,
      methodId,
      phoneNumber,
      organizationId: tenant.organizationId,
      key,
      transfer,
    });
    if (flags.opened) return payment;
    if (!flags.payable) {
      // Paid, or its invoice voided, since it was read: the rare path, worth a read to say which.
      const now = await this.requests.byIdAnywhere(request.id);
      if (now?.voidedAt) throw voidRequestError(now);
      throw paymentRequestError(PaymentRequestError.AlreadyPaid);
    }
    if (flags.retry_after !== null)
      throw paymentError(PaymentError.TooManyAttempts).retryAfter(flags.retry_after);
    throw paymentError(PaymentError.InProgress);
  }

  /**
   * A retry's answer: the payment its key's first request opened, as pay answers it (failed: 502);
   * 400 when the key came with another request.
   */
  private replay(key: RequestKey, record: KeyRecord): PayAnswer {
    const keyed = keyedPayment(record);
    if (!keyed || !key.sameRequest(record.requestHash)) throw idempotencyError(IdempotencyError.KeyReused);
    key.replayed = true;
    const instructions = instructionsOf(keyed.payment);
    if (keyed.payment.status === 'failed' && !instructions) throw paymentError(PaymentError.BankFailure);
    return { payment: toPaymentJson(keyed.payment, keyed.transactionId), instructions };
  }

  /** A transfer method's receiving wallet; undefined for a push method. */
  private transferWalletOf(method: PayMethod): Omit<TransferClaim, 'claimExpiresAt'> | undefined {
    if (method.flow !== 'transfer') return undefined;
    if (!method.receivingBank || !method.receivingPhone) throw paymentError(PaymentError.MethodNotFound);
    return { receivingBank: method.receivingBank, receivingPhone: method.receivingPhone };
  }

  /**
   * When the claim of a transfer payment opened now ends: TRANSFER_CLAIM_MINUTES from now, or, for
   * a request of an invoice on a test clock, from the clock's time (docs/transfers.md "Claims on a
   * test clock"): one read more, on that path only.
   */
  private async claimEnd(request: PaymentRequest): Promise<Date> {
    const window = this.config.TRANSFER_CLAIM_MINUTES * 60_000;
    if (request.testClockId === null) return new Date(Date.now() + window);
    const clockTime = await this.repo.clockTime(request.testClockId);
    // The clock was deleted since the read, and its invoices' requests with it.
    if (!clockTime) throw paymentRequestError(PaymentRequestError.NotFound);
    return new Date(clockTime.getTime() + window);
  }
}

/** What pay answers: the payment, and a transfer payment's instructions (null for a push method). */
export interface PayAnswer {
  payment: PaymentJson;
  instructions: GimtelInstructionsJson | null;
}

/** After a bank's answer: a failed payment is a 502 to the payer; a completed one (perhaps settled by someone else first) is returned. */
function pushAnswer(payment: PaymentJson): PayAnswer {
  if (payment.status === 'failed') throw paymentError(PaymentError.BankFailure);
  return { payment, instructions: null };
}
