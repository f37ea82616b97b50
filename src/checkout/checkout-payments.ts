import { Injectable } from '@nestjs/common';
import type { Tenant } from '../auth/tenant';
import { KeyedRequest, RequestKey } from '../idempotency/request-key';
import { assertMayAskForMoney } from '../organizations/account';
import { PayService } from '../payments/pay.service';
import { PaymentMethodsService } from '../payments/payment-methods.service';
import { CheckoutError, checkoutError } from './checkout.errors';
import { PayableSession, PaymentMethodChoice } from './checkout-session';
import { CheckoutSessionsRepository } from './checkout-sessions.repository';

/** A bank app enabled for the environment, as the page offers it. */
export { PaymentMethodChoice };

export interface CheckoutPayInput {
  paymentMethodId: string;
  /** Already normalised to the 8 digits. */
  phoneNumber: string;
  /** `''` for the methods that take none. */
  passCode: string;
  /**
   * The key of the form that was submitted (one per rendered form): every submission of that form
   * is the same attempt, so a resubmitted form never pays twice.
   */
  idempotencyKey?: string;
  /**
   * The request the key came with, when it is the public checkout API's Idempotency-Key header
   * (a retry with another body is then 400); a form's key covers the form, whatever its fields.
   */
  keyedRequest?: KeyedRequest;
}

export interface CheckoutPayResult {
  paymentId: string;
  status: 'pending' | 'completed' | 'failed';
}

/**
 * The hosted page's view of payments, implemented by the payments module. An abstract class so it
 * is its own injection token (tests put a fake bank behind the page).
 */
export abstract class CheckoutPayments {
  /**
   * Pays the session's payment request. Throws AppError: 400 (pass code, phone), 404 (method),
   * 409 (already paid, a payment in progress, the session not open), 429 (the pay-attempt limit),
   * 502 (the bank failed). A completed payment completes the session in the payment's own
   * transaction. A form submitted again gets its first payment, in the state it reached.
   */
  abstract pay(session: PayableSession, input: CheckoutPayInput): Promise<CheckoutPayResult>;

  /** The payment methods enabled for the environment, in display order. */
  abstract listMethods(environmentId: string): Promise<PaymentMethodChoice[]>;
}

/**
 * The real thing: the page pays through PayService, so every money rule of payments holds
 * (request lock, one pending payment, the bank outside the transaction, settlement), with the
 * session locked and rechecked inside pay's first transaction.
 */
@Injectable()
export class BankAppPayments extends CheckoutPayments {
  constructor(
    private readonly payments: PayService,
    private readonly methods: PaymentMethodsService,
    private readonly sessions: CheckoutSessionsRepository,
  ) {
    super();
  }

  async pay(session: PayableSession, input: CheckoutPayInput): Promise<CheckoutPayResult> {
    // The customer on the hosted page acts for the session's environment, like a publishable key.
    const tenant: Tenant = {
      organizationId: session.organizationId,
      environmentId: session.environmentId,
      environment: session.environment,
      keyKind: 'publishable',
      keyId: `checkout-session:${session.id}`,
      verification: session.verification,
    };
    assertMayAskForMoney(tenant);
    // Keyed to the session; the form is the request, whatever its fields say on a resubmission.
    const key =
      input.idempotencyKey === undefined
        ? undefined
        : RequestKey.of(
            { environmentId: session.environmentId, checkoutSessionId: session.id },
            input.idempotencyKey,
            input.keyedRequest ?? { method: 'POST', path: `/checkout/${session.id}/pay`, body: '' },
          );
    const payment = await this.payments.pay(
      tenant,
      {
        transactionId: session.transactionId,
        phoneNumber: input.phoneNumber,
        passCode: input.passCode,
        configurationId: input.paymentMethodId,
      },
      (request) => this.lockSessionForPayment(session.id, request.id, input.paymentMethodId),
      key,
    );
    return { paymentId: payment.id, status: payment.status };
  }

  async listMethods(environmentId: string): Promise<PaymentMethodChoice[]> {
    const methods = await this.methods.listEnabled(environmentId);
    return methods.map((m) => ({
      id: m.id,
      type: m.type,
      name: m.name,
      requiresPassCode: m.requiresPassCode,
    }));
  }

  /**
   * Pay's guard for the hosted page (run on pay's transaction, the request row already locked):
   * the session must still be open and before its deadline, checked under the session's row
   * lock, so a session expired at use time, by the job or cancelled is never paid. Records the
   * bank app the customer chose.
   */
  private async lockSessionForPayment(
    sessionId: string,
    paymentRequestId: string,
    paymentMethodId: string,
  ): Promise<void> {
    const session = await this.sessions.lockForPayment(sessionId, paymentRequestId);
    if (!session || session.status !== 'open' || session.due) throw checkoutError(CheckoutError.NotOpen);
    await this.sessions.selectMethod(sessionId, paymentMethodId);
  }
}
