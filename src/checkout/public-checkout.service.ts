import { Injectable } from '@nestjs/common';
import { isUUID } from 'class-validator';
import type { Tenant } from '../auth/tenant';
import { assertPhone } from '../common/validation/rules';
import { Db } from '../database/db';
import type { KeyedRequest } from '../idempotency/request-key';
import { toPaymentRequestJson } from '../payment-requests/payment-request';
import { PaymentRequestsRepository } from '../payment-requests/payment-requests.repository';
import { PaymentJson, toPaymentMethodJson } from '../payments/payment';
import { PaymentMethodsService } from '../payments/payment-methods.service';
import { PaymentError, paymentError } from '../payments/payments.errors';
import { PaymentsRepository } from '../payments/payments.repository';
import { PaymentsService } from '../payments/payments.service';
import { CheckoutError, checkoutError } from './checkout.errors';
import { CheckoutPayments } from './checkout-payments';
import { toCheckoutSessionJson } from './checkout-session';
import { CheckoutSessionsRepository } from './checkout-sessions.repository';
import {
  CheckoutSessionsService,
  PageSession,
  paymentStatusOf,
  publicViewOf,
} from './checkout-sessions.service';
import {
  publicPhone,
  type PublicPayDto,
  type PublicPayJson,
  type PublicPaymentStatusJson,
  type PublicSessionViewJson,
} from './public-checkout';

/**
 * The public checkout JSON API: a second door to the hosted page's pay, for merchants who build
 * their own checkout screen on a session (docs/checkout.md "Build your own checkout screen"). It
 * pays through the very code the hosted page's form uses (`CheckoutPayments`), so the rules, the
 * limits, the idempotency namespace (the session's) and the webhooks are the same. No key: the
 * session's id is the capability, as it is for the hosted page, so phone numbers are shown masked.
 */
@Injectable()
export class PublicCheckoutService {
  constructor(
    private readonly db: Db,
    private readonly sessions: CheckoutSessionsService,
    private readonly repo: CheckoutSessionsRepository,
    private readonly checkoutPayments: CheckoutPayments,
    private readonly methods: PaymentMethodsService,
    private readonly payments: PaymentsRepository,
    private readonly paymentsService: PaymentsService,
    private readonly requests: PaymentRequestsRepository,
  ) {}

  /** The session with its merchant, payment request, payment methods and newest payment. */
  async view(id: string): Promise<PublicSessionViewJson> {
    const s = await this.find(id);
    const [request, methods, latest] = await Promise.all([
      this.requests.byIdAnywhere(s.paymentRequestId),
      this.methods.listEnabled(s.environmentId),
      this.payments.latestOfRequest(s.environmentId, s.paymentRequestId),
    ]);
    const scope = { organizationId: s.organizationId, environment: s.environment };
    const choices = methods.map((m) => ({
      id: m.id,
      type: m.type,
      name: m.name,
      requiresPassCode: m.requiresPassCode,
    }));
    return {
      data: { ...toCheckoutSessionJson(s), ...publicViewOf(s, choices) },
      organization: {
        id: s.organizationId,
        name: s.merchantName,
        phoneNumber: s.merchantPhone,
        website: s.merchantWebsite,
      },
      paymentRequest: withPublicPhone(toPaymentRequestJson(request!)),
      configurations: methods.map((m) => toPaymentMethodJson(m, scope)),
      ...(latest
        ? {
            latestPayment: {
              id: latest.id,
              amount: latest.amount,
              status: latest.status,
              referenceId: latest.referenceId,
              phoneNumber: publicPhone(latest.phoneNumber),
              claimExpiresAt: latest.claimExpiresAt,
            },
          }
        : {}),
      environment: { type: s.environment },
    };
  }

  /**
   * The hosted page's pay: the body's phone, else the payment request's (neither: 400); the
   * session must be open (409); pay's own statuses and messages otherwise (a failed payment is 502).
   */
  async pay(
    id: string,
    dto: PublicPayDto,
    key: { idempotencyKey: string; keyedRequest: KeyedRequest } | undefined,
  ): Promise<PublicPayJson> {
    const s = await this.findOpen(id);
    const phone = dto.phoneNumber ?? s.phoneNumber;
    if (phone === null || phone === undefined || phone === '')
      throw checkoutError(CheckoutError.PhoneNumberRequired);
    const method = await this.methods.findEnabled(s.environmentId, dto.configurationId);
    const result = await this.checkoutPayments.pay(s, {
      paymentMethodId: method.id,
      phoneNumber: assertPhone(phone),
      passCode: dto.passCode?.trim() ?? '',
      ...key,
    });
    if (result.status === 'failed') throw paymentError(PaymentError.BankFailure);
    const payment = (await this.payments.paymentJson(s.environmentId, result.paymentId))!;
    return {
      data: withPublicPhone(payment),
      status: payment.status,
      paymentId: payment.id,
      referenceId: payment.referenceId,
      provider: method.type,
      successUrl: payment.status === 'completed' ? s.successUrl : null,
      instructions: await this.paymentsService.instructionsFor(s.environmentId, payment.id),
    };
  }

  /**
   * Records the payment method the customer chose and answers the session's view. While the
   * newest payment is pending: 409, and that payment is never cancelled (the bank may still take
   * the money).
   */
  async switchMethod(id: string, configurationId: string): Promise<PublicSessionViewJson> {
    await this.findOpen(id);
    await this.db.transaction(async () => {
      // Pay's lock order: the request first, then the session.
      await this.repo.lockRequestOf(id);
      const now = await this.find(id);
      if (now.status !== 'open') throw checkoutError(CheckoutError.NotOpen);
      if (now.paymentStatus === 'pending') throw paymentError(PaymentError.InProgress);
      await this.methods.findEnabled(now.environmentId, configurationId);
      await this.repo.selectMethod(id, configurationId);
    });
    return this.view(id);
  }

  /**
   * The status of a payment of the session (`paymentId`), else of its newest payment, else
   * `pending` while the session is open and the session's status once it is not.
   */
  async paymentStatus(id: string, paymentId?: string): Promise<PublicPaymentStatusJson> {
    const s = await this.find(id);
    const payment =
      paymentId === undefined
        ? await this.payments.latestOfRequest(s.environmentId, s.paymentRequestId)
        : await this.paymentOfSession(s, paymentId);
    const data = paymentStatusOf(s);
    const status = payment?.status ?? (data.status === 'open' ? 'pending' : data.status);
    return {
      data,
      status,
      claimExpiresAt: payment?.claimExpiresAt ?? null,
      successUrl: data.status === 'completed' ? s.successUrl : null,
    };
  }

  /** Sandbox only: the secret route's simulated transfer of a payment of this session (completed). */
  async simulateTransfer(id: string, paymentId: string): Promise<PublicPaymentStatusJson> {
    const s = await this.findOpen(id);
    if (s.environment !== 'sandbox') throw paymentError(PaymentError.SimulatedTransfersSandboxOnly);
    await this.paymentOfSession(s, paymentId);
    await this.paymentsService.simulateTransfer(tenantOf(s), paymentId, 'completed');
    return this.paymentStatus(id, paymentId);
  }

  /** The session (an open one past its deadline expired first); 404 for an unknown id or not a UUID. */
  private async find(id: string): Promise<PageSession> {
    if (!isUUID(id)) throw checkoutError(CheckoutError.NotFound);
    return this.sessions.forPage(id);
  }

  private async findOpen(id: string): Promise<PageSession> {
    const s = await this.find(id);
    if (s.status !== 'open') throw checkoutError(CheckoutError.NotOpen);
    return s;
  }

  /** A payment of the session's payment request, else 404 `Payment not found`. */
  private async paymentOfSession(s: PageSession, paymentId: string): Promise<PaymentJson> {
    const payment = isUUID(paymentId)
      ? await this.payments.paymentJson(s.environmentId, paymentId)
      : undefined;
    if (!payment || payment.paymentRequestId !== s.paymentRequestId)
      throw paymentError(PaymentError.NotFound);
    return payment;
  }
}

/** A record with its phone number as the keyless routes show it (`publicPhone`). */
function withPublicPhone<T extends { phoneNumber: string | null }>(record: T): T {
  return { ...record, phoneNumber: record.phoneNumber === null ? null : publicPhone(record.phoneNumber) };
}

/** The customer of a session acts for its environment, as with a publishable key (as the hosted page does). */
function tenantOf(s: PageSession): Tenant {
  return {
    organizationId: s.organizationId,
    environmentId: s.environmentId,
    environment: s.environment,
    keyKind: 'publishable',
    keyId: `checkout-session:${s.id}`,
    verification: s.verification,
  };
}
