import type { PaymentMethodType } from './banks/bank';
import type { PaymentStatus } from './payment';
import { raw, Sql, sql, SqlRows, SqlValue } from '../database/sql';
import { environmentKindOf, organizationOfEnvironment } from '../organizations/organizations.fragments';

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

/**
 * SQL after FROM (in parentheses): one row, the Production environment whose enabled transfer
 * method receives at the wallet (`receivingBank`, `receivingPhone`), columns `environment_id` and
 * `organization_id`; both null when no environment has the wallet or several have it (the
 * transfer is then kept for an operator: docs/transfers.md). For the transfers' insert, so a
 * notification finds its environment in the statement that stores it.
 */
export function environmentOfWallet(
  receivingBank: string,
  receivingPhone: string,
): SqlRows<{ environment_id: string | null; organization_id: string | null }> {
  return sql`(SELECT w.environment_id, w.organization_id FROM (VALUES (1)) AS one (x)
      LEFT JOIN (SELECT pm.environment_id, ${organizationOfEnvironment(raw('pm.environment_id'))} AS organization_id,
                        count(*) OVER () AS wallets
                   FROM payment_methods pm
                  WHERE pm.flow = 'transfer' AND pm.enabled AND pm.receiving_bank = ${receivingBank}
                    AND pm.receiving_phone = ${receivingPhone}
                    AND ${environmentKindOf(raw('pm.environment_id'))} = 'production'
                  LIMIT 2) w ON w.wallets = 1)`;
}
