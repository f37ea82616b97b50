/*
 * Pay's statements (the read, opening a payment, settling it) as builders with no framework in them:
 * PaymentsRepository runs them, and the benchmark's bare ceiling server runs the very same ones.
 */
import { randomUUID } from 'node:crypto';
import { empty, join, prepared, raw, Sql, sql } from '../database/sql';
import { KeyRecord, recordOf, recordPaymentWhen } from '../idempotency/idempotency.fragments';
import type { RequestKey } from '../idempotency/request-key';
import { PaymentRequest, PaymentRequestRow, toPaymentRequestJson } from '../payment-requests/payment-request';
import {
  countPaymentWhen,
  lockPayableRequest,
  lockRequest,
  markPaidWhen,
  requestJsonByTransaction,
  transactionIdOf,
} from '../payment-requests/payment-requests.fragments';
import { insertEventWhen } from '../webhooks/outbox';
import { Payment, PaymentJson, PaymentMethod, paymentFromRow, toPaymentJson } from './payment';
import type { Settlement, SettlementExtension, SettlementGate } from './settlement-types';

/** What pay needs of the chosen payment method. */
export type PayMethod = Pick<
  PaymentMethod,
  'id' | 'type' | 'requiresPassCode' | 'flow' | 'receivingBank' | 'receivingPhone'
>;

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

/** What opening a payment is given: the request as read, the payer's bank app and phone, the key. */
export interface Opening {
  request: PaymentRequest;
  methodId: string;
  phoneNumber: string;
  organizationId: string;
  key?: RequestKey;
  /**
   * A transfer method's payment: the wallet the payer is told to pay and until when (docs/transfers.md).
   * The payment takes its request's test clock (`testClockId`), on whose time that claim runs.
   */
  transfer?: TransferClaim;
}

/** What a transfer payment records beside a push payment's columns. */
export interface TransferClaim {
  /** On a test clock, a time of the clock's (its time at pay + the claim window). */
  claimExpiresAt: Date;
  receivingBank: string;
  receivingPhone: string;
}

/** At most this many failed payments per payment request and payer phone ... */
export const MAX_FAILED_PAYMENTS = 5;
/** ... in this window (minutes). */
export const FAILED_PAYMENTS_WINDOW_MINUTES = 15;

export type SettledRow = Record<string, unknown> & { paid: number };

/** SQL on a key's record (alias `k`): the payment it opened with its transactionId (row_to_json). */
const KEYED_PAYMENT = sql`(SELECT row_to_json(x) FROM (SELECT p.*, ${transactionIdOf(raw('p.payment_request_id'))} AS transaction_id
    FROM payments p WHERE p.id = k.payment_id) x)`;

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
    (SELECT json_build_object('id', m.id, 'type', m.type, 'requiresPassCode', m.requires_pass_code, 'flow', m.flow,
                              'receivingBank', m.receiving_bank, 'receivingPhone', m.receiving_phone)
       FROM payment_methods m WHERE m.id = ${methodId} AND m.environment_id = ${environmentId} AND m.enabled) AS method,
    ${requestJsonByTransaction(environmentId, transactionId)} AS request${keyed}`;
  // Prepared: planning it costs about as much as running it (more with a key's part).
  return prepared(statement);
}

/** An Idempotency-Key's record with the payment it opened, alone (see `keyedPaymentJson`). */
export function keyedStatement(key: RequestKey): Sql {
  return sql`SELECT ${recordOf(key, KEYED_PAYMENT)} AS keyed`;
}

/** The payment a key's record joined (`lookUpStatement`), as the API shows it. */
export function keyedPaymentJson(record: KeyRecord): PaymentJson | null {
  const keyed = keyedPayment(record);
  return keyed && toPaymentJson(keyed.payment, keyed.transactionId);
}

/** The payment a key's record joined, with its request's transactionId. */
export function keyedPayment(record: KeyRecord): { payment: Payment; transactionId: string } | null {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- row_to_json of payments + transaction_id
  const r = record.extra as Record<string, any> | null | undefined;
  if (!r) return null;
  const date = (v: string | null) => (v === null ? null : new Date(v));
  const row = {
    ...r,
    completed_at: date(r.completed_at),
    claim_expires_at: date(r.claim_expires_at ?? null),
    next_check_at: date(r.next_check_at),
    created_at: date(r.created_at),
    updated_at: date(r.updated_at),
  };
  return { payment: paymentFromRow(row), transactionId: r.transaction_id as string };
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
export function openStatement(input: Opening): { statement: Sql; payment: Payment } {
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
    claimExpiresAt: input.transfer?.claimExpiresAt ?? null,
    receivingBank: input.transfer?.receivingBank ?? null,
    receivingPhone: input.transfer?.receivingPhone ?? null,
    refundedAmount: 0,
    nextCheckAt: now,
    createdAt: now,
    updatedAt: now,
  };
  const event = insertEventWhen('created', {
    organizationId: input.organizationId,
    environmentId: request.environmentId,
    kind: 'payment-created',
    data: {
      ...toPaymentJson(payment, request.transactionId),
      request: toPaymentRequestJson({ ...request, paymentCount: request.paymentCount + 1 }),
    },
    createdAt: now,
  });
  const statement = sql`WITH req AS (
         ${lockPayableRequest(request.id)}
       ), failures AS (
         SELECT count(*)::int AS n, min(updated_at) AS oldest FROM payments
          WHERE payment_request_id = ${request.id} AND phone_number = ${payment.phoneNumber} AND status = 'failed'
            AND updated_at > now() - make_interval(mins => ${FAILED_PAYMENTS_WINDOW_MINUTES})
       ), created AS (
         INSERT INTO payments (id, environment_id, payment_request_id, payment_method_id, amount, phone_number,
                               status, next_check_at, created_at, updated_at, claim_expires_at, receiving_bank,
                               receiving_phone, test_clock_id)
         SELECT ${payment.id}, ${payment.environmentId}, req.id, ${payment.paymentMethodId}, ${payment.amount},
                ${payment.phoneNumber}, 'pending', ${now}, ${now}, ${now}, ${payment.claimExpiresAt}::timestamptz,
                ${payment.receivingBank}::text, ${payment.receivingPhone}::text, ${request.testClockId}::uuid
           FROM req WHERE (SELECT n FROM failures) < ${MAX_FAILED_PAYMENTS}
         ON CONFLICT (payment_request_id) WHERE status = 'pending' DO NOTHING
         RETURNING id
       ), counted AS (${countPaymentWhen(request.id, sql`EXISTS (SELECT 1 FROM created)`)}
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
  gate?: SettlementGate,
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
  const context = {
    paid: 'paid',
    settled: 'settled',
    at,
    paymentMethodId: expected.paymentMethodId,
    completed,
  };
  const more = join(
    extensions.flatMap((e) => {
      const ctes = e.ctes(context);
      return ctes ? [sql`, ${ctes}`] : [];
    }),
    empty,
  );
  // With a gate: the request locked only while payable, then the payment while pending (`payable`),
  // the gate's own change reading that, and the settlement only when the gate says so.
  const locks = gate
    ? sql`req AS (
         ${lockPayableRequest(request.id)}
       ), payable AS (
         SELECT id FROM payments WHERE id = ${expected.id} AND status = 'pending' AND EXISTS (SELECT 1 FROM req)
            FOR UPDATE
       )${gate.ctes}`
    : sql`req AS (
         ${lockRequest(request.id)}
       )`;
  const statement = sql`WITH ${locks}, settled AS (
         UPDATE payments
            SET status = ${expected.status}, reference_id = COALESCE(${expected.referenceId}, reference_id),
                failure_reason = ${expected.failureReason}, completed_at = ${expected.completedAt}, updated_at = ${at}
          WHERE id = ${expected.id} AND status = 'pending' AND EXISTS (SELECT 1 FROM req)${gate ? sql` AND ${gate.when}` : empty}
         RETURNING *
       ), event AS (${paymentEvent}),
       paid AS (
         ${markPaidWhen(request.id, at, sql`${completed}::boolean AND EXISTS (SELECT 1 FROM settled)`)}
       ), paid_event AS (${requestEvent})${more}
       ${
         gate
           ? sql`SELECT ${gate.select} AS gate, s.* FROM (VALUES (1)) AS one (x)
                   LEFT JOIN (SELECT ${SETTLED_COLUMNS}, (SELECT count(*) FROM paid)::int AS paid FROM settled) s ON true`
           : sql`SELECT ${SETTLED_COLUMNS}, (SELECT count(*) FROM paid)::int AS paid FROM settled`
       }`;
  // Prepared: with the extensions' CTEs, planning this statement costs more than running it.
  return prepared(statement);
}

/** A settled payment's columns, named (a prepared statement's result must not follow the table). */
const SETTLED_COLUMNS = raw(
  'id, environment_id, payment_request_id, payment_method_id, amount, phone_number, status, reference_id, ' +
    'failure_reason, completed_at, refunded_amount, next_check_at, created_at, updated_at, claim_expires_at, ' +
    'receiving_bank, receiving_phone',
);
