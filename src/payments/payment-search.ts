import { normalizePhone } from '../common/validation/rules';
import { cursorColumn, keysetClauses, KeysetQuery } from '../database/keyset';
import { and, join, raw, Sql, sql } from '../database/sql';
import { requestIdByTransaction, transactionIdOf } from '../payment-requests/payment-requests.fragments';
import type { PaymentMethodType } from './banks/bank';
import { PaymentJson, paymentFromRow, PaymentStatus, toPaymentJson } from './payment';

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
    sql`p.payment_request_id = ${requestIdByTransaction(environmentId, transactionId)}`;
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
  return sql`SELECT p.*, ${transactionIdOf(raw('p.payment_request_id'))} AS transaction_id, pm.name AS method_name,
           pm.type AS method_type, ${cursorColumn('p')}
    FROM payments p
    JOIN payment_methods pm ON pm.id = p.payment_method_id
    WHERE ${and([...where, ...k.where])} ORDER BY ${k.orderBy} LIMIT ${k.limit}`;
}

export const toListItem = (r: Record<string, unknown>): PaymentListItem => ({
  ...toPaymentJson(paymentFromRow(r), r.transaction_id as string),
  methodName: r.method_name as string,
  methodType: r.method_type as PaymentMethodType,
});
