import { completeOpenSessionWhen } from '../checkout/session-transitions';
import { NewEvent, recordEventWhen } from '../webhooks/outbox';
import type { PaymentRequestRow } from '../payment-requests/payment-request.entity';
import type { Payment, PaymentMethod } from './payment.entity';

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

export interface OpenFlags {
  /** The request was still unpaid under its lock. */
  payable: number;
  /** The pending payment was recorded (no other one was pending). */
  opened: number;
}

/**
 * Opening a payment, one statement: lock the request and recheck it is unpaid, insert the
 * `pending` payment (a partial unique index allows one per request) and its `payment-created` event.
 */
export function openStatement(payment: Payment, event: NewEvent): Statement {
  const e = recordEventWhen('created', 8, event);
  return {
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
      payment.createdAt,
      ...e.params,
    ],
  };
}

export type SettledRow = Record<string, unknown> & { paid: number };

/**
 * Settling a payment, one statement: lock the request (first, as pay does), move the payment out
 * of `pending` to `expected`'s state with `payment-updated`; when it completed, mark the request
 * paid with `payment-request-updated` and complete its open checkout session with
 * `checkout-session-completed`. No row when the payment was no longer pending.
 */
export function settleStatement(
  expected: Payment,
  completed: boolean,
  at: Date,
  events: { payment: NewEvent; request: NewEvent },
): Statement {
  const paymentEvent = recordEventWhen('settled', 9, events.payment);
  const requestEvent = recordEventWhen('paid', 15, events.request);
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
      expected.paymentRequestId,
      ...paymentEvent.params,
      ...requestEvent.params,
      ...session.params(at, expected.paymentMethodId),
    ],
  };
}
