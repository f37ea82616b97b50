import { Injectable } from '@nestjs/common';

/** What the hosted page needs to know about a session in order to pay it. */
export interface PayableSession {
  id: string;
  paymentRequestId: string;
  environmentId: string;
  transactionId: string;
  amount: number;
}

/** A bank app enabled for the environment, as the page offers it. */
export interface PaymentMethodChoice {
  id: string;
  type: string;
  name: string;
  requiresPassCode: boolean;
}

export interface CheckoutPayInput {
  paymentMethodId: string;
  /** Already normalised to the 8 digits. */
  phoneNumber: string;
  /** `''` for the methods that take none. */
  passCode: string;
}

export interface CheckoutPayResult {
  paymentId: string;
  status: 'pending' | 'completed' | 'failed';
}

/**
 * The hosted page's view of payments, implemented by the payments module. An abstract class so it
 * is its own injection token.
 */
export abstract class CheckoutPayments {
  /**
   * Pays the session's payment request. Throws AppError: 400 (pass code, phone), 404 (method),
   * 409 (already paid), 502 (the bank failed). A completed payment completes the session (see
   * `completeOpenSession`) in the payment's own transaction.
   */
  abstract pay(session: PayableSession, input: CheckoutPayInput): Promise<CheckoutPayResult>;

  /** The payment methods enabled for the environment, in display order. */
  abstract listMethods(environmentId: string): Promise<PaymentMethodChoice[]>;
}

/** Placeholder until the payments branch is merged; replaced by the real integration then. */
@Injectable()
export class PaymentsNotMergedYet extends CheckoutPayments {
  pay(): Promise<CheckoutPayResult> {
    return Promise.reject(new Error('payments not merged yet'));
  }

  listMethods(): Promise<PaymentMethodChoice[]> {
    return Promise.reject(new Error('payments not merged yet'));
  }
}
