/**
 * Routes of the API the service does not serve yet, typed by hand until it does. Once the service
 * serves one, its generated type replaces the entry here (the agreement test fails until the entry
 * is removed). The billing routes (products, prices, customers, subscriptions, invoices, the
 * Sandbox billing run) are served now; what remains here are names the library keeps for them.
 */
import type { CreateSubscriptionBody, Invoice, Price, Subscription } from './api.generated';

export type PriceInterval = Price['interval'];
export type InvoiceStatus = Invoice['status'];
export type SubscriptionStatus = Subscription['status'];
/** The options every way of creating a subscription takes. */
export type SubscriptionOptions = Omit<CreateSubscriptionBody, 'customerId' | 'priceId'>;

/** Nothing is planned: every route the library calls is in the generated Operations. */
export type PlannedOperations = Record<never, never>;
