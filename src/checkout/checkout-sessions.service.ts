import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import type { Tenant } from '../auth/tenant';
import { badRequest, conflict, notFound } from '../common/errors/app-error';
import { Messages } from '../common/errors/messages';
import { AppConfig } from '../config/config';
import { PaymentRequestStatus } from '../payment-requests/payment-request.entity';
import {
  assertAmount,
  assertPhone,
  PaymentRequestsService,
} from '../payment-requests/payment-requests.service';
import type { Queryable } from '../webhooks/outbox';
import {
  CheckoutSession,
  CheckoutSessionJson,
  CheckoutSessionStatus,
  SESSION_COLUMNS,
  toCheckoutSessionJson,
} from './checkout-session.entity';
import type { PaymentStatus } from '../payments/payment.entity';
import { CheckoutPayments, PayableSession, PaymentMethodChoice } from './checkout-payments';
import type { CreateCheckoutSessionDto } from './dto/checkout-session.dto';
import { expireIfDue, expireWhere, lockRequestOf, NO_PENDING_PAYMENT } from './session-transitions';

export const DEFAULT_EXPIRES_IN_MINUTES = 30;

/** A session with what the hosted page shows: the request's amount, the merchant's name. */
export interface PageSession extends PayableSession {
  status: CheckoutSessionStatus;
  phoneNumber: string | null;
  merchantName: string;
  successUrl: string | null;
  cancelUrl: string | null;
  expiresAt: Date;
  /** The status of the request's latest payment, null before any. */
  paymentStatus: PaymentStatus | null;
}

/** The public view for the page's polling: no keys, URLs or environment internals. */
export interface PublicCheckoutSession {
  id: string;
  status: CheckoutSessionStatus;
  amount: number;
  currency: 'MRU';
  transactionId: string;
  merchantName: string;
  livemode: boolean;
  expiresAt: string;
  /** The bank apps the customer can choose from (no configuration, no secrets). */
  methods: PaymentMethodChoice[];
}

export interface CheckoutPaymentStatus {
  status: CheckoutSessionStatus;
  paymentStatus: PaymentStatus | null;
  /** Where the page sends the customer now that the session is over, when the merchant gave a URL. */
  redirectUrl?: string;
}

/** successUrl with the session id and transactionId appended, keeping the merchant's own query. */
export function successRedirect(
  s: Pick<PageSession, 'id' | 'transactionId' | 'successUrl'>,
): string | undefined {
  if (!s.successUrl) return undefined;
  const url = new URL(s.successUrl);
  url.searchParams.set('session_id', s.id);
  url.searchParams.set('transactionId', s.transactionId);
  return url.toString();
}

interface LockedRequest {
  id: string;
  status: PaymentRequestStatus;
}

@Injectable()
export class CheckoutSessionsService {
  constructor(
    private readonly ds: DataSource,
    private readonly config: AppConfig,
    private readonly paymentRequests: PaymentRequestsService,
    private readonly payments: CheckoutPayments,
  ) {}

  checkoutUrl(id: string): string {
    return `${this.config.publicUrl}/checkout/${id}`;
  }

  /**
   * SPEC.md "Checkout session" rules 1–6. The payment request's row lock serialises concurrent
   * creates for one request, so they all get the same open session; the partial unique index
   * keeps the invariant even if a future path forgets the lock.
   */
  async create(tenant: Tenant, dto: CreateCheckoutSessionDto): Promise<CheckoutSessionJson> {
    if (dto.paymentRequestId === undefined && dto.transactionId === undefined) {
      throw badRequest(Messages.eitherPaymentRequestOrTransaction);
    }
    const phoneNumber =
      dto.paymentRequestId === undefined && dto.phoneNumber !== undefined
        ? assertPhone(dto.phoneNumber)
        : null;
    const minutes = dto.expiresInMinutes ?? DEFAULT_EXPIRES_IN_MINUTES;

    return this.ds.transaction(async (m) => {
      const pr =
        dto.paymentRequestId !== undefined
          ? await this.lockRequest(m, tenant, 'id', dto.paymentRequestId)
          : await this.lockOrCreateRequest(m, tenant, dto.transactionId!, dto.amount, phoneNumber);
      if (!pr) throw notFound(Messages.paymentRequestNotFound);
      if (pr.status === 'paid') throw conflict(Messages.paymentRequestAlreadyPaid);

      const [open] = await m.query<(CheckoutSession & { due: boolean; paying: boolean })[]>(
        `SELECT ${SESSION_COLUMNS}, s.expires_at <= now() AS due, NOT ${NO_PENDING_PAYMENT} AS paying
           FROM checkout_sessions s WHERE s.payment_request_id = $1 AND s.status = 'open'`,
        [pr.id],
      );
      if (open && (!open.due || open.paying)) return toCheckoutSessionJson(open);
      if (open) await expireWhere(m, 's.id = $1', [open.id]);

      const [created] = await m.query<CheckoutSession[]>(
        `INSERT INTO checkout_sessions AS s (id, payment_request_id, environment_id, success_url, cancel_url, expires_at)
         VALUES ($1, $2, $3, $4, $5, now() + make_interval(mins => $6))
         RETURNING ${SESSION_COLUMNS}`,
        [randomUUID(), pr.id, tenant.environmentId, dto.successUrl ?? null, dto.cancelUrl ?? null, minutes],
      );
      return toCheckoutSessionJson(created);
    });
  }

  /** A session of the key's environment; one past its deadline is expired first (rule: expired at use time). */
  async get(tenant: Tenant, id: string): Promise<CheckoutSessionJson> {
    const session = await this.findInEnvironment(this.ds, tenant, id);
    if (session.status === 'open' && session.expiresAt.getTime() <= Date.now()) {
      return this.ds.transaction(async (m) => {
        await expireIfDue(m, id);
        return toCheckoutSessionJson(await this.findInEnvironment(m, tenant, id));
      });
    }
    return toCheckoutSessionJson(session);
  }

  /**
   * POST /checkout-session/:id/expire: an open session (even one already past its deadline) becomes
   * expired; 409 while a payment is pending, whose outcome decides the session.
   */
  async expire(tenant: Tenant, id: string): Promise<CheckoutSessionJson> {
    return this.ds.transaction(async (m) => {
      await this.findInEnvironment(m, tenant, id);
      await lockRequestOf(m, id);
      if ((await this.loadPageSession(m, id)).paymentStatus === 'pending')
        throw conflict(Messages.paymentInProgress);
      const [expired] = await expireWhere(m, 's.id = $1', [id]);
      if (!expired) throw conflict(Messages.checkoutSessionNotOpen);
      return toCheckoutSessionJson(expired);
    });
  }

  /** The session as the hosted page shows it; an open one past its deadline is expired first. */
  async forPage(id: string): Promise<PageSession> {
    const session = await this.loadPageSession(this.ds, id);
    if (
      session.status === 'open' &&
      session.paymentStatus !== 'pending' &&
      session.expiresAt.getTime() <= Date.now()
    ) {
      return this.ds.transaction(async (m) => {
        await expireIfDue(m, id);
        return this.loadPageSession(m, id);
      });
    }
    return session;
  }

  /**
   * The customer's Cancel: 409 `Checkout session is not open` when it is no longer open (paid,
   * expired, cancelled), 409 `A payment ... is already in progress` while the bank has a payment.
   */
  async cancel(id: string): Promise<PageSession> {
    return this.ds.transaction(async (m) => {
      await this.loadPageSession(m, id);
      await expireIfDue(m, id);
      const current = await this.loadPageSession(m, id);
      if (current.status === 'open' && current.paymentStatus === 'pending')
        throw conflict(Messages.paymentInProgress);
      const [[cancelled]] = await m.query<[{ id: string }[], number]>(
        `UPDATE checkout_sessions SET status = 'cancelled', updated_at = now()
          WHERE id = $1 AND status = 'open' RETURNING id`,
        [id],
      );
      if (!cancelled) throw conflict(Messages.checkoutSessionNotOpen);
      return this.loadPageSession(m, id);
    });
  }

  async publicView(id: string): Promise<PublicCheckoutSession> {
    const s = await this.forPage(id);
    return {
      id: s.id,
      status: s.status,
      amount: s.amount,
      currency: 'MRU',
      transactionId: s.transactionId,
      merchantName: s.merchantName,
      livemode: s.environment === 'production',
      expiresAt: s.expiresAt.toISOString(),
      methods: s.status === 'open' ? await this.payments.listMethods(s.environmentId) : [],
    };
  }

  async paymentStatus(id: string): Promise<CheckoutPaymentStatus> {
    const s = await this.forPage(id);
    const redirectUrl =
      s.status === 'completed'
        ? successRedirect(s)
        : s.status === 'cancelled'
          ? (s.cancelUrl ?? undefined)
          : undefined;
    return { status: s.status, paymentStatus: s.paymentStatus, ...(redirectUrl ? { redirectUrl } : {}) };
  }

  private async findInEnvironment(q: Queryable, tenant: Tenant, id: string): Promise<CheckoutSession> {
    const [session] = (await q.query(
      `SELECT ${SESSION_COLUMNS} FROM checkout_sessions s WHERE s.id = $1 AND s.environment_id = $2`,
      [id, tenant.environmentId],
    )) as CheckoutSession[];
    if (!session) throw notFound(Messages.checkoutSessionNotFound);
    return session;
  }

  private async loadPageSession(q: Queryable, id: string): Promise<PageSession> {
    const [row] = (await q.query(
      `SELECT s.id, s.status, s.payment_request_id AS "paymentRequestId", s.environment_id AS "environmentId",
              e.kind AS environment, e.organization_id AS "organizationId", pr.transaction_id AS "transactionId", pr.amount, pr.phone_number AS "phoneNumber",
              o.name AS "merchantName", s.success_url AS "successUrl", s.cancel_url AS "cancelUrl", s.expires_at AS "expiresAt",
              (SELECT p.status FROM payments p WHERE p.payment_request_id = s.payment_request_id
                ORDER BY p.created_at DESC, p.id DESC LIMIT 1) AS "paymentStatus"
         FROM checkout_sessions s
         JOIN payment_requests pr ON pr.id = s.payment_request_id
         JOIN environments e ON e.id = s.environment_id
         JOIN organizations o ON o.id = e.organization_id
        WHERE s.id = $1`,
      [id],
    )) as PageSession[];
    if (!row) throw notFound(Messages.checkoutSessionNotFound);
    return row;
  }

  private async lockRequest(
    m: EntityManager,
    tenant: Tenant,
    by: 'id' | 'transaction_id',
    value: string,
  ): Promise<LockedRequest | undefined> {
    const [row] = await m.query<LockedRequest[]>(
      `SELECT id, status FROM payment_requests WHERE ${by} = $1 AND environment_id = $2 FOR UPDATE`,
      [value, tenant.environmentId],
    );
    return row;
  }

  /** Rules 1, 2, 6: an existing transactionId reuses its request (amount ignored); a new one needs an amount. */
  private async lockOrCreateRequest(
    m: EntityManager,
    tenant: Tenant,
    transactionId: string,
    amount: number | undefined,
    phoneNumber: string | null,
  ): Promise<LockedRequest | undefined> {
    const existing = await this.lockRequest(m, tenant, 'transaction_id', transactionId);
    if (existing) return existing;
    if (amount === undefined) throw badRequest(Messages.amountRequiredForNewTransaction);
    assertAmount(amount);
    // A concurrent create of the same transactionId makes this insert wait, then do nothing;
    // the look-up below then finds (and locks) the winner's committed request.
    await this.paymentRequests.insert(m, tenant, { transactionId, amount, phoneNumber });
    return this.lockRequest(m, tenant, 'transaction_id', transactionId);
  }
}
