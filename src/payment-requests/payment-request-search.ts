import { normalizePhone } from '../common/validation/rules';
import { cursorColumn, keysetClauses, KeysetQuery } from '../database/keyset';
import { and, join, raw, Sql, sql } from '../database/sql';
import { PaymentRequestStatus } from './payment-request';

/* The dashboard's search of payment requests: its filters and its one statement (bench/dashboard.ts reads its plans). */

/** The dashboard's filters; they combine. `q` is a transactionId, an id or a phone number. */
export interface PaymentRequestSearch {
  q?: string;
  status?: PaymentRequestStatus;
  transactionId?: string;
  phoneNumber?: string;
  /** created_at >= from */
  from?: Date;
  /** created_at < to */
  to?: Date;
  amountMin?: number;
  amountMax?: number;
  /** The requests of one payment link. */
  paymentLinkId?: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The search of the dashboard, one statement: the filters, then a keyset page in the list's order
 * (docs/dashboard.md shows its plans over 1,000,000 requests). `q` matches exactly: a transactionId,
 * an id (when it is a UUID) or a phone number (when it normalises to one).
 */
export function searchStatement(environmentId: string, f: PaymentRequestSearch, page: KeysetQuery): Sql {
  const where = [sql`pr.environment_id = ${environmentId}`];
  if (f.q !== undefined) {
    const any = [sql`pr.transaction_id = ${f.q}`];
    if (UUID.test(f.q)) any.push(sql`pr.id = ${f.q}::uuid`);
    const phone = normalizePhone(f.q);
    if (phone) any.push(sql`pr.phone_number = ${phone}`);
    where.push(any.length === 1 ? any[0] : sql`(${join(any, raw(' OR '))})`);
  }
  if (f.status !== undefined) where.push(sql`pr.status = ${f.status}`);
  if (f.transactionId !== undefined) where.push(sql`pr.transaction_id = ${f.transactionId}`);
  if (f.phoneNumber !== undefined) where.push(sql`pr.phone_number = ${f.phoneNumber}`);
  if (f.from !== undefined) where.push(sql`pr.created_at >= ${f.from}`);
  if (f.to !== undefined) where.push(sql`pr.created_at < ${f.to}`);
  if (f.amountMin !== undefined) where.push(sql`pr.amount >= ${f.amountMin}`);
  if (f.amountMax !== undefined) where.push(sql`pr.amount <= ${f.amountMax}`);
  if (f.paymentLinkId !== undefined) where.push(sql`pr.payment_link_id = ${f.paymentLinkId}`);
  const k = keysetClauses('pr', page);
  return sql`SELECT pr.*, ${cursorColumn('pr')} FROM payment_requests pr
    WHERE ${and([...where, ...k.where])} ORDER BY ${k.orderBy} LIMIT ${k.limit}`;
}
