/**
 * Routes of CONTRACT.md the service does not serve yet (billing: products, prices, customers,
 * subscriptions, invoices, the Sandbox billing run), typed by hand from SPEC.md and CONTRACT.md.
 * Once the service serves one, its generated type replaces the entry here (the agreement test
 * fails until the entry is removed).
 */

type DateTime = string;
type Id = string;
interface Pages {
  page?: number;
  limit?: number;
}
interface One<T> {
  data: T;
}
interface List<T> {
  data: T[];
  pagination: { page: number; limit: number; total: number; totalPages: number };
}

export type PriceInterval = 'weekly' | 'monthly' | 'yearly';

export interface Price {
  id: Id;
  productId: Id;
  /** Whole MRU, billed every interval. */
  amount: number;
  interval: PriceInterval;
  /** false once archived or replaced. */
  active: boolean;
  createdAt: DateTime;
}

export interface Product {
  id: Id;
  name: string;
  description: string | null;
  /** false once archived. */
  active: boolean;
  organizationId: Id;
  /** The environment it was created in. */
  environmentId: Id | null;
  createdAt: DateTime;
  /** Active prices only; on list and get. */
  prices?: Price[];
}

export interface Customer {
  id: Id;
  /** The merchant's user ID, unique within the organization. */
  externalUserId: string;
  /** 8-digit local number, used for the customer's payment requests. */
  phone: string | null;
  organizationId: Id;
  createdAt: DateTime;
}

export type InvoiceStatus = 'pending' | 'paid' | 'void' | 'refunded';

export interface Invoice {
  /** Also the transactionId of the invoice's payment request. */
  id: Id;
  customerId: Id;
  status: InvoiceStatus;
  /** Decimal MRU with two decimals, e.g. "1500.00". */
  amount: string;
  dueDate: DateTime | null;
  paymentRequestId: Id | null;
  /** A hosted page that pays this invoice's payment request. */
  checkoutUrl: string | null;
  periodStart: DateTime;
  periodEnd: DateTime;
  organizationId: Id;
  environmentId: Id;
  createdAt: DateTime;
}

export type SubscriptionStatus =
  'trialing' | 'active' | 'past_due' | 'paused' | 'pending_cancellation' | 'cancelled' | 'expired';

export interface Subscription {
  id: Id;
  customerId: Id;
  priceId: Id;
  status: SubscriptionStatus;
  trialEnd: DateTime | null;
  startedAt: DateTime | null;
  currentPeriodStart: DateTime | null;
  currentPeriodEnd: DateTime | null;
  nextBillingDate: DateTime | null;
  expiresAt: DateTime | null;
  cancelledAt: DateTime | null;
  environmentId: Id;
  organizationId: Id;
  createdAt: DateTime;
  updatedAt: DateTime;
}

export interface SubscriptionOptions {
  /** true (or "trialing") starts with a trial: give trialPeriod or trialEnd. */
  trial?: boolean | 'trialing';
  /** "1_week", "1_month", "1_year", or a number of days (1 to 730). */
  trialPeriod?: '1_week' | '1_month' | '1_year' | number;
  trialEnd?: DateTime;
  startedAt?: DateTime;
  expiresAt?: DateTime;
}

export interface CreateSubscriptionBody extends SubscriptionOptions {
  customerId: Id;
  priceId: Id;
}

export interface CreateSubscriptionByExternalUserBody extends SubscriptionOptions {
  externalUserId: string;
  priceId: Id;
  /** Creates or updates the customer's phone. */
  phone?: string;
}

export interface BillingRun {
  invoicesCreated: number;
  subscriptionsUpdated: number;
}

type Route<P, Q, B, R> = { params: P; query: Q; body: B; response: R };
type None = Record<string, never>;
type ById = { id: string };

export interface PlannedOperations {
  'GET /products': Route<None, Pages & { id?: Id }, never, List<Product>>;
  'POST /products': Route<None, None, { name: string; description?: string }, One<Product>>;
  'GET /products/{id}': Route<ById, None, never, One<Product>>;
  'PATCH /products/{id}': Route<
    ById,
    None,
    { name?: string; description?: string; active?: boolean },
    One<Product>
  >;
  'PATCH /products/{id}/archive': Route<ById, None, never, One<Product>>;
  'POST /prices': Route<None, None, { productId: Id; amount: number; interval: PriceInterval }, One<Price>>;
  'GET /prices/{id}': Route<ById, None, never, One<Price>>;
  'PATCH /prices/{id}': Route<
    ById,
    None,
    { amount?: number; interval?: PriceInterval; replaceExisting?: boolean },
    One<Price>
  >;
  'PATCH /prices/{id}/archive': Route<ById, None, never, One<Price>>;
  'GET /customers': Route<None, Pages & { id?: Id; externalUserId?: string }, never, List<Customer>>;
  'POST /customers': Route<None, None, { externalUserId: string; phone?: string }, One<Customer>>;
  'PATCH /customers/{id}': Route<ById, None, { externalUserId?: string; phone?: string }, One<Customer>>;
  'GET /invoices': Route<
    None,
    Pages & { id?: Id; externalUserId?: string; subscriptionId?: Id },
    never,
    List<Invoice>
  >;
  'GET /invoices/{id}': Route<ById, None, never, One<Invoice>>;
  'GET /subscriptions': Route<None, Pages & { status?: SubscriptionStatus }, never, List<Subscription>>;
  'POST /subscriptions': Route<None, None, CreateSubscriptionBody, One<Subscription>>;
  'GET /subscriptions/{id}': Route<ById, None, never, One<Subscription>>;
  'POST /subscriptions/by-external-user': Route<
    None,
    None,
    CreateSubscriptionByExternalUserBody,
    One<Subscription>
  >;
  'GET /subscriptions/by-external-user/{externalUserId}': Route<
    { externalUserId: string },
    None,
    never,
    One<Subscription>
  >;
  'POST /subscriptions/{id}/cancel': Route<ById, None, { atPeriodEnd?: boolean }, One<Subscription>>;
  'POST /subscriptions/{id}/pause': Route<ById, None, never, One<Subscription>>;
  'POST /subscriptions/{id}/resume': Route<ById, None, never, One<Subscription>>;
  'POST /sandbox/billing/run': Route<None, None, never, One<BillingRun>>;
}
