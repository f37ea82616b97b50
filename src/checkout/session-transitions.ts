import { DataSource } from 'typeorm';
import { conflict } from '../common/errors/app-error';
import { Messages } from '../common/errors/messages';
import { Queryable, recordEvent } from '../webhooks/outbox';
import {
  CheckoutSession,
  CheckoutSessionJson,
  CheckoutSessionStatus,
  SESSION_COLUMNS,
  toCheckoutSessionJson,
} from './checkout-session.entity';

/*
 * A session's state changes that other domains start (payments completes a session; the page's
 * pay locks it), and the expiry ones, as plain SQL on the caller's transaction. Kept apart from
 * the services so payments can import them without importing the checkout module.
 *
 * Lock order, everywhere: the payment request row first, then the session row.
 */

type SessionWithOrganization = CheckoutSession & { organizationId: string };

/**
 * SQL on alias `s`: no payment of the session's request is waiting for the bank. A session with a
 * pending payment neither expires nor cancels: it waits for the payment's outcome (docs/checkout.md).
 * Only meaningful once the request row is locked (see `lockRequestOf`), which pay holds while it
 * records a pending payment.
 */
export const NO_PENDING_PAYMENT = `NOT EXISTS (SELECT 1 FROM payments p WHERE p.payment_request_id = s.payment_request_id AND p.status = 'pending')`;

/**
 * Locks the payment request of a session, the lock pay and settle take first. Session changes
 * that depend on payments (expire, cancel) take it before touching the session, in that order.
 */
export async function lockRequestOf(q: Queryable, sessionId: string): Promise<void> {
  await q.query(
    `SELECT pr.id FROM payment_requests pr JOIN checkout_sessions s ON s.payment_request_id = pr.id
      WHERE s.id = $1 FOR UPDATE OF pr`,
    [sessionId],
  );
}

/** Expires the session if it is open, past its deadline and no payment is pending. */
export async function expireIfDue(q: Queryable, sessionId: string): Promise<void> {
  await lockRequestOf(q, sessionId);
  await expireWhere(q, `s.id = $1 AND s.expires_at <= now() AND ${NO_PENDING_PAYMENT}`, [sessionId]);
}

/**
 * Pay's guard for the hosted page (PaymentsService.pay runs it on its transaction, the request
 * row already locked): the session must still be open and before its deadline, checked under the
 * session's row lock, so a session expired at use time, by the job or cancelled is never paid.
 * Records the bank app the customer chose.
 */
export async function lockSessionForPayment(
  q: Queryable,
  sessionId: string,
  paymentRequestId: string,
  paymentMethodId: string,
): Promise<void> {
  const rows = (await q.query(
    `SELECT s.status, s.expires_at <= now() AS due FROM checkout_sessions s
      WHERE s.id = $1 AND s.payment_request_id = $2 FOR UPDATE`,
    [sessionId, paymentRequestId],
  )) as { status: CheckoutSessionStatus; due: boolean }[];
  const session = rows[0];
  if (!session || session.status !== 'open' || session.due) throw conflict(Messages.checkoutSessionNotOpen);
  await q.query(
    `UPDATE checkout_sessions SET selected_configuration_id = $2, updated_at = now() WHERE id = $1`,
    [sessionId, paymentMethodId],
  );
}

/**
 * Moves the open sessions selected by `condition` (SQL on alias `s`) to `expired` and records a
 * `checkout-session-expired` event for each, on the caller's transaction.
 */
export async function expireWhere(
  q: Queryable,
  condition: string,
  params: unknown[],
): Promise<CheckoutSession[]> {
  const rows = (await q.query(
    `UPDATE checkout_sessions s SET status = 'expired', updated_at = now()
      WHERE s.status = 'open' AND ${condition}
      RETURNING ${SESSION_COLUMNS},
        (SELECT e.organization_id FROM environments e WHERE e.id = s.environment_id) AS "organizationId"`,
    params,
  )) as [SessionWithOrganization[], number];
  const sessions = rows[0];
  for (const s of sessions) {
    await recordEvent(q, {
      organizationId: s.organizationId,
      environmentId: s.environmentId,
      kind: 'checkout-session-expired',
      data: toCheckoutSessionJson(s),
    });
  }
  return sessions.map(({ organizationId: _, ...s }) => s);
}

/** An ISO 8601 UTC string with milliseconds, as JavaScript's toISOString() writes it. */
const iso = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * `toCheckoutSessionJson` in SQL, for events recorded in the statement that changes the session.
 * A test compares the two, so they cannot drift apart.
 */
export const sessionJsonSql = (s: string) => `jsonb_build_object(
  'id', ${s}.id, 'paymentRequestId', ${s}.payment_request_id, 'status', ${s}.status,
  'successUrl', ${s}.success_url, 'cancelUrl', ${s}.cancel_url, 'expiresAt', ${iso(`${s}.expires_at`)},
  'environmentId', ${s}.environment_id, 'selectedConfigurationId', ${s}.selected_configuration_id,
  'completedAt', ${iso(`${s}.completed_at`)}, 'createdAt', ${iso(`${s}.created_at`)}, 'updatedAt', ${iso(`${s}.updated_at`)})`;

/**
 * CTEs completing the open session of the payment requests the CTE named `source` returns (column
 * `id`) and recording `checkout-session-completed`, for the statement that pays a request, so
 * the payment, the request and the session change in one transaction. `at` numbers the first of
 * its two parameters (the time, and the payment method the customer paid with or null). Adds the
 * CTE `completed_session`.
 */
export function completeOpenSessionWhen(source: string, at: number) {
  return {
    sql: `completed_session AS (
         UPDATE checkout_sessions s
            SET status = 'completed', completed_at = $${at}, updated_at = $${at},
                selected_configuration_id = COALESCE($${at + 1}, s.selected_configuration_id)
          WHERE s.payment_request_id IN (SELECT id FROM ${source}) AND s.status = 'open'
         RETURNING s.*
       ), completed_session_event AS (
         INSERT INTO events (id, organization_id, environment_id, kind, data, created_at)
         SELECT gen_random_uuid(), e.organization_id, s.environment_id, 'checkout-session-completed', ${sessionJsonSql('s')}, $${at}
           FROM completed_session s JOIN environments e ON e.id = s.environment_id
       )`,
    params: (time: Date, paymentMethodId: string | null): unknown[] => [time, paymentMethodId],
  };
}

/**
 * Completes the open session of a payment request and records `checkout-session-completed`, on
 * the caller's transaction (or as one statement). Null when the request has no open session.
 */
export async function completeOpenSession(
  q: Queryable,
  paymentRequestId: string,
  options: { paymentMethodId?: string | null } = {},
): Promise<CheckoutSessionJson | null> {
  const cte = completeOpenSessionWhen('request', 2);
  const rows = (await q.query(
    `WITH request AS (SELECT $1::uuid AS id), ${cte.sql}
     SELECT ${SESSION_COLUMNS.replace(/\bs\./g, 'completed_session.')} FROM completed_session`,
    [paymentRequestId, ...cte.params(new Date(), options.paymentMethodId ?? null)],
  )) as CheckoutSession[];
  return rows[0] ? toCheckoutSessionJson(rows[0]) : null;
}

/**
 * Expires every open session past its deadline, `batch` at a time, safe with several instances at
 * once: each run claims the sessions' payment requests (SKIP LOCKED, the lock pay takes first), so
 * a payment being started is waited for by nobody and seen by the recheck once committed.
 * Sessions with a pending payment wait for its outcome.
 */
export async function expireDueSessions(ds: DataSource, batch = 500): Promise<number> {
  let total = 0;
  for (;;) {
    const { claimed, expired } = await ds.transaction(async (m) => {
      const requests = await m.query<{ id: string }[]>(
        `SELECT pr.id FROM payment_requests pr
          WHERE pr.id IN (SELECT s.payment_request_id FROM checkout_sessions s
                           WHERE s.status = 'open' AND s.expires_at <= now() AND ${NO_PENDING_PAYMENT}
                           ORDER BY s.expires_at LIMIT $1)
          FOR UPDATE OF pr SKIP LOCKED`,
        [batch],
      );
      if (requests.length === 0) return { claimed: 0, expired: [] };
      const done = await expireWhere(
        m,
        `s.payment_request_id = ANY($1) AND s.expires_at <= now() AND ${NO_PENDING_PAYMENT}`,
        [requests.map((r) => r.id)],
      );
      return { claimed: requests.length, expired: done };
    });
    total += expired.length;
    if (claimed < batch || expired.length === 0) return total;
  }
}
