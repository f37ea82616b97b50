import { Injectable, Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import type { Tenant } from '../auth/tenant';
import { badRequest, badGateway, conflict, notFound } from '../common/errors/app-error';
import { Messages } from '../common/errors/messages';
import { envelope, ListEnvelope, pageOf } from '../common/pagination';
import { AppConfig } from '../config/config';
import type { EnvironmentKind } from '../organizations/entities';
import { PaymentRequest, toPaymentRequestJson } from '../payment-requests/payment-request.entity';
import { assertPhone } from '../payment-requests/payment-requests.service';
import { completeOpenSession } from '../checkout/session-transitions';
import { recordEventWhen } from '../webhooks/outbox';
import { BankAnswer, BankUnavailableError, PaymentMethodType } from './banks/bank';
import { BanksService } from './banks/banks.service';
import type { ListPaymentsQuery, PayDto } from './dto/payment.dto';
import { PaymentMethodsService } from './payment-methods.service';
import { Payment, paymentFromRow, PaymentJson, toPaymentJson } from './payment.entity';

/** How a payment ends: the bank took the money, or it did not. */
type Settlement =
  { status: 'completed'; bankReference: string | null } | { status: 'failed'; reason: string };

/** What reconciliation needs to ask the bank about a pending payment and settle it. */
interface PendingPayment {
  payment: Payment;
  organizationId: string;
  environment: EnvironmentKind;
  methodType: PaymentMethodType;
}

export interface ReconcileResult {
  claimed: number;
  completed: number;
  failed: number;
  stillPending: number;
}

const PAYMENT_COLUMNS = `p.*, pr.transaction_id`;

/**
 * A caller's own check, run inside pay's first transaction once the request row is locked and
 * known unpaid, before the pending payment is recorded; throwing refuses the payment. The hosted
 * checkout locks and rechecks its session here, so an expired or cancelled session is never paid.
 */
export type PayGuard = (m: EntityManager, request: PaymentRequest) => Promise<void>;

function paidVersion(request: PaymentRequest, at: Date): PaymentRequest {
  return Object.assign(new PaymentRequest(), {
    ...request,
    status: 'paid',
    paidAt: at,
    updatedAt: at,
  } satisfies PaymentRequest);
}

/**
 * Pay, payment reads, simulated transfers and reconciliation. The money rules:
 * - the bank is called outside any transaction, after a `pending` payment is committed, and only
 *   when the request is unpaid and has no other pending payment (row lock + partial unique index);
 * - a payment is settled only from `pending` (conditional UPDATE), so pay, simulated transfers,
 *   refresh and reconciliation can race without settling one twice;
 * - completing a payment and marking its request paid are one transaction, and the database
 *   refuses a second completed payment for a request.
 */
@Injectable()
export class PaymentsService {
  private readonly logger = new Logger(PaymentsService.name);

  constructor(
    private readonly ds: DataSource,
    private readonly banks: BanksService,
    private readonly methods: PaymentMethodsService,
    private readonly config: AppConfig,
  ) {}

  async pay(tenant: Tenant, dto: PayDto, guard?: PayGuard): Promise<PaymentJson> {
    const phoneNumber = assertPhone(dto.phoneNumber);
    const method = await this.methods.findEnabled(tenant.environmentId, dto.configurationId);
    const passCode = method.requiresPassCode ? dto.passCode : undefined;
    if (method.requiresPassCode && !passCode) throw badRequest(Messages.passCodeRequiredForBankily);

    const { payment, request } = await this.open(tenant, dto.transactionId, method.id, phoneNumber, guard);

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
        const settled = await this.settle(payment, request.transactionId, tenant.organizationId, {
          status: 'completed',
          bankReference: answer.bankReference,
        });
        return this.answerFor(settled);
      }
      case 'pending':
        if (answer.bankReference)
          await this.ds.query<{ total: number }[]>(
            "UPDATE payments SET reference_id = $2 WHERE id = $1 AND status = 'pending'",
            [payment.id, answer.bankReference],
          );
        return toPaymentJson({ ...payment, referenceId: answer.bankReference }, request.transactionId);
      case 'declined':
      case 'unknown': {
        const reason = answer.status === 'declined' ? answer.reason : 'bank gave no outcome';
        this.logger.warn(
          { paymentId: payment.id, method: method.type, reason },
          'payment failed at the bank',
        );
        const settled = await this.settle(payment, request.transactionId, tenant.organizationId, {
          status: 'failed',
          reason,
        });
        return this.answerFor(settled);
      }
    }
  }

  /** After settling: a failed payment is a 502 to the payer; a completed one (perhaps settled by someone else first) is returned. */
  private answerFor(payment: PaymentJson): PaymentJson {
    if (payment.status === 'failed') throw badGateway(Messages.bankFailure);
    return payment;
  }

  /**
   * First transaction of pay: lock the request, check it is payable, record a `pending` payment
   * and `payment-created`. Concurrent pays of one request queue on the row lock; after the first
   * commits, the others find its pending payment (409) or the paid request (409).
   */
  private async open(
    tenant: Tenant,
    transactionId: string,
    methodId: string,
    phoneNumber: string,
    guard?: PayGuard,
  ): Promise<{ payment: Payment; request: PaymentRequest }> {
    return this.ds.transaction(async (m) => {
      const request = await m.getRepository(PaymentRequest).findOne({
        where: { environmentId: tenant.environmentId, transactionId },
        lock: { mode: 'pessimistic_write' },
      });
      if (!request) throw notFound(Messages.paymentRequestNotFound);
      if (request.status === 'paid') throw conflict(Messages.paymentRequestAlreadyPaid);
      if (guard) await guard(m, request);

      const now = new Date();
      const payment = Object.assign(new Payment(), {
        id: randomUUID(),
        environmentId: tenant.environmentId,
        paymentRequestId: request.id,
        paymentMethodId: methodId,
        amount: request.amount,
        phoneNumber,
        status: 'pending',
        referenceId: null,
        failureReason: null,
        completedAt: null,
        nextCheckAt: now,
        createdAt: now,
        updatedAt: now,
      } satisfies Payment);
      const event = recordEventWhen('created', 8, {
        organizationId: tenant.organizationId,
        environmentId: tenant.environmentId,
        kind: 'payment-created',
        data: { ...toPaymentJson(payment, transactionId), request: toPaymentRequestJson(request) },
        createdAt: now,
      });
      // The partial unique index is the backstop of the row lock: never two pending payments.
      const rows: unknown[] = await m.query(
        `WITH created AS (
           INSERT INTO payments (id, environment_id, payment_request_id, payment_method_id, amount, phone_number,
                                 status, next_check_at, created_at, updated_at)
           VALUES ($1, $2, $3, $4, $5, $6, 'pending', $7, $7, $7)
           ON CONFLICT (payment_request_id) WHERE status = 'pending' DO NOTHING
           RETURNING id
         ), event AS (${event.sql})
         SELECT id FROM created`,
        [
          payment.id,
          payment.environmentId,
          payment.paymentRequestId,
          methodId,
          payment.amount,
          phoneNumber,
          now,
          ...event.params,
        ],
      );
      if (rows.length === 0) throw conflict(Messages.paymentInProgress);
      return { payment, request };
    });
  }

  /**
   * Settles a pending payment (the only way a payment leaves `pending`): one transaction that
   * updates it, records `payment-updated` and, when it completed, marks its request paid. When it
   * is no longer pending (someone settled it first), nothing changes and its current state is returned.
   *
   * Locks are taken in the order pay takes them (the request row, then the payment), so a settle
   * and a concurrent pay of the same request queue instead of deadlocking.
   */
  private async settle(
    payment: Payment,
    transactionId: string,
    organizationId: string,
    outcome: Settlement,
  ): Promise<PaymentJson> {
    const settled = await this.ds.transaction(async (m) => {
      const now = new Date();
      const request = await m.getRepository(PaymentRequest).findOne({
        where: { id: payment.paymentRequestId },
        lock: { mode: 'pessimistic_write' },
      });
      if (!request) return null;
      const paidRequest = outcome.status === 'completed' ? paidVersion(request, now) : request;
      const expected = Object.assign(new Payment(), {
        ...payment,
        status: outcome.status,
        referenceId: (outcome.status === 'completed' ? outcome.bankReference : null) ?? payment.referenceId,
        failureReason: outcome.status === 'failed' ? outcome.reason : null,
        completedAt: outcome.status === 'completed' ? now : null,
        updatedAt: now,
      } satisfies Payment);
      const event = recordEventWhen('settled', 7, {
        organizationId,
        environmentId: payment.environmentId,
        kind: 'payment-updated',
        data: { ...toPaymentJson(expected, transactionId), request: toPaymentRequestJson(paidRequest) },
        createdAt: now,
      });
      const [row] = await m.query<Record<string, unknown>[]>(
        `WITH settled AS (
           UPDATE payments
           SET status = $2, reference_id = COALESCE($3, reference_id), failure_reason = $4, completed_at = $5, updated_at = $6
           WHERE id = $1 AND status = 'pending'
           RETURNING *
         ), event AS (${event.sql})
         SELECT * FROM settled`,
        [
          payment.id,
          expected.status,
          expected.referenceId,
          expected.failureReason,
          expected.completedAt,
          now,
          ...event.params,
        ],
      );
      if (!row) return null;
      if (outcome.status === 'completed')
        await this.markPaid(m, request, organizationId, now, payment.paymentMethodId);
      return toPaymentJson(paymentFromRow(row), transactionId);
    });
    return settled ?? (await this.readPayment(payment.environmentId, payment.id))!;
  }

  /**
   * The one place where a payment request becomes paid, inside the transaction that completes its
   * payment (pay, simulated transfer, refresh-status and reconciliation all come through here).
   * `request` is the row as read under its lock in this transaction. Records
   * `payment-request-updated`. A request that is not `pending` any more would mean a second
   * completion: the transaction is rolled back instead.
   */
  async markPaid(
    m: EntityManager,
    request: PaymentRequest,
    organizationId: string,
    at: Date,
    paymentMethodId: string | null = null,
  ): Promise<PaymentRequest> {
    const paid = paidVersion(request, at);
    const event = recordEventWhen('paid', 3, {
      organizationId,
      environmentId: request.environmentId,
      kind: 'payment-request-updated',
      data: toPaymentRequestJson(paid),
      createdAt: at,
    });
    const [row] = await m.query<{ id: string }[]>(
      `WITH paid AS (
         UPDATE payment_requests SET status = 'paid', paid_at = $2, updated_at = $2
         WHERE id = $1 AND status = 'pending'
         RETURNING id
       ), event AS (${event.sql})
       SELECT id FROM paid`,
      [request.id, at, ...event.params],
    );
    if (!row) throw new Error(`payment request ${request.id} is already paid: refusing a second completion`);
    // CONTRACT.md: a request paid by any route completes its open checkout session, on `m` so the
    // session and its `checkout-session-completed` event commit or roll back with the payment.
    await completeOpenSession(m, request.id, { paymentMethodId });
    return paid;
  }

  async get(tenant: Tenant, id: string): Promise<PaymentJson> {
    const payment = await this.readPayment(tenant.environmentId, id);
    if (!payment) throw notFound(Messages.paymentNotFound);
    return payment;
  }

  /** Newest first; filters combine. Two queries (page and count), whatever the page size. */
  async list(tenant: Tenant, q: ListPaymentsQuery): Promise<ListEnvelope<PaymentJson>> {
    const page = pageOf(q);
    const where = ['p.environment_id = $1'];
    const params: unknown[] = [tenant.environmentId];
    const filter = (sql: string, value: unknown) => {
      params.push(value);
      where.push(`${sql} = $${params.length}`);
    };
    if (q.transactionId !== undefined) filter('pr.transaction_id', q.transactionId);
    if (q.paymentRequestId !== undefined) filter('p.payment_request_id', q.paymentRequestId);
    if (q.status !== undefined) filter('p.status', q.status);
    const from = `FROM payments p JOIN payment_requests pr ON pr.id = p.payment_request_id WHERE ${where.join(' AND ')}`;
    const [rows, [{ total }]] = await Promise.all([
      this.ds.query<Record<string, unknown>[]>(
        `SELECT ${PAYMENT_COLUMNS} ${from} ORDER BY p.created_at DESC, p.id DESC LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
        [...params, page.limit, page.offset],
      ),
      this.ds.query<{ total: number }[]>(`SELECT count(*)::int AS total ${from}`, params),
    ]);
    return envelope(
      rows.map((r) => toPaymentJson(paymentFromRow(r), r.transaction_id as string)),
      total,
      page,
    );
  }

  /**
   * Sandbox only: the customer's bank settles a pending payment now (`completed` by default).
   * Repeating the same outcome returns the payment unchanged; any other change of a settled
   * payment is 409 `Payment is not pending`.
   */
  async simulateTransfer(
    tenant: Tenant,
    id: string,
    outcome: 'completed' | 'failed' = 'completed',
  ): Promise<PaymentJson> {
    if (tenant.environment !== 'sandbox') throw badRequest(Messages.simulatedTransfersSandboxOnly);
    const current = await this.readPayment(tenant.environmentId, id);
    if (!current) throw notFound(Messages.paymentNotFound);
    if (current.status === outcome) return current;
    if (current.status !== 'pending') throw conflict(Messages.paymentNotPending);
    const [row] = await this.ds.query<Record<string, unknown>[]>('SELECT * FROM payments WHERE id = $1', [
      id,
    ]);
    const settled = await this.settle(
      paymentFromRow(row),
      current.transactionId,
      tenant.organizationId,
      outcome === 'completed'
        ? { status: 'completed', bankReference: null }
        : { status: 'failed', reason: 'simulated transfer failed' },
    );
    if (settled.status !== outcome) throw conflict(Messages.paymentNotPending);
    return settled;
  }

  /** PATCH /payment-request/:transactionId/refresh-status: ask the bank about the request's pending payments now. */
  async refreshStatus(tenant: Tenant, transactionId: string) {
    const request = await this.ds
      .getRepository(PaymentRequest)
      .findOneBy({ environmentId: tenant.environmentId, transactionId });
    if (!request) throw notFound(Messages.paymentRequestNotFound);
    const pending = await this.pendingPayments('p.payment_request_id = $1', [request.id]);
    for (const p of pending) await this.reconcileOne(p, 0);
    const fresh = await this.ds.getRepository(PaymentRequest).findOneByOrFail({ id: request.id });
    return toPaymentRequestJson(fresh);
  }

  /**
   * One reconciliation pass: claims pending payments at least `minAgeMs` old (so an in-flight pay
   * has finished its bank call) and due for a check, pushes their next check back (the claim, so
   * other instances skip them), then asks each bank and settles what it knows. Idempotent.
   */
  async reconcile(options: { minAgeMs?: number; limit?: number } = {}): Promise<ReconcileResult> {
    const minAgeMs = options.minAgeMs ?? this.config.RECONCILE_MIN_AGE_MS;
    const retryAfterMs = Math.max(this.config.BANK_TIMEOUT_MS, this.config.SANDBOX_BANK_TIMEOUT_MS) + 30_000;
    const claimedIds = await this.ds.query<{ id: string }[]>(
      `WITH due AS (
         SELECT id FROM payments
         WHERE status = 'pending' AND next_check_at <= now() AND created_at <= now() - $1::int * interval '1 millisecond'
         ORDER BY next_check_at
         LIMIT $2
         FOR UPDATE SKIP LOCKED
       ), claimed AS (
         UPDATE payments p SET next_check_at = now() + $3::int * interval '1 millisecond'
         FROM due WHERE p.id = due.id
         RETURNING p.id
       )
       SELECT id FROM claimed`,
      [minAgeMs, options.limit ?? 100, retryAfterMs],
    );
    const result: ReconcileResult = { claimed: claimedIds.length, completed: 0, failed: 0, stillPending: 0 };
    if (claimedIds.length === 0) return result;
    const pending = await this.pendingPayments('p.id = ANY($1)', [claimedIds.map((r) => r.id)]);
    for (const p of pending) {
      const status = await this.reconcileOne(p, minAgeMs);
      if (status === 'completed') result.completed += 1;
      else if (status === 'failed') result.failed += 1;
      else result.stillPending += 1;
    }
    return result;
  }

  /** Asks the bank about one pending payment and settles it when the bank knows the outcome. */
  private async reconcileOne(
    p: PendingPayment,
    minAgeMs: number,
  ): Promise<'pending' | 'completed' | 'failed'> {
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
      return 'pending';
    }
    const transactionId = await this.transactionIdOf(payment.paymentRequestId);
    let settlement: Settlement;
    switch (answer.status) {
      case 'pending':
        return 'pending';
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
          return 'pending';
        settlement = { status: 'failed', reason: 'the bank has no record of the charge' };
        break;
    }
    const settled = await this.settle(payment, transactionId, p.organizationId, settlement);
    this.logger.log({ paymentId: payment.id, status: settled.status }, 'pending payment reconciled');
    return settled.status;
  }

  private maxBankCallMs(): number {
    return Math.max(this.config.BANK_TIMEOUT_MS, this.config.SANDBOX_BANK_TIMEOUT_MS);
  }

  private async pendingPayments(condition: string, params: unknown[]): Promise<PendingPayment[]> {
    const rows = await this.ds.query<Record<string, unknown>[]>(
      `SELECT p.*, pm.type AS method_type, e.kind AS environment_kind, e.organization_id
       FROM payments p
       JOIN payment_methods pm ON pm.id = p.payment_method_id
       JOIN environments e ON e.id = p.environment_id
       WHERE p.status = 'pending' AND ${condition}
       ORDER BY p.created_at`,
      params,
    );
    return rows.map((r) => ({
      payment: paymentFromRow(r),
      organizationId: r.organization_id as string,
      environment: r.environment_kind as EnvironmentKind,
      methodType: r.method_type as PaymentMethodType,
    }));
  }

  private async transactionIdOf(paymentRequestId: string): Promise<string> {
    const [row] = await this.ds.query<{ transaction_id: string }[]>(
      'SELECT transaction_id FROM payment_requests WHERE id = $1',
      [paymentRequestId],
    );
    return row.transaction_id;
  }

  private async readPayment(environmentId: string, id: string): Promise<PaymentJson | null> {
    const [row] = await this.ds.query<Record<string, unknown>[]>(
      `SELECT ${PAYMENT_COLUMNS} FROM payments p JOIN payment_requests pr ON pr.id = p.payment_request_id
       WHERE p.id = $1 AND p.environment_id = $2`,
      [id, environmentId],
    );
    return row ? toPaymentJson(paymentFromRow(row), row.transaction_id as string) : null;
  }
}
