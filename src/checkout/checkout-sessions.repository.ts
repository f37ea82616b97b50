import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { Db } from '../database/db';
import { raw, Sql, sql } from '../database/sql';
import { ENVIRONMENTS_WITH_ORGANIZATIONS } from '../organizations/organizations.fragments';
import {
  claimRequestsIn,
  lockRequestsIn,
  paymentRequestRows,
  voidLinkRequestsIn,
} from '../payment-requests/payment-requests.fragments';
import type { PaymentStatus } from '../payments/payment';
import { hasPendingPayment, latestPaymentStatusOf } from '../payments/payments.fragments';
import { completeOpenSessionCtes, sessionEvents } from './checkout.fragments';
import { CheckoutSession, CheckoutSessionStatus, PayableSession, SESSION_COLUMNS } from './checkout-session';

/** What the hosted page needs to know about a session: the session, its request, its merchant. */
export interface PageSessionRow extends PayableSession, CheckoutSession {
  phoneNumber: string | null;
  merchantName: string;
  /** The merchant's public support phone ('' when none) and website, as its owner set them. */
  merchantPhone: string;
  merchantWebsite: string | null;
  /** The status of the request's latest payment, null before any. */
  paymentStatus: PaymentStatus | null;
  /** The payment link the request was made for, if any. */
  paymentLinkId: string | null;
}

/*
 * Lock order, everywhere: the payment request row first, then the session row.
 */

/**
 * SQL on alias `s`: no payment of the session's request is waiting for the bank. A session with a
 * pending payment neither expires nor cancels: it waits for the payment's outcome (docs/checkout.md).
 * Only meaningful once the request row is locked, which pay holds while it records a pending payment.
 */
const NO_PENDING_PAYMENT = sql`NOT ${hasPendingPayment(raw('s.payment_request_id'))}`;

@Injectable()
export class CheckoutSessionsRepository {
  constructor(private readonly db: Db) {}

  /** Every session of a payment request, newest first. */
  ofRequest(environmentId: string, paymentRequestId: string): Promise<CheckoutSession[]> {
    return this.db.many<CheckoutSession>(sql`
      SELECT ${SESSION_COLUMNS} FROM checkout_sessions s
       WHERE s.payment_request_id = ${paymentRequestId} AND s.environment_id = ${environmentId}
       ORDER BY s.created_at DESC, s.id DESC`);
  }

  async inEnvironment(environmentId: string, id: string): Promise<CheckoutSession | undefined> {
    return this.db.one<CheckoutSession>(
      sql`SELECT ${SESSION_COLUMNS} FROM checkout_sessions s WHERE s.id = ${id} AND s.environment_id = ${environmentId}`,
    );
  }

  /** The open session of a request, if any, with whether it is past its deadline and whether the bank has a payment of it. */
  openOf(paymentRequestId: string) {
    return this.db.one<CheckoutSession & { due: boolean; paying: boolean }>(sql`
      SELECT ${SESSION_COLUMNS}, s.expires_at <= now() AS due, NOT ${NO_PENDING_PAYMENT} AS paying
        FROM checkout_sessions s WHERE s.payment_request_id = ${paymentRequestId} AND s.status = 'open'`);
  }

  async insert(input: {
    paymentRequestId: string;
    environmentId: string;
    successUrl: string | null;
    cancelUrl: string | null;
    expiresInMinutes: number;
    selectedConfigurationId?: string | null;
  }): Promise<CheckoutSession> {
    return (await this.db.one<CheckoutSession>(sql`
      INSERT INTO checkout_sessions AS s (id, payment_request_id, environment_id, success_url, cancel_url, expires_at,
                                          selected_configuration_id)
      VALUES (${randomUUID()}, ${input.paymentRequestId}, ${input.environmentId}, ${input.successUrl}, ${input.cancelUrl},
              now() + make_interval(mins => ${input.expiresInMinutes}), ${input.selectedConfigurationId ?? null})
      RETURNING ${SESSION_COLUMNS}`))!;
  }

  async forPage(id: string): Promise<PageSessionRow | undefined> {
    return this.db.one<PageSessionRow>(sql`
      SELECT s.id, s.status, s.payment_request_id AS "paymentRequestId", s.environment_id AS "environmentId",
             e.kind AS environment, e.organization_id AS "organizationId", pr.transaction_id AS "transactionId",
             pr.amount, pr.phone_number AS "phoneNumber", pr.payment_link_id AS "paymentLinkId",
             o.name AS "merchantName", s.success_url AS "successUrl",
             o.verification_status AS verification, o.support_phone AS "merchantPhone", o.website AS "merchantWebsite",
             s.cancel_url AS "cancelUrl", s.expires_at AS "expiresAt",
             s.selected_configuration_id AS "selectedConfigurationId", s.completed_at AS "completedAt",
             s.created_at AS "createdAt", s.updated_at AS "updatedAt",
             ${latestPaymentStatusOf(raw('s.payment_request_id'))} AS "paymentStatus"
        FROM checkout_sessions s
        JOIN ${paymentRequestRows('pr')} ON pr.id = s.payment_request_id
        JOIN (${ENVIRONMENTS_WITH_ORGANIZATIONS}) ON e.id = s.environment_id
       WHERE s.id = ${id}`);
  }

  /**
   * Locks the payment request of a session, the lock pay and settle take first. Session changes
   * that depend on payments (expire, cancel) take it before touching the session.
   */
  async lockRequestOf(sessionId: string): Promise<void> {
    await this.db.exec(
      lockRequestsIn(sql`SELECT s.payment_request_id FROM checkout_sessions s WHERE s.id = ${sessionId}`),
    );
  }

  /** Locks a session of the request; its status and whether it is past its deadline. */
  lockForPayment(sessionId: string, paymentRequestId: string) {
    return this.db.one<{ status: CheckoutSessionStatus; due: boolean }>(sql`
      SELECT s.status, s.expires_at <= now() AS due FROM checkout_sessions s
       WHERE s.id = ${sessionId} AND s.payment_request_id = ${paymentRequestId} FOR UPDATE`);
  }

  async selectMethod(sessionId: string, paymentMethodId: string): Promise<void> {
    await this.db.exec(
      sql`UPDATE checkout_sessions SET selected_configuration_id = ${paymentMethodId}, updated_at = now() WHERE id = ${sessionId}`,
    );
  }

  /**
   * Moves the open sessions selected by `condition` (SQL on alias `s`) to `expired` and records a
   * `checkout-session-expired` event for each, in one statement, which also makes void the payment
   * link requests among theirs (their places are free again: docs/payment-links.md).
   */
  private expireWhere(condition: Sql): Promise<CheckoutSession[]> {
    return this.db.many<CheckoutSession>(sql`
      WITH expired AS (
        UPDATE checkout_sessions s SET status = 'expired', updated_at = now()
         WHERE s.status = 'open' AND ${condition}
        RETURNING s.*
      ), event AS (${sessionEvents(raw('expired s'), 'checkout-session-expired', raw('now()'))}),
      link_requests AS (${voidLinkRequestsIn(sql`SELECT payment_request_id FROM expired`, raw('now()'))})
      SELECT ${SESSION_COLUMNS} FROM expired s`);
  }

  expire(id: string): Promise<CheckoutSession[]> {
    return this.expireWhere(sql`s.id = ${id}`);
  }

  /** Expires the session if it is past its deadline and no payment is pending (the request must be locked). */
  expireIfDue(id: string): Promise<CheckoutSession[]> {
    return this.expireWhere(sql`s.id = ${id} AND s.expires_at <= now() AND ${NO_PENDING_PAYMENT}`);
  }

  /** Claims (SKIP LOCKED) the payment requests of up to `limit` sessions due to expire. */
  async claimDueRequests(limit: number): Promise<string[]> {
    const rows = await this.db.many<{ id: string }>(
      claimRequestsIn(sql`SELECT s.payment_request_id FROM checkout_sessions s
                           WHERE s.status = 'open' AND s.expires_at <= now() AND ${NO_PENDING_PAYMENT}
                           ORDER BY s.expires_at LIMIT ${limit}`),
    );
    return rows.map((r) => r.id);
  }

  expireDueOf(paymentRequestIds: string[]): Promise<CheckoutSession[]> {
    return this.expireWhere(
      sql`s.payment_request_id = ANY(${paymentRequestIds}::uuid[]) AND s.expires_at <= now() AND ${NO_PENDING_PAYMENT}`,
    );
  }

  /** Cancels an open session; a payment link's request of it becomes void, as when a session expires. */
  async cancelOpen(id: string): Promise<boolean> {
    const row = await this.db.one<{ cancelled: number }>(sql`
      WITH cancelled AS (
        UPDATE checkout_sessions SET status = 'cancelled', updated_at = now() WHERE id = ${id} AND status = 'open'
        RETURNING payment_request_id
      ), link_requests AS (${voidLinkRequestsIn(sql`SELECT payment_request_id FROM cancelled`, raw('now()'))})
      SELECT count(*)::int AS cancelled FROM cancelled`);
    return (row?.cancelled ?? 0) > 0;
  }

  /**
   * Completes the open session of a payment request and records `checkout-session-completed`
   * (the settlement extension's statement on its own, for callers outside a payment). Null when
   * the request has no open session.
   */
  async completeOpenSession(
    paymentRequestId: string,
    paymentMethodId: string | null = null,
  ): Promise<CheckoutSession | null> {
    const ctes = completeOpenSessionCtes({
      paid: 'request',
      settled: 'request',
      at: new Date(),
      paymentMethodId,
      completed: true,
    });
    const row = await this.db.one<CheckoutSession>(sql`
      WITH request AS (SELECT ${paymentRequestId}::uuid AS id), ${ctes}
      SELECT ${SESSION_COLUMNS} FROM checkout_completed s`);
    return row ?? null;
  }
}
