import { Injectable, Logger } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import type { Tenant } from '../auth/tenant';
import { badRequest, badGateway, conflict, notFound } from '../common/errors/app-error';
import { Messages } from '../common/errors/messages';
import { envelope, ListEnvelope, pageOf } from '../common/pagination';
import { AppConfig } from '../config/config';
import type { EnvironmentKind } from '../organizations/entities';
import {
  fromRow,
  PaymentRequest,
  PaymentRequestRow,
  toPaymentRequestJson,
} from '../payment-requests/payment-request.entity';
import { assertPhone } from '../payment-requests/payment-requests.service';
import { Sql } from '../database/sql';
import type { Queryable } from '../webhooks/outbox';
import { BankAnswer, BankUnavailableError, PaymentMethodType } from './banks/bank';
import { BanksService } from './banks/banks.service';
import type { ListPaymentsQuery, PayDto } from './dto/payment.dto';
import {
  LOOK_UP_SQL,
  LookUpRow,
  OpenFlags,
  openStatement,
  PayMethod,
  requestOfLookUp,
  SettledRow,
  Settlement,
  settleStatement,
} from './payment-statements';
import { Payment, paymentFromRow, PaymentJson, toPaymentJson } from './payment.entity';

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

  /** Statements outside a transaction block (each its own transaction) go straight to the pool. */
  private readonly sqlQueryable: Queryable;

  constructor(
    private readonly ds: DataSource,
    private readonly sql: Sql,
    private readonly banks: BanksService,
    private readonly config: AppConfig,
  ) {
    this.sqlQueryable = { query: (text, values) => this.sql.rows(text, values) };
  }

  async pay(tenant: Tenant, dto: PayDto, guard?: PayGuard): Promise<PaymentJson> {
    const phoneNumber = assertPhone(dto.phoneNumber);
    const { method, request } = await this.lookUp(
      tenant.environmentId,
      dto.configurationId,
      dto.transactionId,
    );
    if (!method) throw notFound(Messages.paymentMethodNotFound);
    const passCode = method.requiresPassCode ? dto.passCode : undefined;
    if (method.requiresPassCode && !passCode) throw badRequest(Messages.passCodeRequiredForBankily);
    if (!request) throw notFound(Messages.paymentRequestNotFound);
    if (request.status === 'paid') throw conflict(Messages.paymentRequestAlreadyPaid);

    const payment = guard
      ? await this.ds.transaction(async (m) => {
          // The caller's check needs the request locked first (the lock order of every path).
          await m.query('SELECT id FROM payment_requests WHERE id = $1 FOR UPDATE', [request.id]);
          await guard(m, request);
          return this.open(m, tenant, request, method.id, phoneNumber);
        })
      : await this.open(this.sqlQueryable, tenant, request, method.id, phoneNumber);

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
        const settled = await this.settle(payment, request, tenant.organizationId, {
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
        const settled = await this.settle(payment, request, tenant.organizationId, {
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

  /** Pay's first read, one statement: the enabled method and the payment request (unlocked; `open` rechecks under the lock). */
  private async lookUp(
    environmentId: string,
    methodId: string,
    transactionId: string,
  ): Promise<{ method: PayMethod | null; request: PaymentRequest | null }> {
    const [row] = await this.sql.rows<LookUpRow>(LOOK_UP_SQL, [environmentId, methodId, transactionId]);
    return { method: row.method, request: row.request ? requestOfLookUp(row.request) : null };
  }

  /**
   * Records a `pending` payment and `payment-created`, in one statement that locks the request
   * and rechecks it under the lock: still unpaid, no other pending payment (the partial unique
   * index). Concurrent pays of one request queue on the row lock; after the first commits, the
   * others find its pending payment or the paid request (409). Only then is the bank called.
   */
  private async open(
    q: Queryable,
    tenant: Tenant,
    request: PaymentRequest,
    methodId: string,
    phoneNumber: string,
  ): Promise<Payment> {
    const { payment, text, values } = openStatement({
      request,
      methodId,
      phoneNumber,
      organizationId: tenant.organizationId,
    });
    const [flags] = (await q.query(text, values)) as OpenFlags[];
    if (!flags.payable) throw conflict(Messages.paymentRequestAlreadyPaid);
    if (!flags.opened) throw conflict(Messages.paymentInProgress);
    return payment;
  }

  /**
   * Settles a pending payment (the only way a payment leaves `pending`, and the only way a payment
   * request becomes paid), in one statement, so one transaction: the payment is updated only from
   * `pending` and records `payment-updated`; when it completed, its request is marked paid
   * (`payment-request-updated`) and its open checkout session completed
   * (`checkout-session-completed`; CONTRACT.md: a request paid by any route completes it). When the
   * payment is no longer pending (someone settled it first), nothing changes and its current state
   * is returned. The request row is locked first, the order pay takes its locks in, so a settle
   * and a concurrent pay of the same request queue instead of deadlocking; the database refuses a
   * second completed payment for a request.
   *
   * `request` is the request as read before the bank call; only its status can have changed since,
   * and only through this statement.
   */
  private async settle(
    payment: Payment,
    request: PaymentRequest,
    organizationId: string,
    outcome: Settlement,
  ): Promise<PaymentJson> {
    const { text, values } = settleStatement(payment, request, organizationId, outcome);
    const [row] = await this.sql.rows<SettledRow>(text, values);
    if (!row) return (await this.readPayment(payment.environmentId, payment.id))!;
    if (outcome.status === 'completed' && row.paid !== 1) {
      // Cannot happen while pending payments are unique per request and only this statement pays one.
      this.logger.error(
        { paymentId: payment.id, paymentRequestId: request.id },
        'completed payment of a request that was not pending',
      );
    }
    return toPaymentJson(paymentFromRow(row), request.transactionId);
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
      await this.requestOf(current.paymentRequestId),
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
    const settled = await this.settle(
      payment,
      await this.requestOf(payment.paymentRequestId),
      p.organizationId,
      settlement,
    );
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

  private async requestOf(paymentRequestId: string): Promise<PaymentRequest> {
    const [row] = await this.sql.rows<PaymentRequestRow>('SELECT * FROM payment_requests WHERE id = $1', [
      paymentRequestId,
    ]);
    return fromRow(row);
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
