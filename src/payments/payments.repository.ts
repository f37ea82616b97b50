import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { Page } from '../common/pagination';
import { normalizePhone } from '../common/validation/rules';
import { Db } from '../database/db';
import { cursorColumn, KeysetPage, keysetClauses, keysetPage, KeysetQuery } from '../database/keyset';
import { pageRows } from '../database/paging';
import { and, empty, join, prepared, raw, Sql, sql } from '../database/sql';
import { KeyRecord, recordOf, recordPaymentWhen } from '../idempotency/idempotency.repository';
import type { RequestKey } from '../idempotency/request-key';
import type { EnvironmentKind } from '../organizations/tenant';
import {
  fromRow,
  PaymentRequest,
  PaymentRequestRow,
  toPaymentRequestJson,
} from '../payment-requests/payment-request';
import { insertEventWhen } from '../webhooks/outbox';
import type { PaymentMethodType } from './banks/bank';
import { DEFAULT_PAYMENT_METHODS } from './payment-methods.defaults';
import {
  Payment,
  PaymentJson,
  PaymentMethod,
  paymentFromRow,
  paymentMethodFromRow,
  PaymentStatus,
  toPaymentJson,
} from './payment';
import type { Settlement, SettlementExtension } from './settlement';

/** The dashboard's filters of payments; they combine. `q` is a transactionId, an id or a phone number. */
export interface PaymentSearch {
  q?: string;
  status?: PaymentStatus;
  transactionId?: string;
  phoneNumber?: string;
  paymentMethodId?: string;
  from?: Date;
  to?: Date;
  amountMin?: number;
  amountMax?: number;
}

/** A payment as the dashboard lists it: the API's record and the bank app's name. */
export type PaymentListItem = PaymentJson & { methodName: string; methodType: PaymentMethodType };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The payments search of the dashboard, one statement, keyset-paged like payment requests. */
export function paymentSearchStatement(environmentId: string, f: PaymentSearch, page: KeysetQuery): Sql {
  const where = [sql`p.environment_id = ${environmentId}`];
  const byTransaction = (transactionId: string) =>
    sql`p.payment_request_id = (SELECT id FROM payment_requests WHERE environment_id = ${environmentId} AND transaction_id = ${transactionId})`;
  if (f.q !== undefined) {
    const any = [byTransaction(f.q)];
    if (UUID.test(f.q)) any.push(sql`p.id = ${f.q}::uuid`, sql`p.payment_request_id = ${f.q}::uuid`);
    const phone = normalizePhone(f.q);
    if (phone) any.push(sql`p.phone_number = ${phone}`);
    where.push(sql`(${join(any, raw(' OR '))})`);
  }
  if (f.status !== undefined) where.push(sql`p.status = ${f.status}`);
  if (f.transactionId !== undefined) where.push(byTransaction(f.transactionId));
  if (f.phoneNumber !== undefined) where.push(sql`p.phone_number = ${f.phoneNumber}`);
  if (f.paymentMethodId !== undefined) where.push(sql`p.payment_method_id = ${f.paymentMethodId}`);
  if (f.from !== undefined) where.push(sql`p.created_at >= ${f.from}`);
  if (f.to !== undefined) where.push(sql`p.created_at < ${f.to}`);
  if (f.amountMin !== undefined) where.push(sql`p.amount >= ${f.amountMin}`);
  if (f.amountMax !== undefined) where.push(sql`p.amount <= ${f.amountMax}`);
  const k = keysetClauses('p', page);
  return sql`SELECT p.*, pr.transaction_id, pm.name AS method_name, pm.type AS method_type, ${cursorColumn('p')}
    FROM payments p
    JOIN payment_requests pr ON pr.id = p.payment_request_id
    JOIN payment_methods pm ON pm.id = p.payment_method_id
    WHERE ${and([...where, ...k.where])} ORDER BY ${k.orderBy} LIMIT ${k.limit}`;
}

const toListItem = (r: Record<string, unknown>): PaymentListItem => ({
  ...toPaymentJson(paymentFromRow(r), r.transaction_id as string),
  methodName: r.method_name as string,
  methodType: r.method_type as PaymentMethodType,
});

/** What pay needs of the chosen payment method. */
export type PayMethod = Pick<PaymentMethod, 'id' | 'type' | 'requiresPassCode'>;

export interface LookUpRow {
  method: PayMethod | null;
  /** With an Idempotency-Key: its record, with the payment it opened as `extra` (row_to_json). */
  keyed?: KeyRecord | null;
  /** row_to_json: timestamps arrive as strings. */
  request:
    | (Omit<PaymentRequestRow, 'paid_at' | 'voided_at' | 'created_at' | 'updated_at'> & {
        paid_at: string | null;
        voided_at: string | null;
        created_at: string;
        updated_at: string;
      })
    | null;
}

export interface OpenFlags {
  /** The request was still unpaid under its lock. */
  payable: number;
  /** The pending payment was recorded (no other one was pending). */
  opened: number;
  /** Set when the pay-attempt limit refused the payment: seconds until an attempt is allowed again. */
  retry_after: number | null;
}

/** At most this many failed payments per payment request and payer phone ... */
export const MAX_FAILED_PAYMENTS = 5;
/** ... in this window (minutes). */
export const FAILED_PAYMENTS_WINDOW_MINUTES = 15;

export type SettledRow = Record<string, unknown> & { paid: number };

/** A pending payment with what reconciliation needs to ask its bank and settle it. */
export interface PendingPayment {
  payment: Payment;
  organizationId: string;
  environment: EnvironmentKind;
  methodType: PaymentMethodType;
}

/*
 * The statements of pay as builders with no framework in them: the repository runs them, and the
 * benchmark's bare ceiling server runs the very same ones.
 */

/** SQL on a key's record (alias `k`): the payment it opened with its transactionId (row_to_json). */
const KEYED_PAYMENT = raw(`(SELECT row_to_json(x) FROM (SELECT p.*, r.transaction_id FROM payments p
    JOIN payment_requests r ON r.id = p.payment_request_id WHERE p.id = k.payment_id) x)`);

/**
 * Pay's read, one statement: the enabled method and the payment request (unlocked; opening rechecks
 * under the lock) and, with an Idempotency-Key, the key's record and the payment it opened.
 */
export function lookUpStatement(
  environmentId: string,
  methodId: string,
  transactionId: string,
  key?: RequestKey,
): Sql {
  const keyed = key ? sql`, ${recordOf(key, KEYED_PAYMENT)} AS keyed` : empty;
  const statement = sql`SELECT
    (SELECT json_build_object('id', m.id, 'type', m.type, 'requiresPassCode', m.requires_pass_code)
       FROM payment_methods m WHERE m.id = ${methodId} AND m.environment_id = ${environmentId} AND m.enabled) AS method,
    (SELECT row_to_json(pr) FROM payment_requests pr
      WHERE pr.environment_id = ${environmentId} AND pr.transaction_id = ${transactionId}) AS request${keyed}`;
  // Prepared: planning it costs about as much as running it (more with a key's part).
  return prepared(statement);
}

/** The payment a key's record joined (`lookUpStatement`), as the API shows it. */
export function keyedPaymentJson(record: KeyRecord): PaymentJson | null {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- row_to_json of payments + transaction_id
  const r = record.extra as Record<string, any> | null | undefined;
  if (!r) return null;
  const date = (v: string | null) => (v === null ? null : new Date(v));
  return toJson({
    ...r,
    completed_at: date(r.completed_at),
    next_check_at: date(r.next_check_at),
    created_at: date(r.created_at),
    updated_at: date(r.updated_at),
  });
}

/** The request of a look-up row (row_to_json gave its timestamps as text). */
export function requestOfLookUp(r: NonNullable<LookUpRow['request']>): PaymentRequest {
  return fromRow({
    ...r,
    paid_at: r.paid_at === null ? null : new Date(r.paid_at),
    voided_at: r.voided_at === null ? null : new Date(r.voided_at),
    created_at: new Date(r.created_at),
    updated_at: new Date(r.updated_at),
  });
}

/**
 * Opening a payment, one statement: lock the request and recheck it is unpaid, check the
 * pay-attempt limit, insert a new `pending` payment (a partial unique index allows one per
 * request) and its `payment-created` event and, with an Idempotency-Key, record the key with the
 * payment. Returns the payment it records.
 *
 * The limit counts the request's payments from this payer phone that failed in the window (so
 * another phone's failures never lock the customer out; payments_failed_per_phone_idx), as of the statement's
 * snapshot: a payment settled as failed while this statement waited for the request's lock is not
 * counted, so in that race one attempt more than the limit can reach the bank.
 */
export function openStatement(input: {
  request: PaymentRequest;
  methodId: string;
  phoneNumber: string;
  organizationId: string;
  key?: RequestKey;
}): { statement: Sql; payment: Payment } {
  const { request } = input;
  const now = new Date();
  const payment: Payment = {
    id: randomUUID(),
    environmentId: request.environmentId,
    paymentRequestId: request.id,
    paymentMethodId: input.methodId,
    amount: request.amount,
    phoneNumber: input.phoneNumber,
    status: 'pending',
    referenceId: null,
    failureReason: null,
    completedAt: null,
    nextCheckAt: now,
    createdAt: now,
    updatedAt: now,
  };
  const event = insertEventWhen('created', {
    organizationId: input.organizationId,
    environmentId: request.environmentId,
    kind: 'payment-created',
    data: { ...toPaymentJson(payment, request.transactionId), request: toPaymentRequestJson(request) },
    createdAt: now,
  });
  const statement = sql`WITH req AS (
         SELECT id FROM payment_requests WHERE id = ${request.id} AND status = 'pending' AND voided_at IS NULL FOR UPDATE
       ), failures AS (
         SELECT count(*)::int AS n, min(updated_at) AS oldest FROM payments
          WHERE payment_request_id = ${request.id} AND phone_number = ${payment.phoneNumber} AND status = 'failed'
            AND updated_at > now() - make_interval(mins => ${FAILED_PAYMENTS_WINDOW_MINUTES})
       ), created AS (
         INSERT INTO payments (id, environment_id, payment_request_id, payment_method_id, amount, phone_number,
                               status, next_check_at, created_at, updated_at)
         SELECT ${payment.id}, ${payment.environmentId}, req.id, ${payment.paymentMethodId}, ${payment.amount},
                ${payment.phoneNumber}, 'pending', ${now}, ${now}, ${now}
           FROM req WHERE (SELECT n FROM failures) < ${MAX_FAILED_PAYMENTS}
         ON CONFLICT (payment_request_id) WHERE status = 'pending' DO NOTHING
         RETURNING id
       ), event AS (${event})${input.key ? sql`, keyed AS (${recordPaymentWhen('created', input.key)})` : empty}
       SELECT (SELECT count(*) FROM req)::int AS payable, (SELECT count(*) FROM created)::int AS opened,
              (SELECT CASE WHEN n >= ${MAX_FAILED_PAYMENTS} THEN greatest(1, ceil(extract(epoch FROM
                        oldest + make_interval(mins => ${FAILED_PAYMENTS_WINDOW_MINUTES}) - now())))::int END
                 FROM failures) AS retry_after`;
  // Prepared, as the read: planning the CTEs costs more than running them.
  return { payment, statement: prepared(statement) };
}

/**
 * Settling a payment, one statement: lock the request (first, as pay does), move the payment out
 * of `pending` with `payment-updated`; when it completed, mark the request paid with
 * `payment-request-updated` and run the registered settlement extensions (the checkout session,
 * the invoice). No row when the payment was no longer pending. `request` is the request as read
 * before the bank call (only its status can change, and only here).
 */
export function settleStatement(
  payment: Payment,
  request: PaymentRequest,
  organizationId: string,
  outcome: Settlement,
  extensions: readonly SettlementExtension[],
): Sql {
  const at = new Date();
  const completed = outcome.status === 'completed';
  const paidRequest: PaymentRequest = completed
    ? { ...request, status: 'paid', paidAt: at, updatedAt: at }
    : request;
  const expected: Payment = {
    ...payment,
    status: outcome.status,
    referenceId: (completed ? outcome.bankReference : null) ?? payment.referenceId,
    failureReason: outcome.status === 'failed' ? outcome.reason : null,
    completedAt: completed ? at : null,
    updatedAt: at,
  };
  const base = { organizationId, environmentId: payment.environmentId, createdAt: at };
  const paymentEvent = insertEventWhen('settled', {
    ...base,
    kind: 'payment-updated',
    data: { ...toPaymentJson(expected, request.transactionId), request: toPaymentRequestJson(paidRequest) },
  });
  const requestEvent = insertEventWhen('paid', {
    ...base,
    kind: 'payment-request-updated',
    data: toPaymentRequestJson(paidRequest),
  });
  const context = { paid: 'paid', settled: 'settled', at, paymentMethodId: expected.paymentMethodId };
  const more = join(
    extensions.map((e) => sql`, ${e.ctes(context)}`),
    empty,
  );
  const statement = sql`WITH req AS (
         SELECT id FROM payment_requests WHERE id = ${request.id} FOR UPDATE
       ), settled AS (
         UPDATE payments
            SET status = ${expected.status}, reference_id = COALESCE(${expected.referenceId}, reference_id),
                failure_reason = ${expected.failureReason}, completed_at = ${expected.completedAt}, updated_at = ${at}
          WHERE id = ${expected.id} AND status = 'pending' AND EXISTS (SELECT 1 FROM req)
         RETURNING *
       ), event AS (${paymentEvent}),
       paid AS (
         UPDATE payment_requests SET status = 'paid', paid_at = ${at}, updated_at = ${at}
          WHERE id = ${request.id} AND status = 'pending' AND ${completed}::boolean AND EXISTS (SELECT 1 FROM settled)
         RETURNING id
       ), paid_event AS (${requestEvent})${more}
       SELECT ${SETTLED_COLUMNS}, (SELECT count(*) FROM paid)::int AS paid FROM settled`;
  // Prepared: with the extensions' CTEs, planning this statement costs more than running it.
  return prepared(statement);
}

/** A settled payment's columns, named (a prepared statement's result must not follow the table). */
const SETTLED_COLUMNS = raw(
  'id, environment_id, payment_request_id, payment_method_id, amount, phone_number, status, reference_id, ' +
    'failure_reason, completed_at, next_check_at, created_at, updated_at',
);

const PAYMENT_COLUMNS = raw('p.*, pr.transaction_id');
const PAYMENT_FROM = raw('FROM payments p JOIN payment_requests pr ON pr.id = p.payment_request_id');

const toJson = (r: Record<string, unknown>) => toPaymentJson(paymentFromRow(r), r.transaction_id as string);

/** Payments and payment methods. */
@Injectable()
export class PaymentsRepository {
  constructor(private readonly db: Db) {}

  async lookUp(environmentId: string, methodId: string, transactionId: string, key?: RequestKey) {
    const row = await this.db.one<LookUpRow>(lookUpStatement(environmentId, methodId, transactionId, key));
    return {
      method: row!.method,
      request: row!.request ? requestOfLookUp(row!.request) : null,
      keyed: row!.keyed ?? null,
    };
  }

  /** An Idempotency-Key's record with the payment it opened (see `keyedPaymentJson`). */
  async keyed(key: RequestKey): Promise<KeyRecord | null> {
    const row = await this.db.one<{ keyed: KeyRecord | null }>(
      sql`SELECT ${recordOf(key, KEYED_PAYMENT)} AS keyed`,
    );
    return row!.keyed;
  }

  async open(statement: Sql): Promise<OpenFlags> {
    return (await this.db.one<OpenFlags>(statement))!;
  }

  settle(statement: Sql): Promise<SettledRow | undefined> {
    return this.db.one<SettledRow>(statement);
  }

  /** The bank's reference of a payment it holds as pending. */
  async setReference(id: string, referenceId: string): Promise<void> {
    await this.db.exec(
      sql`UPDATE payments SET reference_id = ${referenceId} WHERE id = ${id} AND status = 'pending'`,
    );
  }

  async byId(id: string): Promise<Payment | undefined> {
    const row = await this.db.one(sql`SELECT * FROM payments WHERE id = ${id}`);
    return row && paymentFromRow(row);
  }

  /** The payment as the API shows it (with its request's transactionId). */
  async json(environmentId: string, id: string): Promise<PaymentJson | undefined> {
    const row = await this.db.one(
      sql`SELECT ${PAYMENT_COLUMNS} ${PAYMENT_FROM} WHERE p.id = ${id} AND p.environment_id = ${environmentId}`,
    );
    return row && toJson(row);
  }

  /** Newest first; filters combine. */
  async list(
    environmentId: string,
    filter: { transactionId?: string; paymentRequestId?: string; status?: PaymentStatus },
    page: Page,
  ): Promise<{ items: PaymentJson[]; total: number }> {
    const where = [sql`p.environment_id = ${environmentId}`];
    if (filter.transactionId !== undefined) where.push(sql`pr.transaction_id = ${filter.transactionId}`);
    if (filter.paymentRequestId !== undefined)
      where.push(sql`p.payment_request_id = ${filter.paymentRequestId}`);
    if (filter.status !== undefined) where.push(sql`p.status = ${filter.status}`);
    const { rows, total } = await pageRows<Record<string, unknown>>(
      this.db,
      {
        select: PAYMENT_COLUMNS,
        from: sql`${PAYMENT_FROM} WHERE ${and(where)}`,
        orderBy: sql`p.created_at DESC, p.id DESC`,
      },
      page,
    );
    return { items: rows.map(toJson), total };
  }

  /** A page of the dashboard's payments search (see paymentSearchStatement). */
  async search(
    environmentId: string,
    filter: PaymentSearch,
    page: KeysetQuery,
  ): Promise<KeysetPage<PaymentListItem>> {
    const rows = await this.db.many<Record<string, unknown> & { cursor: string }>(
      paymentSearchStatement(environmentId, filter, page),
    );
    const result = keysetPage(rows, page);
    return { ...result, items: result.items.map(toListItem) };
  }

  /** Every payment of a request, newest first, with its bank app. */
  async ofRequest(environmentId: string, paymentRequestId: string): Promise<PaymentListItem[]> {
    const rows = await this.db.many(sql`
      SELECT p.*, pr.transaction_id, pm.name AS method_name, pm.type AS method_type
        FROM payments p
        JOIN payment_requests pr ON pr.id = p.payment_request_id
        JOIN payment_methods pm ON pm.id = p.payment_method_id
       WHERE p.payment_request_id = ${paymentRequestId} AND p.environment_id = ${environmentId}
       ORDER BY p.created_at DESC, p.id DESC`);
    return rows.map(toListItem);
  }

  /** Every bank app of the environment, enabled or not, in display order. */
  async methods(environmentId: string): Promise<PaymentMethod[]> {
    const rows = await this.db.many(
      sql`SELECT * FROM payment_methods WHERE environment_id = ${environmentId} ORDER BY position, name`,
    );
    return rows.map(paymentMethodFromRow);
  }

  /**
   * Claims up to `limit` pending payments at least `minAgeMs` old and due for a check, pushing
   * their next check `retryAfterMs` away (the claim: other instances skip them).
   */
  async claimForReconciliation(minAgeMs: number, limit: number, retryAfterMs: number): Promise<string[]> {
    const rows = await this.db.many<{ id: string }>(sql`
      WITH due AS (
        SELECT id FROM payments
         WHERE status = 'pending' AND next_check_at <= now() AND created_at <= now() - ${minAgeMs}::int * interval '1 millisecond'
         ORDER BY next_check_at
         LIMIT ${limit}
         FOR UPDATE SKIP LOCKED
      )
      UPDATE payments p SET next_check_at = now() + ${retryAfterMs}::int * interval '1 millisecond'
        FROM due WHERE p.id = due.id
      RETURNING p.id`);
    return rows.map((r) => r.id);
  }

  /** Pending payments, oldest first, with their bank app and environment. */
  async pending(filter: { ids: string[] } | { paymentRequestId: string }): Promise<PendingPayment[]> {
    const condition =
      'ids' in filter
        ? sql`p.id = ANY(${filter.ids}::uuid[])`
        : sql`p.payment_request_id = ${filter.paymentRequestId}`;
    const rows = await this.db.many(sql`
      SELECT p.*, pm.type AS method_type, e.kind AS environment_kind, e.organization_id
        FROM payments p
        JOIN payment_methods pm ON pm.id = p.payment_method_id
        JOIN environments e ON e.id = p.environment_id
       WHERE p.status = 'pending' AND ${condition}
       ORDER BY p.created_at`);
    return rows.map((r) => ({
      payment: paymentFromRow(r),
      organizationId: r.organization_id as string,
      environment: r.environment_kind as EnvironmentKind,
      methodType: r.method_type as PaymentMethodType,
    }));
  }

  /** The request a payment pays. */
  async requestOf(paymentRequestId: string): Promise<PaymentRequest> {
    const row = await this.db.one<PaymentRequestRow>(
      sql`SELECT * FROM payment_requests WHERE id = ${paymentRequestId}`,
    );
    return fromRow(row!);
  }

  /** The bank apps enabled for the environment, in display order. */
  async enabledMethods(environmentId: string): Promise<PaymentMethod[]> {
    const rows = await this.db.many(sql`
      SELECT * FROM payment_methods WHERE environment_id = ${environmentId} AND enabled ORDER BY position, name`);
    return rows.map(paymentMethodFromRow);
  }

  async enabledMethod(environmentId: string, id: string): Promise<PaymentMethod | undefined> {
    const row = await this.db.one(
      sql`SELECT * FROM payment_methods WHERE id = ${id} AND environment_id = ${environmentId} AND enabled`,
    );
    return row && paymentMethodFromRow(row);
  }

  /** A new environment's bank apps (SPEC.md's three). */
  async insertDefaultMethods(environmentId: string): Promise<void> {
    const methods = DEFAULT_PAYMENT_METHODS.map((m, i) => ({
      type: m.type,
      name: m.name,
      requires_pass_code: m.requiresPassCode,
      position: i + 1,
    }));
    await this.db.exec(sql`
      INSERT INTO payment_methods (environment_id, type, name, requires_pass_code, code, position)
      SELECT ${environmentId}, m.type, m.name, m.requires_pass_code, m.type, m.position
        FROM jsonb_to_recordset(${JSON.stringify(methods)}::jsonb) AS m(type text, name text, requires_pass_code boolean, position integer)`);
  }
}
