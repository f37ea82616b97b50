// Generated from the service's OpenAPI document (GET /api/docs-json) by test/sdk/openapi-types.ts.
// Do not edit: change the service, then run `UPDATE_SDK_TYPES=1 npx jest test/sdk/openapi-agreement`.

export interface AccountJsonDoc {
  /** The connected organization's id (the `Khoums-Account` value) */
  id: string;
  name: string;
  email: string;
  verification: 'unverified' | 'submitted' | 'verified' | 'rejected';
  createdAt: string;
}

export interface Balance {
  /** Whole MRU that can be paid out now (may be negative after refunds) */
  available: number;
  /** Whole MRU not yet available */
  pending: number;
  currency: 'MRU';
}

export interface BalanceTransaction {
  id: string;
  type:
    | 'payment'
    | 'refund'
    | 'refund_failure'
    | 'payout'
    | 'payout_failure'
    | 'application_fee'
    | 'application_fee_received';
  /** Whole MRU, signed: money in positive */
  amount: number;
  /** Khoums's fee, whole MRU */
  fee: number;
  /** amount - fee */
  net: number;
  currency: 'MRU';
  /** The payment, refund or payout it records */
  sourceId: string;
  /** When the money can be paid out */
  availableOn: string;
  /** The payout that paid it out */
  payoutId: string | null;
  environmentId: string;
  createdAt: string;
}

export interface BillingRun {
  /** Invoices created, one per billed period */
  invoicesCreated: number;
  /** Subscriptions whose state changed (renewed, expired, ended) */
  subscriptionsUpdated: number;
}

export interface CancelSubscriptionBody {
  /** true: pending_cancellation until the current period ends; default: cancelled now */
  atPeriodEnd?: boolean;
}

export interface CheckoutPaymentStatus {
  status: 'open' | 'completed' | 'expired' | 'cancelled';
  /** The latest payment, if any */
  paymentStatus: 'pending' | 'completed' | 'failed' | null;
  /** Where the page sends the customer now that the session is over, when the merchant gave a URL */
  redirectUrl?: string;
}

export interface CheckoutSession {
  id: string;
  /** The payment request it pays */
  paymentRequestId: string;
  status: 'open' | 'completed' | 'expired' | 'cancelled';
  successUrl: string | null;
  cancelUrl: string | null;
  expiresAt: string;
  environmentId: string;
  /** The payment method chosen on the page */
  selectedConfigurationId: string | null;
  completedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface CreateAccountBody {
  /** The merchant's name */
  name: string;
  /** The merchant's email: the owner of its dashboard, who sets a password through an onboarding link */
  email: string;
}

export interface CreateCheckoutSessionBody {
  /** An existing payment request; the other payment fields are then ignored */
  paymentRequestId?: string;
  /** The merchant's own order ID; an existing one reuses its payment request */
  transactionId?: string;
  /** Whole MRU; required when transactionId is new */
  amount?: number;
  /** The customer's 8-digit number, prefilled on the page */
  phoneNumber?: string;
  /** Where the customer is sent after paying (session_id and transactionId appended) */
  successUrl?: string;
  /** Where the customer is sent after cancelling */
  cancelUrl?: string;
  /** Minutes until the session expires (default 30) */
  expiresInMinutes?: number;
  /** Acting for a connected account (`Khoums-Account`) only: whole MRU, 0 to the amount, moved to the platform when paid; set on the session's payment request */
  applicationFee?: number;
}

export interface CreateCustomerBody {
  /** The merchant's user ID, unique within the organization */
  externalUserId: string;
  /** The customer's 8-digit number (+222 and spaces are stripped) */
  phone?: string;
}

export interface CreateOnboardingLinkBody {
  /** Where the merchant lands once they applied to go live */
  returnUrl: string;
  /** Where a used or expired link sends the merchant (make a new link there) */
  refreshUrl: string;
}

export interface CreatePaymentRequestBody {
  /** The merchant's own order ID, unique per environment */
  transactionId: string;
  /** Whole MRU, 1 to 100000000 */
  amount: number;
  /** The customer's 8-digit number (+222 and spaces are stripped) */
  phoneNumber?: string;
  /** Acting for a connected account (`Khoums-Account`) only: whole MRU, 0 to the amount, moved to the platform when paid */
  applicationFee?: number;
}

export interface CreatePriceBody {
  /** An active product of the environment */
  productId: string;
  /** Whole MRU billed every interval, 1 to 100000000 */
  amount: number;
  /** How often the amount is billed */
  interval: 'weekly' | 'monthly' | 'yearly';
}

export interface CreateProductBody {
  name: string;
  description?: string | null;
}

export interface CreateRefundBody {
  /** The completed payment to refund */
  paymentId: string;
  /** Whole MRU > 0; default: what is left to refund */
  amount?: number;
  /** Why (shown to you, not sent to the payer) */
  reason?: string;
}

export interface CreateSubscriptionByExternalUserBody {
  /** Start with a trial ("trialing" means true); needs trialPeriod or trialEnd */
  trial?: boolean | 'trialing';
  /** Length of the trial, from startedAt */
  trialPeriod?: '1_week' | '1_month' | '1_year' | number;
  /** When the trial ends (wins over trialPeriod) */
  trialEnd?: string;
  /** Start of the first period (default now); in the past, every started period is invoiced */
  startedAt?: string;
  /** No period starts from then on; the subscription then expires */
  expiresAt?: string;
  /** Acting for a connected account (`Khoums-Account`) only: basis points of each invoice moved to the platform when it is paid */
  applicationFeeBps?: number;
  /** The merchant's user ID; the customer is created if needed */
  externalUserId: string;
  /** An active price of an active product */
  priceId: string;
  /** The customer's 8-digit number; replaces the stored one */
  phone?: string;
}

export interface CreateSubscriptionBody {
  /** Start with a trial ("trialing" means true); needs trialPeriod or trialEnd */
  trial?: boolean | 'trialing';
  /** Length of the trial, from startedAt */
  trialPeriod?: '1_week' | '1_month' | '1_year' | number;
  /** When the trial ends (wins over trialPeriod) */
  trialEnd?: string;
  /** Start of the first period (default now); in the past, every started period is invoiced */
  startedAt?: string;
  /** No period starts from then on; the subscription then expires */
  expiresAt?: string;
  /** Acting for a connected account (`Khoums-Account`) only: basis points of each invoice moved to the platform when it is paid */
  applicationFeeBps?: number;
  /** A customer of the organization */
  customerId: string;
  /** An active price of an active product */
  priceId: string;
}

export interface CreateWebhookEndpointBody {
  /** Where deliveries are POSTed: an absolute http(s) URL */
  url: string;
  /** Event kinds to receive; default: the six payment and checkout kinds */
  events?: Array<
    | 'payment-created'
    | 'payment-updated'
    | 'payment-request-created'
    | 'payment-request-updated'
    | 'subscription-created'
    | 'subscription-updated'
    | 'invoice-created'
    | 'invoice-paid'
    | 'invoice-voided'
    | 'checkout-session-completed'
    | 'checkout-session-expired'
    | 'account-updated'
    | 'refund-created'
    | 'refund-updated'
    | 'invoice-refunded'
  >;
  /** Default true */
  enabled?: boolean;
  /** A platform's endpoint only: also receive the events of its connected accounts (the body gains `account`, the request `x-khoums-account`). Default false */
  connected?: boolean;
}

export interface Customer {
  id: string;
  /** The merchant's user ID, unique within the organization */
  externalUserId: string;
  /** 8-digit local number, used for the customer's payment requests */
  phone: string | null;
  organizationId: string;
  createdAt: string;
}

export interface Invoice {
  /** Also the transactionId of its payment request */
  id: string;
  customerId: string;
  subscriptionId: string;
  status: 'pending' | 'paid' | 'void' | 'refunded';
  /** Decimal amount in MRU with two decimals */
  amount: string;
  /** The end of the billed period (the subscription’s next billing date when the invoice was created) */
  dueDate: string | null;
  /** The payment request that pays it */
  paymentRequestId: string | null;
  /** A hosted page that pays this invoice; valid while it is pending, then shows it paid or void */
  checkoutUrl: string;
  periodStart: string;
  periodEnd: string;
  organizationId: string;
  environmentId: string;
  createdAt: string;
}

export interface OnboardingLink {
  /** Single use: the merchant sets their password, then applies to go live */
  url: string;
  /** One hour after creation */
  expiresAt: string;
}

export interface Organization {
  id: string;
  name: string;
  verification: Verification;
  payoutAccount: PayoutAccount | null;
  /** Whether the organization is a platform that connects merchant accounts */
  platform: boolean;
}

export interface PayBody {
  /** The transactionId of the payment request to pay */
  transactionId: string;
  /** The customer's 8-digit number at the bank app (+222 and spaces are stripped) */
  phoneNumber: string;
  /** Bankily only: the customer's pass code ("" or absent for the others). Never stored. */
  passCode?: string;
  /** The id of a payment method of GET /payment-methods (alias: paymentMethodId) */
  configurationId: string;
  /** Alias of configurationId */
  paymentMethodId?: string;
}

export interface Payment {
  id: string;
  paymentRequestId: string;
  /** The payment request's transactionId */
  transactionId: string;
  /** Whole MRU */
  amount: number;
  /** The payment method id */
  configurationId: string;
  /** 8-digit local number */
  phoneNumber: string;
  status: 'pending' | 'completed' | 'failed';
  /** The bank's reference */
  referenceId: string | null;
  failureReason: string | null;
  completedAt: string | null;
  /** Whole MRU refunded or being refunded (a failed refund gives its amount back) */
  refundedAmount: number;
  environmentId: string;
  createdAt: string;
  updatedAt: string;
}

export interface PaymentMethodChoice {
  id: string;
  type: string;
  name: string;
  requiresPassCode: boolean;
}

export interface PaymentMethodConfig {
  code: string;
}

export interface PaymentMethod {
  /** The paymentMethodId (configurationId) used to pay */
  id: string;
  type: 'bankily' | 'masrivi' | 'sedad' | 'bim_bank' | 'amanty' | 'bci_pay';
  name: string;
  /** Bankily: the customer must give a pass code */
  requiresPassCode: boolean;
  config: PaymentMethodConfig;
}

export interface PaymentRequest {
  id: string;
  /** The merchant's own order ID, unique per environment */
  transactionId: string;
  /** Whole MRU */
  amount: number;
  /** 8-digit local number */
  phoneNumber: string | null;
  status: 'pending' | 'paid';
  paidAt: string | null;
  invoiceId: string | null;
  /** Whole MRU the connected account pays its platform when the request is paid; null: none */
  applicationFee: number | null;
  environmentId: string;
  createdAt: string;
  updatedAt: string;
}

export interface PayoutAccount {
  /** Bank code, e.g. BNM */
  bank: string;
  holderName: string;
  /** The last four digits of the IBAN */
  ibanLast4: string;
  status: 'pending' | 'approved' | 'rejected';
}

export interface Price {
  id: string;
  productId: string;
  /** Whole MRU, billed every interval */
  amount: number;
  interval: 'weekly' | 'monthly' | 'yearly';
  /** `false` once archived or replaced */
  active: boolean;
  createdAt: string;
}

export interface Product {
  id: string;
  name: string;
  description: string | null;
  /** `false` once archived */
  active: boolean;
  organizationId: string;
  /** Environment it was created in */
  environmentId: string | null;
  createdAt: string;
}

export interface ProductWithPrices {
  id: string;
  name: string;
  description: string | null;
  /** `false` once archived */
  active: boolean;
  organizationId: string;
  /** Environment it was created in */
  environmentId: string | null;
  createdAt: string;
  /** Active prices only */
  prices: Price[];
}

export interface PublicCheckoutSession {
  id: string;
  status: 'open' | 'completed' | 'expired' | 'cancelled';
  /** Whole MRU */
  amount: number;
  currency: 'MRU';
  transactionId: string;
  merchantName: string;
  /** true in Production */
  livemode: boolean;
  expiresAt: string;
  /** The bank apps the customer can choose from */
  methods: PaymentMethodChoice[];
}

export interface PublicPaymentRequest {
  id: string;
  amount: number;
  phoneNumber: string | null;
}

export interface Refund {
  id: string;
  paymentId: string;
  /** The payment request's transactionId */
  transactionId: string;
  /** Whole MRU */
  amount: number;
  status: 'pending' | 'succeeded' | 'failed';
  reason: string | null;
  failureReason: string | null;
  environmentId: string;
  createdAt: string;
  updatedAt: string;
}

export interface SendTestEventBody {
  /** Default payment-request-created (or the first kind the endpoint receives) */
  event?:
    | 'payment-created'
    | 'payment-updated'
    | 'payment-request-created'
    | 'payment-request-updated'
    | 'subscription-created'
    | 'subscription-updated'
    | 'invoice-created'
    | 'invoice-paid'
    | 'invoice-voided'
    | 'checkout-session-completed'
    | 'checkout-session-expired'
    | 'account-updated'
    | 'refund-created'
    | 'refund-updated'
    | 'invoice-refunded';
}

export interface SettlementRow {
  /** UTC day (YYYY-MM-DD) */
  date: string;
  /** The bank app (payment method type) */
  paymentMethod: string;
  /** Completed payments */
  payments: number;
  /** Whole MRU paid */
  gross: number;
  /** Khoums's fees, whole MRU */
  fees: number;
  /** Whole MRU refunded (failed refunds excluded) */
  refunds: number;
  /** gross - fees - refunds */
  net: number;
}

export interface SimulateTransferBody {
  /** What the customer's bank does (default completed) */
  outcome?: 'completed' | 'failed';
}

export interface Subscription {
  id: string;
  customerId: string;
  /** The price it was created with; each renewal bills its current amount */
  priceId: string;
  status: 'trialing' | 'active' | 'past_due' | 'paused' | 'pending_cancellation' | 'cancelled' | 'expired';
  trialEnd: string | null;
  startedAt: string;
  currentPeriodStart: string | null;
  currentPeriodEnd: string | null;
  /** When the next period starts and is invoiced; null once no further period will be billed */
  nextBillingDate: string | null;
  expiresAt: string | null;
  cancelledAt: string | null;
  /** Basis points of each invoice the connected account pays its platform; null: none */
  applicationFeeBps: number | null;
  environmentId: string;
  organizationId: string;
  createdAt: string;
  updatedAt: string;
}

export interface UpdateCustomerBody {
  /** A new user ID, unique within the organization */
  externalUserId?: string;
  /** A new number; null removes it */
  phone?: string | null;
}

export interface UpdatePriceBody {
  /** Whole MRU, 1 to 100000000 */
  amount?: number;
  interval?: 'weekly' | 'monthly' | 'yearly';
  /** true: this price is deactivated and a new price (new id) is returned for new subscriptions; existing subscriptions keep this one */
  replaceExisting?: boolean;
}

export interface UpdateProductBody {
  name?: string;
  /** null removes it */
  description?: string | null;
  /** false archives the product (as PATCH /products/:id/archive) */
  active?: boolean;
}

export interface UpdateWebhookEndpointBody {
  url?: string;
  events?: Array<
    | 'payment-created'
    | 'payment-updated'
    | 'payment-request-created'
    | 'payment-request-updated'
    | 'subscription-created'
    | 'subscription-updated'
    | 'invoice-created'
    | 'invoice-paid'
    | 'invoice-voided'
    | 'checkout-session-completed'
    | 'checkout-session-expired'
    | 'account-updated'
    | 'refund-created'
    | 'refund-updated'
    | 'invoice-refunded'
  >;
  /** Re-enabling resumes pending deliveries */
  enabled?: boolean;
}

export interface Verification {
  status: 'unverified' | 'submitted' | 'verified' | 'rejected';
  submittedAt: string | null;
  decidedAt: string | null;
  /** The operator's reason, when rejected */
  reason: string | null;
}

export interface WebhookAttempt {
  id: string;
  statusCode: number | null;
  durationMs: number;
  error: string | null;
  /** The first 1 KB of the answer */
  responseSnippet: string | null;
  createdAt: string;
}

export interface WebhookDelivery {
  id: string;
  /** The event id: `webhook-id` of every attempt */
  eventId: string;
  endpointId: string;
  event:
    | 'payment-created'
    | 'payment-updated'
    | 'payment-request-created'
    | 'payment-request-updated'
    | 'subscription-created'
    | 'subscription-updated'
    | 'invoice-created'
    | 'invoice-paid'
    | 'invoice-voided'
    | 'checkout-session-completed'
    | 'checkout-session-expired'
    | 'account-updated'
    | 'refund-created'
    | 'refund-updated'
    | 'invoice-refunded';
  status: 'pending' | 'succeeded' | 'failed';
  attempts: number;
  lastStatusCode: number | null;
  lastError: string | null;
  lastResponseSnippet: string | null;
  nextAttemptAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface WebhookEndpoint {
  id: string;
  url: string;
  events: Array<
    | 'payment-created'
    | 'payment-updated'
    | 'payment-request-created'
    | 'payment-request-updated'
    | 'subscription-created'
    | 'subscription-updated'
    | 'invoice-created'
    | 'invoice-paid'
    | 'invoice-voided'
    | 'checkout-session-completed'
    | 'checkout-session-expired'
    | 'account-updated'
    | 'refund-created'
    | 'refund-updated'
    | 'invoice-refunded'
  >;
  enabled: boolean;
  /** A platform's endpoint that also receives the events of its connected accounts */
  connected: boolean;
  environmentId: string;
  createdAt: string;
  /** The signing secret (`whsec_…`): only in the answers of create and rotate-secret */
  secret?: string;
}

/** Every route of /api/v1: path parameters, query, JSON body and the 200 answer. */
export interface Operations {
  'GET /accounts': {
    params: Record<string, never>;
    query: {
      /** Page number, from 1 */
      page?: number;
      /** Items per page, 1 to 100 */
      limit?: number;
    };
    body: never;
    response: {
      data: AccountJsonDoc[];
      pagination: { page: number; limit: number; total: number; totalPages: number };
    };
  };
  'POST /accounts': {
    params: Record<string, never>;
    query: Record<string, never>;
    body: CreateAccountBody;
    response: { data: AccountJsonDoc };
  };
  'GET /accounts/{id}': {
    params: { id: string };
    query: Record<string, never>;
    body: never;
    response: { data: AccountJsonDoc };
  };
  'POST /accounts/{id}/onboarding-link': {
    params: { id: string };
    query: Record<string, never>;
    body: CreateOnboardingLinkBody;
    response: { data: OnboardingLink };
  };
  'GET /balance': {
    params: Record<string, never>;
    query: Record<string, never>;
    body: never;
    response: { data: Balance };
  };
  'GET /balance-transactions': {
    params: Record<string, never>;
    query: {
      /** Page number, from 1 */
      page?: number;
      /** Items per page, 1 to 100 */
      limit?: number;
      type?:
        | 'payment'
        | 'refund'
        | 'refund_failure'
        | 'payout'
        | 'payout_failure'
        | 'application_fee'
        | 'application_fee_received';
      /** Only what this payout paid out */
      payoutId?: string;
    };
    body: never;
    response: {
      data: BalanceTransaction[];
      pagination: { page: number; limit: number; total: number; totalPages: number };
    };
  };
  'POST /checkout-session': {
    params: Record<string, never>;
    query: Record<string, never>;
    body: CreateCheckoutSessionBody;
    response: {
      data: CheckoutSession;
      /** The hosted payment page */
      checkoutUrl: string;
    };
  };
  'GET /checkout-session/{id}': {
    params: { id: string };
    query: Record<string, never>;
    body: never;
    response: {
      data: CheckoutSession;
      /** The hosted payment page */
      checkoutUrl: string;
    };
  };
  'POST /checkout-session/{id}/expire': {
    params: { id: string };
    query: Record<string, never>;
    body: never;
    response: { data: CheckoutSession };
  };
  'GET /checkout-session/public/{id}': {
    params: { id: string };
    query: Record<string, never>;
    body: never;
    response: { data: PublicCheckoutSession };
  };
  'GET /checkout-session/public/{id}/payment-status': {
    params: { id: string };
    query: Record<string, never>;
    body: never;
    response: { data: CheckoutPaymentStatus };
  };
  'GET /configuration': {
    params: Record<string, never>;
    query: {
      /** Accepted for the client libraries; it has no effect (the key decides the environment) */
      isTestingMode?: string;
    };
    body: never;
    response: { data: PaymentMethod[] };
  };
  'GET /customers': {
    params: Record<string, never>;
    query: {
      /** Page number, from 1 */
      page?: number;
      /** Items per page, 1 to 100 */
      limit?: number;
      id?: string;
      externalUserId?: string;
    };
    body: never;
    response: {
      data: Customer[];
      pagination: { page: number; limit: number; total: number; totalPages: number };
    };
  };
  'POST /customers': {
    params: Record<string, never>;
    query: Record<string, never>;
    body: CreateCustomerBody;
    response: { data: Customer };
  };
  'PATCH /customers/{id}': {
    params: { id: string };
    query: Record<string, never>;
    body: UpdateCustomerBody;
    response: { data: Customer };
  };
  'GET /invoices': {
    params: Record<string, never>;
    query: {
      /** Page number, from 1 */
      page?: number;
      /** Items per page, 1 to 100 */
      limit?: number;
      id?: string;
      /** The customer's externalUserId */
      externalUserId?: string;
      subscriptionId?: string;
    };
    body: never;
    response: {
      data: Invoice[];
      pagination: { page: number; limit: number; total: number; totalPages: number };
    };
  };
  'GET /invoices/{id}': {
    params: { id: string };
    query: Record<string, never>;
    body: never;
    response: { data: Invoice };
  };
  'GET /organization': {
    params: Record<string, never>;
    query: Record<string, never>;
    body: never;
    response: { data: Organization };
  };
  'GET /payment': {
    params: Record<string, never>;
    query: {
      /** Page number, from 1 */
      page?: number;
      /** Items per page, 1 to 100 */
      limit?: number;
      transactionId?: string;
      paymentRequestId?: string;
      status?: 'pending' | 'completed' | 'failed';
    };
    body: never;
    response: {
      data: Payment[];
      pagination: { page: number; limit: number; total: number; totalPages: number };
    };
  };
  'POST /payment': {
    params: Record<string, never>;
    query: Record<string, never>;
    body: PayBody;
    response: { data: Payment };
  };
  'GET /payment-methods': {
    params: Record<string, never>;
    query: {
      /** Accepted for the client libraries; it has no effect (the key decides the environment) */
      isTestingMode?: string;
    };
    body: never;
    response: { data: PaymentMethod[] };
  };
  'GET /payment-request': {
    params: Record<string, never>;
    query: {
      /** Page number, from 1 */
      page?: number;
      /** Items per page, 1 to 100 */
      limit?: number;
      status?: 'pending' | 'paid';
    };
    body: never;
    response: {
      data: PaymentRequest[];
      pagination: { page: number; limit: number; total: number; totalPages: number };
    };
  };
  'POST /payment-request': {
    params: Record<string, never>;
    query: Record<string, never>;
    body: CreatePaymentRequestBody;
    response: { data: PaymentRequest };
  };
  'GET /payment-request/{id}': {
    params: { id: string };
    query: Record<string, never>;
    body: never;
    response: { data: PaymentRequest };
  };
  'PATCH /payment-request/{transactionId}/refresh-status': {
    params: { transactionId: string };
    query: Record<string, never>;
    body: never;
    response: { data: PaymentRequest };
  };
  'GET /payment-request/by-transaction/{transactionId}': {
    params: { transactionId: string };
    query: Record<string, never>;
    body: never;
    response: { data: PaymentRequest | PublicPaymentRequest };
  };
  'GET /payment/{id}': {
    params: { id: string };
    query: Record<string, never>;
    body: never;
    response: { data: Payment };
  };
  'POST /payment/{id}/simulate-transfer': {
    params: { id: string };
    query: Record<string, never>;
    body: SimulateTransferBody;
    response: { data: Payment };
  };
  'POST /prices': {
    params: Record<string, never>;
    query: Record<string, never>;
    body: CreatePriceBody;
    response: { data: Price };
  };
  'GET /prices/{id}': {
    params: { id: string };
    query: Record<string, never>;
    body: never;
    response: { data: Price };
  };
  'PATCH /prices/{id}': {
    params: { id: string };
    query: Record<string, never>;
    body: UpdatePriceBody;
    response: { data: Price };
  };
  'PATCH /prices/{id}/archive': {
    params: { id: string };
    query: Record<string, never>;
    body: never;
    response: { data: Price };
  };
  'GET /products': {
    params: Record<string, never>;
    query: {
      /** Page number, from 1 */
      page?: number;
      /** Items per page, 1 to 100 */
      limit?: number;
      id?: string;
    };
    body: never;
    response: {
      data: ProductWithPrices[];
      pagination: { page: number; limit: number; total: number; totalPages: number };
    };
  };
  'POST /products': {
    params: Record<string, never>;
    query: Record<string, never>;
    body: CreateProductBody;
    response: { data: Product };
  };
  'GET /products/{id}': {
    params: { id: string };
    query: Record<string, never>;
    body: never;
    response: { data: ProductWithPrices };
  };
  'PATCH /products/{id}': {
    params: { id: string };
    query: Record<string, never>;
    body: UpdateProductBody;
    response: { data: Product };
  };
  'PATCH /products/{id}/archive': {
    params: { id: string };
    query: Record<string, never>;
    body: never;
    response: { data: Product };
  };
  'GET /refunds': {
    params: Record<string, never>;
    query: {
      /** Page number, from 1 */
      page?: number;
      /** Items per page, 1 to 100 */
      limit?: number;
      paymentId?: string;
      status?: 'pending' | 'succeeded' | 'failed';
    };
    body: never;
    response: {
      data: Refund[];
      pagination: { page: number; limit: number; total: number; totalPages: number };
    };
  };
  'POST /refunds': {
    params: Record<string, never>;
    query: Record<string, never>;
    body: CreateRefundBody;
    response: { data: Refund };
  };
  'GET /refunds/{id}': {
    params: { id: string };
    query: Record<string, never>;
    body: never;
    response: { data: Refund };
  };
  'GET /reports/settlement': {
    params: Record<string, never>;
    query: {
      /** First UTC day */
      from: string;
      /** Last UTC day (at most 366 days after from, counted inclusive) */
      to: string;
    };
    body: never;
    response: { data: SettlementRow[] };
  };
  'POST /sandbox/billing/run': {
    params: Record<string, never>;
    query: Record<string, never>;
    body: never;
    response: { data: BillingRun };
  };
  'GET /subscriptions': {
    params: Record<string, never>;
    query: {
      /** Page number, from 1 */
      page?: number;
      /** Items per page, 1 to 100 */
      limit?: number;
      status?:
        'trialing' | 'active' | 'past_due' | 'paused' | 'pending_cancellation' | 'cancelled' | 'expired';
    };
    body: never;
    response: {
      data: Subscription[];
      pagination: { page: number; limit: number; total: number; totalPages: number };
    };
  };
  'POST /subscriptions': {
    params: Record<string, never>;
    query: Record<string, never>;
    body: CreateSubscriptionBody;
    response: { data: Subscription };
  };
  'GET /subscriptions/{id}': {
    params: { id: string };
    query: Record<string, never>;
    body: never;
    response: { data: Subscription };
  };
  'POST /subscriptions/{id}/cancel': {
    params: { id: string };
    query: Record<string, never>;
    body: CancelSubscriptionBody;
    response: { data: Subscription };
  };
  'POST /subscriptions/{id}/pause': {
    params: { id: string };
    query: Record<string, never>;
    body: never;
    response: { data: Subscription };
  };
  'POST /subscriptions/{id}/resume': {
    params: { id: string };
    query: Record<string, never>;
    body: never;
    response: { data: Subscription };
  };
  'POST /subscriptions/by-external-user': {
    params: Record<string, never>;
    query: Record<string, never>;
    body: CreateSubscriptionByExternalUserBody;
    response: { data: Subscription };
  };
  'GET /subscriptions/by-external-user/{externalUserId}': {
    params: { externalUserId: string };
    query: Record<string, never>;
    body: never;
    response: { data: Subscription };
  };
  'GET /webhook-deliveries': {
    params: Record<string, never>;
    query: {
      /** Page number, from 1 */
      page?: number;
      /** Items per page, 1 to 100 */
      limit?: number;
      endpointId?: string;
      event?:
        | 'payment-created'
        | 'payment-updated'
        | 'payment-request-created'
        | 'payment-request-updated'
        | 'subscription-created'
        | 'subscription-updated'
        | 'invoice-created'
        | 'invoice-paid'
        | 'invoice-voided'
        | 'checkout-session-completed'
        | 'checkout-session-expired'
        | 'account-updated'
        | 'refund-created'
        | 'refund-updated'
        | 'invoice-refunded';
      status?: 'pending' | 'succeeded' | 'failed';
    };
    body: never;
    response: {
      data: WebhookDelivery[];
      pagination: { page: number; limit: number; total: number; totalPages: number };
    };
  };
  'GET /webhook-deliveries/{id}': {
    params: { id: string };
    query: Record<string, never>;
    body: never;
    response: { data: WebhookDelivery };
  };
  'GET /webhook-deliveries/{id}/attempts': {
    params: { id: string };
    query: Record<string, never>;
    body: never;
    response: { data: WebhookAttempt[] };
  };
  'POST /webhook-deliveries/{id}/retry': {
    params: { id: string };
    query: Record<string, never>;
    body: never;
    response: { data: WebhookDelivery };
  };
  'GET /webhook-endpoints': {
    params: Record<string, never>;
    query: {
      /** Page number, from 1 */
      page?: number;
      /** Items per page, 1 to 100 */
      limit?: number;
    };
    body: never;
    response: {
      data: WebhookEndpoint[];
      pagination: { page: number; limit: number; total: number; totalPages: number };
    };
  };
  'POST /webhook-endpoints': {
    params: Record<string, never>;
    query: Record<string, never>;
    body: CreateWebhookEndpointBody;
    response: { data: WebhookEndpoint };
  };
  'DELETE /webhook-endpoints/{id}': {
    params: { id: string };
    query: Record<string, never>;
    body: never;
    response: { data: WebhookEndpoint };
  };
  'GET /webhook-endpoints/{id}': {
    params: { id: string };
    query: Record<string, never>;
    body: never;
    response: { data: WebhookEndpoint };
  };
  'PATCH /webhook-endpoints/{id}': {
    params: { id: string };
    query: Record<string, never>;
    body: UpdateWebhookEndpointBody;
    response: { data: WebhookEndpoint };
  };
  'POST /webhook-endpoints/{id}/rotate-secret': {
    params: { id: string };
    query: Record<string, never>;
    body: never;
    response: { data: WebhookEndpoint };
  };
  'POST /webhook-endpoints/{id}/test': {
    params: { id: string };
    query: Record<string, never>;
    body: SendTestEventBody;
    response: { data: WebhookDelivery };
  };
}
