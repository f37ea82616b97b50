import { randomUUID } from 'node:crypto';
import { completeOpenSessionWhen } from '../checkout/session-transitions';
import {
  fromRow,
  PaymentRequest,
  PaymentRequestRow,
  toPaymentRequestJson,
} from '../payment-requests/payment-request.entity';
import { recordEventWhen } from '../webhooks/outbox';
import { Payment, PaymentMethod, toPaymentJson } from './payment.entity';

/**
 * The statements of pay, as plain SQL builders with no framework in them: PaymentsService runs
 * them, and the benchmark's bare ceiling server runs the very same ones.
 */

export interface Statement {
  text: string;
  values: unknown[];
}

/** What pay needs of the chosen payment method. */
export type PayMethod = Pick<PaymentMethod, 'id' | 'type' | 'requiresPassCode'>;

/** Pay's read: the enabled method and the payment request, unlocked ($1 environment, $2 method id, $3 transactionId). */
export const LOOK_UP_SQL = `SELECT
    (SELECT json_build_object('id', m.id, 'type', m.type, 'requiresPassCode', m.requires_pass_code)
       FROM payment_methods m WHERE m.id = $2 AND m.environment_id = $1 AND m.enabled) AS method,
    (SELECT row_to_json(pr) FROM payment_requests pr WHERE pr.environment_id = $1 AND pr.transaction_id = $3) AS request`;

export interface LookUpRow {
  method: PayMethod | null;
  /** row_to_json: timestamps arrive as strings. */
  request:
    | (Omit<PaymentRequestRow, 'paid_at' | 'created_at' | 'updated_at'> & {
        paid_at: string | null;
        created_at: string;
        updated_at: string;
      })
    | null;
}

/** The request of a look-up row, as an entity (row_to_json gave its timestamps as text). */
export function requestOfLookUp(r: NonNullable<LookUpRow['request']>): PaymentRequest {
  return fromRow({
    ...r,
    paid_at: r.paid_at === null ? null : new Date(r.paid_at),
    created_at: new Date(r.created_at),
    updated_at: new Date(r.updated_at),
  });
}

export interface OpenFlags {
  /** The request was still unpaid under its lock. */
  payable: number;
  /** The pending payment was recorded (no other one was pending). */
  opened: number;
}

/**
 * Opening a payment, one statement: lock the request and recheck it is unpaid, insert a new
 * `pending` payment (a partial unique index allows one per request) and its `payment-created`
 * event. Returns the payment it records.
 */
export function openStatement(input: {
  request: PaymentRequest;
  methodId: string;
  phoneNumber: string;
  organizationId: string;
}): Statement & { payment: Payment } {
  const { request } = input;
  const now = new Date();
  const payment = Object.assign(new Payment(), {
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
  } satisfies Payment);
  const e = recordEventWhen('created', 8, {
    organizationId: input.organizationId,
    environmentId: request.environmentId,
    kind: 'payment-created',
    data: { ...toPaymentJson(payment, request.transactionId), request: toPaymentRequestJson(request) },
    createdAt: now,
  });
  return {
    payment,
    text: `WITH req AS (
         SELECT id FROM payment_requests WHERE id = $3 AND status = 'pending' FOR UPDATE
       ), created AS (
         INSERT INTO payments (id, environment_id, payment_request_id, payment_method_id, amount, phone_number,
                               status, next_check_at, created_at, updated_at)
         SELECT $1, $2, req.id, $4, $5, $6, 'pending', $7, $7, $7 FROM req
         ON CONFLICT (payment_request_id) WHERE status = 'pending' DO NOTHING
         RETURNING id
       ), event AS (${e.sql})
       SELECT (SELECT count(*) FROM req)::int AS payable, (SELECT count(*) FROM created)::int AS opened`,
    values: [
      payment.id,
      payment.environmentId,
      payment.paymentRequestId,
      payment.paymentMethodId,
      payment.amount,
      payment.phoneNumber,
      now,
      ...e.params,
    ],
  };
}

/** How a payment ends: the bank took the money, or it did not. */
export type Settlement =
  { status: 'completed'; bankReference: string | null } | { status: 'failed'; reason: string };

export type SettledRow = Record<string, unknown> & { paid: number };

/**
 * Settling a payment, one statement: lock the request (first, as pay does), move the payment out
 * of `pending` with `payment-updated`; when it completed, mark the request paid with
 * `payment-request-updated` and complete its open checkout session with
 * `checkout-session-completed`. No row when the payment was no longer pending. `request` is the
 * request as read before the bank call (only its status can change, and only here).
 */
export function settleStatement(
  payment: Payment,
  request: PaymentRequest,
  organizationId: string,
  outcome: Settlement,
): Statement {
  const at = new Date();
  const completed = outcome.status === 'completed';
  const paidRequest = completed
    ? Object.assign(new PaymentRequest(), {
        ...request,
        status: 'paid',
        paidAt: at,
        updatedAt: at,
      } satisfies PaymentRequest)
    : request;
  const expected = Object.assign(new Payment(), {
    ...payment,
    status: outcome.status,
    referenceId: (completed ? outcome.bankReference : null) ?? payment.referenceId,
    failureReason: outcome.status === 'failed' ? outcome.reason : null,
    completedAt: completed ? at : null,
    updatedAt: at,
  } satisfies Payment);
  const base = { organizationId, environmentId: payment.environmentId, createdAt: at };
  const paymentEvent = recordEventWhen('settled', 9, {
    ...base,
    kind: 'payment-updated',
    data: { ...toPaymentJson(expected, request.transactionId), request: toPaymentRequestJson(paidRequest) },
  });
  const requestEvent = recordEventWhen('paid', 15, {
    ...base,
    kind: 'payment-request-updated',
    data: toPaymentRequestJson(paidRequest),
  });
  const session = completeOpenSessionWhen('paid', 21);
  return {
    text: `WITH req AS (
         SELECT id FROM payment_requests WHERE id = $8 FOR UPDATE
       ), settled AS (
         UPDATE payments
            SET status = $2, reference_id = COALESCE($3, reference_id), failure_reason = $4, completed_at = $5, updated_at = $6
          WHERE id = $1 AND status = 'pending' AND EXISTS (SELECT 1 FROM req)
         RETURNING *
       ), event AS (${paymentEvent.sql}),
       paid AS (
         UPDATE payment_requests SET status = 'paid', paid_at = $6, updated_at = $6
          WHERE id = $8 AND status = 'pending' AND $7 AND EXISTS (SELECT 1 FROM settled)
         RETURNING id
       ), paid_event AS (${requestEvent.sql}),
       ${session.sql}
       SELECT settled.*, (SELECT count(*) FROM paid)::int AS paid FROM settled`,
    values: [
      expected.id,
      expected.status,
      expected.referenceId,
      expected.failureReason,
      expected.completedAt,
      at,
      completed,
      request.id,
      ...paymentEvent.params,
      ...requestEvent.params,
      ...session.params(at, expected.paymentMethodId),
    ],
  };
}
