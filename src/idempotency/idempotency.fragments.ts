import { raw, Sql, sql, SqlRows, SqlValue } from '../database/sql';
import type { RequestKey } from './request-key';

/*
 * The Idempotency-Key side of another module's statement (pay records its key with the payment it
 * opens, in the opening statement). Declared here, with what each gives.
 */

const recordJson = (extra: Sql) =>
  sql`json_build_object('requestHash', encode(k.request_hash, 'hex'), 'status', k.status, 'body', k.body,
                        'paymentId', k.payment_id, 'extra', ${extra})`;

/** The columns every insert of a key's record starts with: id, environment_id, checkout_session_id, request_hash. */
export const KEY_COLUMNS = raw('id, environment_id, checkout_session_id, request_hash');

/**
 * A scalar subquery: the key's record (`KeyRecord` JSON), null when there is none. `extra` is SQL
 * on the record's alias `k`, returned as its `extra` (pay joins the payment it opened).
 */
export function recordOf(key: RequestKey, extra: Sql = raw('NULL')): SqlValue<KeyRecord | null> {
  return sql`(SELECT ${recordJson(extra)} FROM idempotency_keys k WHERE k.id = ${key.id})`;
}

/**
 * A data-modifying CTE body recording a pay's key with the payment it opened: one record per row
 * of `source` (a CTE returning the payment's `id`). Inserted without ON CONFLICT: a key taken by a
 * concurrent request fails the whole statement (unique violation), so no payment is opened for it.
 */
export function recordPaymentWhen(source: string, key: RequestKey): SqlRows<never> {
  return sql`INSERT INTO idempotency_keys (${KEY_COLUMNS}, payment_id)
    SELECT ${key.id}, ${key.environmentId}, ${key.checkoutSessionId}, ${key.requestHash}, s.id FROM ${raw(source)} s`;
}

/** A key's record, as every statement here returns it (JSON). */
export interface KeyRecord {
  /** HMAC of the first request's method, path and body (hex). */
  requestHash: string;
  /** The first request's answer (both null for a pay, whose answer is its payment). */
  status: number | null;
  body: string | null;
  /** The payment a pay opened. */
  paymentId: string | null;
  /** What the statement that read the record joined to it (`recordOf`'s `extra`). */
  extra?: unknown;
}
