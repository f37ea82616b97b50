import type {
  CreateCheckoutSessionBody,
  CreateSubscriptionBody,
  Invoice,
  Operations,
  PayBody,
  Payment,
  PaymentRequest,
  Price,
  Subscription,
} from './api.generated';

/** Every type of the service's OpenAPI document, `Operations` (every route the library calls) included. */
export type * from './api.generated';

type Query<K extends keyof Operations> = NonNullable<Operations[K]['query']>;

/**
 * The error answers a route may give, by status, as its OpenAPI document declares them: e.g.
 * `ErrorsOf<'POST /payment'>[409]` is the union of the exact messages of its 409s, which an
 * `AppException`'s `code` then holds.
 */
export type ErrorsOf<K extends keyof Operations> = Operations[K]['errors'];
/** The exact messages of the error answers of a route with a given status. */
export type ErrorMessageOf<K extends keyof Operations, S extends keyof ErrorsOf<K>> = ErrorsOf<K>[S];

/** The API's list envelope. */
export interface ListResponse<T> {
  data: T[];
  pagination: { page: number; limit: number; total: number; totalPages: number };
}

export type ListPaymentRequestsParams = Query<'GET /payment-request'>;
export type ListPaymentLinksParams = Query<'GET /payment-links'>;
export type ListCouponsParams = Query<'GET /coupons'>;
export type ListPaymentsParams = Query<'GET /payment'>;
export type ListWebhookEndpointsParams = Query<'GET /webhook-endpoints'>;
export type ListAccountsParams = Query<'GET /accounts'>;
export type ListWebhookDeliveriesParams = Query<'GET /webhook-deliveries'>;
export type ListProductsParams = Query<'GET /products'>;
export type ListCustomersParams = Query<'GET /customers'>;
export type ListInvoicesParams = Query<'GET /invoices'>;
export type ListSubscriptionsParams = Query<'GET /subscriptions'>;
export type ListRefundsParams = Query<'GET /refunds'>;
export type SettlementReportParams = Query<'GET /reports/settlement'>;
export type ListBalanceTransactionsParams = Query<'GET /balance-transactions'>;
export type ListPayoutsParams = Query<'GET /payouts'>;
export type ListTransfersParams = Query<'GET /transfers'>;

export type PriceInterval = Price['interval'];
export type InvoiceStatus = Invoice['status'];
/** `past_due` is computed by the service when read: an active subscription with an invoice unpaid after its due date. */
export type SubscriptionStatus = Subscription['status'];
/** The options every way of creating a subscription takes (trial, dates). */
export type SubscriptionOptions = Omit<CreateSubscriptionBody, 'customerId' | 'priceId'>;

/** Pay: the payment method's id from `paymentMethods.list()`; a pass code for Bankily only. */
export type PayParams = Pick<PayBody, 'transactionId' | 'phoneNumber'> & {
  /** The `id` of a payment method of `paymentMethods.list()`. */
  paymentMethodId: string;
  /** Bankily's pass code; omitted (sent as "") for the other methods. */
  passCode?: string;
};

type SessionOptions = Required<
  Pick<CreateCheckoutSessionBody, 'successUrl' | 'cancelUrl' | 'expiresInMinutes'>
>;

/**
 * The typed method requires successUrl, cancelUrl and expiresInMinutes,
 * and phoneNumber when transactionId is passed (the HTTP API treats them as optional).
 */
export type CreateCheckoutSessionParams = SessionOptions &
  (
    | {
        /** An existing payment request. */
        paymentRequestId: string;
        transactionId?: never;
        amount?: never;
        phoneNumber?: never;
      }
    | {
        paymentRequestId?: never;
        /** The merchant's order ID: an existing one reuses its payment request (rule 1). */
        transactionId: string;
        /** Whole MRU: required when transactionId is new. */
        amount?: number;
        phoneNumber: string;
      }
  );

/** A payment as webhook events carry it: with its payment request. */
export type PaymentWithRequest = Payment & { request: PaymentRequest };
