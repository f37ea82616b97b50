import type { PaymentMethodType } from './banks/bank';
import type { PaymentStatus } from './payment';
import { raw, Sql, sql, SqlRows, SqlValue } from '../database/sql';

/*
 * The payments side of other modules' statements (checkout sessions, invoices, the ledger's report
 * and check): what they need to know of a request's payments, read in their own statement. Declared
 * here, with what each gives; everything else of payments is PaymentsRepository's.
 */

/** SQL: whether a payment of the request (`paymentRequestId`, SQL naming it) is waiting for the bank. */
export function hasPendingPayment(paymentRequestId: Sql): SqlValue<boolean> {
  return sql`EXISTS (SELECT 1 FROM payments pay WHERE pay.payment_request_id = ${paymentRequestId} AND pay.status = 'pending')`;
}

/** SQL: the status of the request's (`paymentRequestId`, SQL naming it) latest payment, null before any. */
export function latestPaymentStatusOf(paymentRequestId: Sql): SqlValue<PaymentStatus | null> {
  return sql`(SELECT pay.status FROM payments pay WHERE pay.payment_request_id = ${paymentRequestId}
               ORDER BY pay.created_at DESC, pay.id DESC LIMIT 1)`;
}

/**
 * SQL after FROM or JOIN (LATERAL): the payment `paymentId` (SQL naming it) with the type of the
 * bank app it was paid with, columns `method` (the type) and `status`, for the ledger's settlement
 * report and check.
 */
export function paymentMethodOf(
  paymentId: Sql,
): SqlRows<{ method: PaymentMethodType; status: PaymentStatus }> {
  return sql`(SELECT pm.type AS method, pay.status FROM payments pay
      JOIN payment_methods pm ON pm.id = pay.payment_method_id WHERE pay.id = ${paymentId})`;
}

/**
 * SQL after FROM (in parentheses): every completed payment, columns `id`, `environment_id`,
 * `amount`, `refunded_amount`, for the ledger's check.
 */
export const COMPLETED_PAYMENTS: SqlRows<{
  id: string;
  environment_id: string;
  amount: number;
  refunded_amount: number;
  payment_request_id: string;
}> = raw(`(SELECT id, environment_id, amount, refunded_amount, payment_request_id FROM payments
  WHERE status = 'completed')`);
