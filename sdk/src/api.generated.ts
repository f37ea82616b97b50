// Generated from the service's OpenAPI document (GET /api/docs-json) by test/sdk/openapi-types.ts.
// Do not edit: change the service, then run `UPDATE_SDK_TYPES=1 npx jest test/sdk/openapi-agreement`.

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
}

export interface CreatePaymentRequestBody {
  /** The merchant's own order ID, unique per environment */
  transactionId: string;
  /** Whole MRU, 1 to 100000000 */
  amount: number;
  /** The customer's 8-digit number (+222 and spaces are stripped) */
  phoneNumber?: string;
}

export interface CreateWebhookEndpointBody {
  /** Where deliveries are POSTed: an absolute http(s) URL */
  url: string;
  /** Event kinds to receive; default: the six kinds of SPEC.md */
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
  >;
  /** Default true */
  enabled?: boolean;
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
  environmentId: string;
  createdAt: string;
  updatedAt: string;
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
    | 'checkout-session-expired';
}

export interface SimulateTransferBody {
  /** What the customer's bank does (default completed) */
  outcome?: 'completed' | 'failed';
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
  >;
  /** Re-enabling resumes pending deliveries */
  enabled?: boolean;
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
    | 'checkout-session-expired';
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
  >;
  enabled: boolean;
  environmentId: string;
  createdAt: string;
  /** The signing secret (`whsec_…`): only in the answers of create and rotate-secret */
  secret?: string;
}

/** Every route of /api/v1: path parameters, query, JSON body and the 200 answer. */
export interface Operations {
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
        | 'checkout-session-expired';
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
