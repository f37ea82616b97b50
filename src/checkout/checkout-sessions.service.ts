import { applicationFeeOf, assertFeeAllowed } from '../payment-requests/application-fee';
import { Injectable } from '@nestjs/common';
import type { Tenant } from '../auth/tenant';
import { assertAmount, assertPhone } from '../common/validation/rules';
import { AppConfig } from '../config/config';
import { Db } from '../database/db';
import {
  PaymentRequestError,
  paymentRequestError,
  voidRequestError,
} from '../payment-requests/payment-requests.errors';
import { LockedRequest, PaymentRequestsRepository } from '../payment-requests/payment-requests.repository';
import { PaymentRequestsService } from '../payment-requests/payment-requests.service';
import { PaymentError, paymentError } from '../payments/payments.errors';
import { CheckoutError, checkoutError } from './checkout.errors';
import { CheckoutPayments, PaymentMethodChoice } from './checkout-payments';
import {
  CheckoutPaymentStatusJson,
  CheckoutSession,
  CheckoutSessionJson,
  PublicCheckoutSessionJson,
  toCheckoutSessionJson,
} from './checkout-session';
import { CheckoutSessionsRepository, PageSessionRow } from './checkout-sessions.repository';
import type { CreateCheckoutSessionDto } from './dto/checkout-session.dto';

export const DEFAULT_EXPIRES_IN_MINUTES = 30;

/** A session with what the hosted page shows: the request's amount, the merchant's name. */
export type PageSession = PageSessionRow;

/**
 * cancelUrl as a Location header can carry it. Stored encoded since sessions are created so;
 * one stored before (an Arabic path as given) is encoded here.
 */
export function cancelRedirect(s: Pick<PageSession, 'cancelUrl'>): string | undefined {
  return s.cancelUrl ? new URL(s.cancelUrl).href : undefined;
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

/** What the hosted page polls: the session as the customer may see it, with the bank apps to choose from. */
export function publicViewOf(s: PageSession, methods: PaymentMethodChoice[]): PublicCheckoutSessionJson {
  return {
    id: s.id,
    status: s.status,
    amount: s.amount,
    currency: 'MRU',
    transactionId: s.transactionId,
    merchantName: s.merchantName,
    livemode: s.environment === 'production',
    expiresAt: s.expiresAt.toISOString(),
    methods: s.status === 'open' ? methods : [],
  };
}

/** The session's status, its latest payment's, and where the page sends the customer once it is over. */
export function paymentStatusOf(s: PageSession): CheckoutPaymentStatusJson {
  const redirectUrl =
    s.status === 'completed' ? successRedirect(s) : s.status === 'cancelled' ? cancelRedirect(s) : undefined;
  return { status: s.status, paymentStatus: s.paymentStatus, ...(redirectUrl ? { redirectUrl } : {}) };
}

@Injectable()
export class CheckoutSessionsService {
  constructor(
    private readonly db: Db,
    private readonly config: AppConfig,
    private readonly repo: CheckoutSessionsRepository,
    private readonly paymentRequests: PaymentRequestsService,
    private readonly requests: PaymentRequestsRepository,
    private readonly payments: CheckoutPayments,
  ) {}

  checkoutUrl(id: string): string {
    return `${this.config.publicUrl}/checkout/${id}`;
  }

  /**
   * An existing transactionId reuses its payment request (a new one needs an amount: 400); an
   * open session of the request is returned; a paid request is 409; only secret keys create
   * sessions (403); so a retried creation is safe (docs/checkout.md). The payment request's row
   * lock serialises concurrent creates for one request, so they all get the same open session;
   * the partial unique index keeps the invariant even if a future path forgets the lock.
   */
  async create(tenant: Tenant, dto: CreateCheckoutSessionDto): Promise<CheckoutSessionJson> {
    if (dto.paymentRequestId === undefined && dto.transactionId === undefined) {
      throw checkoutError(CheckoutError.EitherPaymentRequestOrTransaction);
    }
    const phoneNumber =
      dto.paymentRequestId === undefined && dto.phoneNumber !== undefined
        ? assertPhone(dto.phoneNumber)
        : null;
    const minutes = dto.expiresInMinutes ?? DEFAULT_EXPIRES_IN_MINUTES;
    if (dto.applicationFee !== undefined && dto.applicationFee !== null) assertFeeAllowed(tenant);

    return this.db.transaction(async () => {
      const pr =
        dto.paymentRequestId !== undefined
          ? await this.requests.lock(tenant.environmentId, { id: dto.paymentRequestId })
          : await this.lockOrCreateRequest(
              tenant,
              dto.transactionId!,
              dto.amount,
              phoneNumber,
              dto.applicationFee,
            );
      if (!pr) throw paymentRequestError(PaymentRequestError.NotFound);
      if (pr.status === 'paid') throw paymentRequestError(PaymentRequestError.AlreadyPaid);
      if (pr.voided) throw voidRequestError(pr);
      // An existing request takes the fee the session names (docs/platforms.md).
      if (
        dto.applicationFee !== undefined &&
        dto.applicationFee !== null &&
        dto.applicationFee !== pr.applicationFee
      ) {
        applicationFeeOf(tenant, dto.applicationFee, pr.amount);
        await this.paymentRequests.setApplicationFee(tenant, pr.id, dto.applicationFee);
      }

      const open = await this.repo.openOf(pr.id);
      if (open && (!open.due || open.paying)) return toCheckoutSessionJson(open);
      // A payment link's request is paid only through the session it was made with: once that
      // session is over, so is the request (docs/payment-links.md), and its place is freed.
      if (pr.paymentLinkId) throw voidRequestError(pr);
      if (open) await this.repo.expire(open.id);

      const created = await this.repo.insert({
        paymentRequestId: pr.id,
        environmentId: tenant.environmentId,
        successUrl: dto.successUrl ?? null,
        cancelUrl: dto.cancelUrl ?? null,
        expiresInMinutes: minutes,
      });
      return toCheckoutSessionJson(created);
    });
  }

  /**
   * Opens the session of a payment request just made in the caller's transaction, which holds
   * whatever lock its maker needs (a payment link's: docs/payment-links.md). No other session of
   * the request can exist yet.
   */
  async openForNewRequest(input: {
    paymentRequestId: string;
    environmentId: string;
    successUrl: string;
    cancelUrl: string;
    /** The payment method the customer already chose, checked on the hosted page. */
    selectedConfigurationId: string | null;
  }): Promise<CheckoutSessionJson> {
    return toCheckoutSessionJson(
      await this.repo.insert({ ...input, expiresInMinutes: DEFAULT_EXPIRES_IN_MINUTES }),
    );
  }

  /** A session of the key's environment; one past its deadline is expired first (rule: expired at use time). */
  async get(tenant: Tenant, id: string): Promise<CheckoutSessionJson> {
    const session = await this.findInEnvironment(tenant, id);
    if (session.status === 'open' && session.expiresAt.getTime() <= Date.now()) {
      return this.db.transaction(async () => {
        await this.repo.lockRequestOf(id);
        await this.repo.expireIfDue(id);
        return toCheckoutSessionJson(await this.findInEnvironment(tenant, id));
      });
    }
    return toCheckoutSessionJson(session);
  }

  /** Every session of a payment request of the environment, newest first. */
  ofRequest(environmentId: string, paymentRequestId: string): Promise<CheckoutSession[]> {
    return this.repo.ofRequest(environmentId, paymentRequestId);
  }

  /**
   * POST /checkout-session/:id/expire: an open session (even one already past its deadline) becomes
   * expired; 409 while a payment is pending, whose outcome decides the session.
   */
  async expire(tenant: Tenant, id: string): Promise<CheckoutSessionJson> {
    return this.db.transaction(async () => {
      await this.findInEnvironment(tenant, id);
      await this.repo.lockRequestOf(id);
      if ((await this.loadPageSession(id)).paymentStatus === 'pending')
        throw paymentError(PaymentError.InProgress);
      const [expired] = await this.repo.expire(id);
      if (!expired) throw checkoutError(CheckoutError.NotOpen);
      return toCheckoutSessionJson(expired);
    });
  }

  /** The session as the hosted page shows it; an open one past its deadline is expired first. */
  async forPage(id: string): Promise<PageSession> {
    const session = await this.loadPageSession(id);
    if (
      session.status === 'open' &&
      session.paymentStatus !== 'pending' &&
      session.expiresAt.getTime() <= Date.now()
    ) {
      return this.db.transaction(async () => {
        await this.repo.lockRequestOf(id);
        await this.repo.expireIfDue(id);
        return this.loadPageSession(id);
      });
    }
    return session;
  }

  /**
   * The customer's Cancel: 409 `Checkout session is not open` when it is no longer open (paid,
   * expired, cancelled), 409 `A payment ... is already in progress` while the bank has a payment.
   */
  async cancel(id: string): Promise<PageSession> {
    return this.db.transaction(async () => {
      await this.loadPageSession(id);
      await this.repo.lockRequestOf(id);
      await this.repo.expireIfDue(id);
      const current = await this.loadPageSession(id);
      if (current.status === 'open' && current.paymentStatus === 'pending')
        throw paymentError(PaymentError.InProgress);
      if (!(await this.repo.cancelOpen(id))) throw checkoutError(CheckoutError.NotOpen);
      return this.loadPageSession(id);
    });
  }

  async publicView(id: string): Promise<PublicCheckoutSessionJson> {
    const s = await this.forPage(id);
    return publicViewOf(s, s.status === 'open' ? await this.payments.listMethods(s.environmentId) : []);
  }

  async paymentStatus(id: string): Promise<CheckoutPaymentStatusJson> {
    return paymentStatusOf(await this.forPage(id));
  }

  private async findInEnvironment(tenant: Tenant, id: string): Promise<CheckoutSession> {
    const session = await this.repo.inEnvironment(tenant.environmentId, id);
    if (!session) throw checkoutError(CheckoutError.NotFound);
    return session;
  }

  private async loadPageSession(id: string): Promise<PageSession> {
    const row = await this.repo.forPage(id);
    if (!row) throw checkoutError(CheckoutError.NotFound);
    return row;
  }

  /** Rules 1, 2, 6: an existing transactionId reuses its request (amount ignored); a new one needs an amount. */
  private async lockOrCreateRequest(
    tenant: Tenant,
    transactionId: string,
    amount: number | undefined,
    phoneNumber: string | null,
    applicationFee: number | undefined,
  ): Promise<LockedRequest | undefined> {
    const existing = await this.requests.lock(tenant.environmentId, { transactionId });
    if (existing) return existing;
    if (amount === undefined) throw checkoutError(CheckoutError.AmountRequiredForNewTransaction);
    assertAmount(amount);
    const fee = applicationFeeOf(tenant, applicationFee, amount);
    // A concurrent create of the same transactionId makes this insert wait, then do nothing;
    // the look-up below then finds (and locks) the winner's committed request.
    await this.paymentRequests.insert(tenant, { transactionId, amount, phoneNumber, applicationFee: fee });
    return this.requests.lock(tenant.environmentId, { transactionId });
  }
}
