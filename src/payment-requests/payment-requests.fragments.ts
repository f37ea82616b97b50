import type { PaymentRequestRow } from './payment-request';
import { raw, Sql, sql, SqlRows, SqlValue } from '../database/sql';

/*
 * The payment_requests side of other modules' statements (pay and settlement in payments, voiding in
 * invoices, checkout sessions, payment links, billing batches): declared here, with what each gives,
 * so that a statement spanning two modules stays one round trip while each table keeps one owner.
 * Everything else of payment_requests is PaymentRequestsRepository's.
 */

/**
 * Many payment requests at once, for set-based work (a billing batch), as a data-modifying CTE
 * body returning their ids: one request per row of `source` (SQL after FROM), whose columns are
 * id, environment_id, transaction_id, amount, phone_number, invoice_id, application_fee,
 * test_clock_id (its invoice's test clock, or null) and created_at. The caller records their
 * `payment-request-created` events in the same statement.
 */
export function insertRequestsFrom(source: Sql): SqlRows<{ id: string }> {
  return sql`INSERT INTO payment_requests (id, environment_id, transaction_id, amount, phone_number, invoice_id, application_fee, test_clock_id, created_at, updated_at)
    SELECT id, environment_id, transaction_id, amount, phone_number, invoice_id, application_fee, test_clock_id, created_at, created_at FROM ${source}
    RETURNING id`;
}

/** SQL: the request with this transactionId as row_to_json (its timestamps as text), or null. */
export function requestJsonByTransaction(
  environmentId: string,
  transactionId: string,
): SqlValue<Record<string, unknown> | null> {
  return sql`(SELECT row_to_json(pr) FROM payment_requests pr
      WHERE pr.environment_id = ${environmentId} AND pr.transaction_id = ${transactionId})`;
}

/**
 * SQL after FROM or JOIN: the payment requests, as `alias`, for a statement of another module that
 * shows its own rows with their request's transaction_id, amount and phone_number (the hosted pages).
 */
export function paymentRequestRows(alias: string): SqlRows<PaymentRequestRow> {
  return raw(`payment_requests ${alias}`);
}

/** SQL: the application fee of a request (`id`, SQL naming it; null: none), for the ledger's settlement. */
export function applicationFeeOf(id: Sql): SqlValue<number | null> {
  return sql`(SELECT application_fee FROM payment_requests WHERE id = ${id})`;
}

/** SQL: the transactionId of a request (`id`, SQL naming it), for other modules' statements. */
export function transactionIdOf(id: Sql): SqlValue<string> {
  return sql`(SELECT transaction_id FROM payment_requests WHERE id = ${id})`;
}

/** SQL: the id of the environment's request with this transactionId (null: none). */
export function requestIdByTransaction(
  environmentId: string,
  transactionId: string,
): SqlValue<string | null> {
  return sql`(SELECT id FROM payment_requests WHERE environment_id = ${environmentId} AND transaction_id = ${transactionId})`;
}

/** A SELECT locking (`FOR UPDATE`) the requests whose ids `ids` selects. */
export function lockRequestsIn(ids: Sql): SqlRows<{ id: string }> {
  return sql`SELECT id FROM payment_requests WHERE id IN (${ids}) FOR UPDATE`;
}

/** A SELECT claiming the requests whose ids `ids` selects: locked (`FOR UPDATE`) unless another holds one (`SKIP LOCKED`). */
export function claimRequestsIn(ids: Sql): SqlRows<{ id: string }> {
  return sql`SELECT id FROM payment_requests WHERE id IN (${ids}) FOR UPDATE SKIP LOCKED`;
}

/**
 * A SELECT locking (`FOR UPDATE`) the pending requests whose ids `ids` selects, in id order (the
 * order every set-based lock of requests takes, so two of them queue rather than deadlock).
 */
export function lockPendingRequestsIn(ids: Sql): SqlRows<{ id: string }> {
  return sql`SELECT id FROM payment_requests WHERE id IN (${ids}) AND status = 'pending' ORDER BY id FOR UPDATE`;
}

/** A SELECT locking the request (`FOR UPDATE`) when it can still be paid: pending and not void. */
export function lockPayableRequest(id: string): SqlRows<{ id: string }> {
  return sql`SELECT id FROM payment_requests WHERE id = ${id} AND status = 'pending' AND voided_at IS NULL FOR UPDATE`;
}

/** A SELECT locking the request (`FOR UPDATE`), the first lock of every change to its payments. */
export function lockRequest(id: string): SqlRows<{ id: string }> {
  return sql`SELECT id FROM payment_requests WHERE id = ${id} FOR UPDATE`;
}

/**
 * A data-modifying CTE body counting one more payment opened for the request when `condition`
 * holds (pay's opening statement, which holds the request's row lock): its `retryCount`.
 */
export function countPaymentWhen(id: string, condition: Sql): SqlRows<{ id: string }> {
  return sql`UPDATE payment_requests SET payment_count = payment_count + 1 WHERE id = ${id} AND ${condition} RETURNING id`;
}

/** A data-modifying CTE body marking the pending request paid when `condition` holds; returns its id. */
export function markPaidWhen(id: string, at: Date, condition: Sql): SqlRows<{ id: string }> {
  return sql`UPDATE payment_requests SET status = 'paid', paid_at = ${at}, updated_at = ${at}
          WHERE id = ${id} AND status = 'pending' AND ${condition}
         RETURNING id`;
}

/**
 * A data-modifying CTE body setting the pending request's amount and application fee (an invoice
 * partly paid by hand: what is still due, and the fee on it, `feeStillDue`).
 */
export function setPendingAmount(
  id: string,
  amount: number,
  applicationFee: number | null,
  at: Date,
): SqlRows<{ id: string }> {
  return sql`UPDATE payment_requests SET amount = ${amount}, application_fee = ${applicationFee}::int, updated_at = ${at}
          WHERE id = ${id} AND status = 'pending'
         RETURNING id`;
}

/**
 * A data-modifying CTE body marking the pending request paid by hand (an invoice's last payment
 * recorded by hand): no money passed through Khoums, so a fee it asked becomes 0.
 */
export function markPaidByHand(id: string, at: Date): SqlRows<{ id: string }> {
  return sql`UPDATE payment_requests SET status = 'paid', paid_at = ${at}, updated_at = ${at},
                 application_fee = CASE WHEN application_fee IS NULL THEN NULL ELSE 0 END
          WHERE id = ${id} AND status = 'pending'
         RETURNING id`;
}

/** A data-modifying CTE body making the pending requests whose ids `ids` selects unpayable (`voided_at`). */
export function voidRequestsIn(ids: Sql, at: Date): SqlRows<never> {
  return sql`UPDATE payment_requests pr SET voided_at = ${at}, updated_at = ${at}
       WHERE pr.id IN (${ids}) AND pr.status = 'pending'`;
}

/*
 * Payment links' parts (docs/payment-links.md): a link's request is paid only through the checkout
 * session it was made with, and is void once that session ends unpaid, so a link's places taken are
 * its requests that are not void. All three read payment_requests_link_idx.
 */

/**
 * A data-modifying CTE body making void the pending payment-link requests among those whose ids
 * `ids` selects (their sessions ended unpaid: expired or cancelled), which frees their places.
 */
export function voidLinkRequestsIn(ids: Sql, at: Sql): SqlRows<{ id: string }> {
  return sql`UPDATE payment_requests pr SET voided_at = ${at}, updated_at = ${at}
       WHERE pr.id IN (${ids}) AND pr.payment_link_id IS NOT NULL AND pr.status = 'pending' AND pr.voided_at IS NULL
      RETURNING pr.id`;
}

/**
 * SQL: a link's (`linkId`, SQL naming it) places as `json_build_object(paid, taken)`: its requests
 * paid, and its places taken (paid, or with a session still open). Only a link with `max_payments`
 * needs it, and has at most that many (more only after its limit was lowered). Under the link's row
 * lock, read in a statement of its own: a statement's snapshot must follow the lock for the count to
 * see the previous holder's request.
 */
export function linkPlacesOf(linkId: Sql): SqlValue<{ paid: number; taken: number }> {
  return sql`(SELECT json_build_object('paid', count(*) FILTER (WHERE status = 'paid'), 'taken', count(*))
      FROM payment_requests WHERE payment_link_id = ${linkId} AND voided_at IS NULL)`;
}

/** SQL: a link's (`linkId`, SQL naming it) paid requests as `json_build_object(count, amount)`: the record's totals. */
export function linkTotalsOf(linkId: Sql): SqlValue<{ count: number; amount: number }> {
  return sql`(SELECT json_build_object('count', count(*)::int, 'amount', COALESCE(sum(amount), 0)::bigint)
      FROM payment_requests WHERE payment_link_id = ${linkId} AND status = 'paid')`;
}

/** A data-modifying CTE body deleting these requests (SQL selecting ids), with their payments (ON DELETE CASCADE). */
export function deleteRequestsIn(ids: Sql): SqlRows<{ id: string }> {
  return sql`DELETE FROM payment_requests WHERE id IN (${ids}) RETURNING id`;
}
