// Generated from the service's OpenAPI document (GET /api/docs-json) by test/sdk/openapi-types.ts.
// Do not edit: change the service, then run `UPDATE_SDK_TYPES=1 npx jest test/sdk/openapi-agreement`.

import type { ValidationErrorBody } from './errors';

export interface AccountJsonDoc {
  /** The connected organization's id (the `Khoums-Account` value) */
  id: string;
  name: string;
  email: string;
  /** The account's verification, as GET /organization shows it */
  verification: Verification;
  createdAt: string;
}

export interface AdvanceTestClockBody {
  /** The new time: later than the clock, by at most two years */
  frozenTime: string;
}

export interface ApplyDiscountBody {
  /** A coupon of the organization, by id or code */
  coupon: string;
}

export interface AssignTransferBody {
  /** The unpaid payment request of the same amount the transfer pays */
  paymentRequestId: string;
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

export interface BankingApiResponse {
  /** The payment request's transactionId */
  transactionId: string;
  /** The payment method of the payment */
  configurationId: string;
  configurationType: 'bankily' | 'masrivi' | 'sedad' | 'bim_bank' | 'amanty' | 'bci_pay' | 'gimtel';
  outcome: 'completed' | 'failed' | 'pending' | 'error';
  /** The bank adapter's normalised answer as JSON text (at most 2 KB) */
  body: string;
}

export interface BillingRun {
  /** Invoices created, one per billed period */
  invoicesCreated: number;
  /** Subscriptions whose state changed (renewed, expired, ended) */
  subscriptionsUpdated: number;
}

export interface BillingSettings {
  reminders: Reminders;
  sms: Sms;
  dunning: Dunning;
  portal: Portal;
  /** The prefix of the invoice numbers given from now on (`<prefix>-000001`); null: the organization's first four letters or digits */
  invoicePrefix: string | null;
}

export interface CancelSubscriptionBody {
  /** true: pending_cancellation until the current period ends; default: cancelled now */
  atPeriodEnd?: boolean;
}

export interface ChangeSubscriptionBody {
  /** An active price of an active product of the organization (another product’s is allowed) */
  priceId?: string;
  /** Units billed each period */
  quantity?: number;
  /** Default true: with at "now", the difference over the rest of the period is invoiced (positive) or credited to the customer (negative) */
  prorate?: boolean;
  /** Default "now"; "period_end": the next period bills the change (pendingChange until then) */
  at?: 'now' | 'period_end';
}

export interface CheckoutEnvironment {
  type: 'sandbox' | 'production';
}

export interface CheckoutOrganization {
  id: string;
  name: string;
  /** The public support phone the merchant set ("" when none) */
  phoneNumber: string;
  website: string | null;
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

export interface Coupon {
  id: string;
  /** Unique in the organization: 3–40 of A-Z 0-9 - _ */
  code: string;
  percentOff: number | null;
  /** Whole MRU off each discounted invoice */
  amountOff: number | null;
  duration: 'once' | 'repeating' | 'forever';
  /** With repeating: how many periods */
  durationInPeriods: number | null;
  maxRedemptions: number | null;
  timesRedeemed: number;
  expiresAt: string | null;
  archived: boolean;
  organizationId: string;
  createdAt: string;
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

export interface CreateCouponBody {
  /** Unique in the organization; generated when absent */
  code?: string;
  /** Exactly one of percentOff and amountOff */
  percentOff?: number;
  /** Whole MRU off each discounted invoice */
  amountOff?: number;
  /** once: the next invoice; repeating: durationInPeriods invoices; forever */
  duration: 'once' | 'repeating' | 'forever';
  durationInPeriods?: number;
  /** How many times it may be applied */
  maxRedemptions?: number;
  /** Not applied from then on */
  expiresAt?: string;
}

export interface CreateCustomerBody {
  /** The merchant's user ID, unique within the organization */
  externalUserId: string;
  /** The customer's 8-digit number (+222 and spaces are stripped) */
  phone?: string;
  /** Default fr */
  language?: 'fr' | 'ar' | 'en';
  /** Sandbox: the test clock the customer and all they own live on (docs/billing.md "Testing with test clocks") */
  testClockId?: string;
}

export interface CreateOnboardingLinkBody {
  /** Where the merchant lands once they applied to go live */
  returnUrl: string;
  /** Where a used or expired link sends the merchant (make a new link there) */
  refreshUrl: string;
}

export interface CreatePaymentLinkBody {
  name: string;
  description?: string | null;
  /** Whole MRU, 1 to 100000000; absent: the customer types the amount */
  amount?: number;
  /** Without `amount`: the least the customer may pay (default 1) */
  minAmount?: number;
  /** Without `amount`: the most the customer may pay (default 1000000) */
  maxAmount?: number;
  /** At most this many payments (default: no limit) */
  maxPayments?: number;
  /** After this, the page answers 410 (a future date-time) */
  expiresAt?: string;
  /** Shown to the customer after paying */
  successMessage?: string | null;
  /** The share text language (default fr) */
  language?: 'fr' | 'ar' | 'en';
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

export interface CreatePayoutBody {
  /** Whole MRU, 1 to 100000000; default: the whole available balance */
  amount?: number;
}

export interface CreatePortalSessionBody {
  /** A customer of the organization */
  customerId: string;
  /** Where the portal's "back" link leads (the merchant's site) */
  returnUrl?: string;
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
  /** Starts `incomplete` with its first invoice due at once; paid: `active`; unpaid 23 hours later: `incomplete_expired` and the invoice void. Not with a trial */
  requireFirstPayment?: boolean;
  /** Units of the price billed each period (default 1): each invoice is amount × quantity */
  quantity?: number;
  /** A coupon of the organization, by id or code, applied from the first invoice */
  coupon?: string;
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
  /** Starts `incomplete` with its first invoice due at once; paid: `active`; unpaid 23 hours later: `incomplete_expired` and the invoice void. Not with a trial */
  requireFirstPayment?: boolean;
  /** Units of the price billed each period (default 1): each invoice is amount × quantity */
  quantity?: number;
  /** A coupon of the organization, by id or code, applied from the first invoice */
  coupon?: string;
  /** Acting for a connected account (`Khoums-Account`) only: basis points of each invoice moved to the platform when it is paid */
  applicationFeeBps?: number;
  /** A customer of the organization */
  customerId: string;
  /** An active price of an active product */
  priceId: string;
}

export interface CreateTestClockBody {
  /** The time the clock starts at (its customers are created at it) */
  frozenTime: string;
  /** A name to tell clocks apart */
  name?: string;
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
    | 'invoice-upcoming'
    | 'invoice-overdue'
    | 'checkout-session-completed'
    | 'checkout-session-expired'
    | 'account-updated'
    | 'payout-created'
    | 'payout-updated'
    | 'refund-created'
    | 'refund-updated'
    | 'invoice-refunded'
    | 'test-clock-ready'
    | 'transfer-received'
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
  /** The language of the texts Khoums sends the customer (reminders by SMS, the portal) */
  language: 'fr' | 'ar' | 'en';
  /** Whole MRU owed to the customer (a plan change prorated down), taken off their next invoices (docs/billing.md) */
  creditBalance: number;
  /** The Sandbox test clock the customer and all they own live on (docs/billing.md "Testing with test clocks") */
  testClockId: string | null;
  organizationId: string;
  createdAt: string;
}

export interface DeletedTestClock {
  id: string;
  deleted: true;
}

export interface Discount {
  couponId: string;
  /** After how many discounted periods it ends (null: forever) */
  endsAfterPeriods: number | null;
  /** Periods discounted so far */
  periodsApplied: number;
}

export interface DunningBody {
  /** Days after an unpaid due date; null: never */
  afterDaysOverdue?: number | null;
  action?: 'cancel' | 'pause';
}

export interface Dunning {
  /** Days after an unpaid due date; null: never */
  afterDaysOverdue: number | null;
  action: 'cancel' | 'pause';
}

export interface GimtelApp {
  code: string;
  name: string;
}

export interface GimtelConfigurationBody {
  /** The bank of the receiving wallet: a code of PAYOUT_BANKS or a member app code (e.g. BANKILY) */
  receivingBank?: string;
  /** The receiving wallet: 8-digit local number */
  receivingPhone?: string;
  /** List the method and take transfers (default true) */
  enabled?: boolean;
}

export interface GimtelInstructions {
  kind: 'gimtel';
  /** The merchant's receiving wallet: 8-digit local number */
  receivingPhone: string;
  /** The bank of the receiving wallet (e.g. BANKILY) */
  receivingBank: string;
  /** Whole MRU to send, exactly */
  amount: number;
  /** The wallet the transfer must come from: 8-digit local number */
  payerPhone: string;
  paymentId: string;
  /** Send before this time (2 minutes of grace follow) */
  claimExpiresAt: string;
}

export interface Invoice {
  /** Also the transactionId of its payment request */
  id: string;
  /** Gapless and increasing per organization and environment: `<prefix>-000001` */
  number: string;
  customerId: string;
  subscriptionId: string;
  status: 'pending' | 'paid' | 'void' | 'refunded';
  /** What the customer pays: subtotal − discount − creditApplied; decimal MRU with two decimals */
  amount: string;
  /** The sum of the lines, decimal MRU */
  subtotal: string;
  /** Taken off by the subscription’s coupon, decimal MRU */
  discount: string;
  /** Taken off from the customer’s credit balance, decimal MRU */
  creditApplied: string;
  lines: InvoiceLine[];
  /** The end of the billed period (the subscription’s next billing date when the invoice was created) */
  dueDate: string | null;
  /** The payment request that pays it */
  paymentRequestId: string | null;
  /** A hosted page that pays this invoice; valid while it is pending, then shows it paid or void */
  checkoutUrl: string;
  /** Paid so far (the whole amount once paid), decimal MRU with two decimals */
  amountPaid: string;
  /** Still to pay while pending (what its payment request asks), else 0.00 */
  amountDue: string;
  /** Payments recorded by hand, oldest first */
  manualPayments: ManualPayment[];
  periodStart: string;
  periodEnd: string;
  organizationId: string;
  environmentId: string;
  createdAt: string;
}

export interface InvoiceLine {
  /** What the line bills: the product’s name */
  description: string;
  /** Units billed (the subscription’s quantity) */
  quantity: number;
  /** Decimal MRU per unit */
  unitAmount: string;
  /** Decimal MRU: unitAmount × quantity, or the prorated difference */
  amount: string;
  periodStart: string;
  periodEnd: string;
  /** The rest of a period after a change of price or quantity */
  proration: boolean;
}

export interface LatestPayment {
  id: string;
  amount: number;
  status: 'pending' | 'completed' | 'failed';
  referenceId: string | null;
  /** The phone number masked to its last two digits (`••••••22`) */
  phoneNumber: string;
  /** Transfer payments: until when the transfer is awaited; null for the other methods */
  claimExpiresAt: string | null;
}

export interface ManualPayment {
  id: string;
  /** Whole MRU */
  amount: number;
  method: 'cash' | 'bank_transfer' | 'cheque' | 'other';
  reference: string | null;
  paidAt: string;
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
  /** The public support phone the owner sets in the dashboard ("" when none); never the legal representative's */
  phoneNumber: string;
  /** The public website the owner sets in the dashboard */
  website: string | null;
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
  /** The payout that paid it out (from its balance transaction); null until then */
  payoutId: string | null;
  /** Whole MRU refunded or being refunded (a failed refund gives its amount back) */
  refundedAmount: number;
  environmentId: string;
  createdAt: string;
  updatedAt: string;
  /** Always null: the pass code is never kept */
  passCode: string | null;
  /** Always null (Khoums keeps no payment metadata) */
  metadata: Record<string, unknown> | null;
  /** Always null */
  lastSeenAt: string | null;
  /** Transfer payments: until when the transfer is awaited; null for the other methods */
  claimExpiresAt: string | null;
}

export interface PaymentLink {
  id: string;
  /** 10 random base62 characters: the link is `{PUBLIC_URL}/l/<code>` */
  code: string;
  /** The page customers pay on */
  url: string;
  /** 1 to 120 characters */
  name: string;
  description: string | null;
  /** Whole MRU; null: the customer types the amount, between minAmount and maxAmount */
  amount: number | null;
  /** With a customer-chosen amount (default 1) */
  minAmount: number | null;
  /** With a customer-chosen amount (default 1000000) */
  maxAmount: number | null;
  /** At most this many payments; null: no limit */
  maxPayments: number | null;
  expiresAt: string | null;
  /** Shown to the customer after paying */
  successMessage: string | null;
  /** The language of the share text */
  language: 'fr' | 'ar' | 'en';
  /** false: the page answers 410 */
  active: boolean;
  /** Payments completed through the link */
  paymentsCount: number;
  /** Whole MRU paid through the link */
  amountCollected: number;
  /** The QR code of `url` (SVG); `/qr.png?size=` for a PNG */
  qrCodeUrl: string;
  /** Opens WhatsApp with the share text in the link language */
  whatsappUrl: string;
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

export interface PaymentMethodDetail {
  /** The paymentMethodId (configurationId) used to pay */
  id: string;
  type: 'bankily' | 'masrivi' | 'sedad' | 'bim_bank' | 'amanty' | 'bci_pay' | 'gimtel';
  name: string;
  /** Bankily: the customer must give a pass code */
  requiresPassCode: boolean;
  /** push: the bank app is asked to debit the customer; transfer: the customer sends the money */
  flow: 'push' | 'transfer';
  config: PaymentMethodConfig;
  /** Transfer methods: the apps a customer may pay from */
  apps?: GimtelApp[];
  /** Transfer methods: the receiving wallet's bank */
  receivingBank?: string;
  /** Transfer methods: the receiving wallet, 8-digit local number */
  receivingPhone?: string;
  /** The key's organization */
  organizationId: string;
  /** true in Sandbox */
  isTestingMode: boolean;
  createdAt: string;
  updatedAt: string;
}

export interface PaymentMethod {
  /** The paymentMethodId (configurationId) used to pay */
  id: string;
  type: 'bankily' | 'masrivi' | 'sedad' | 'bim_bank' | 'amanty' | 'bci_pay' | 'gimtel';
  name: string;
  /** Bankily: the customer must give a pass code */
  requiresPassCode: boolean;
  /** push: the bank app is asked to debit the customer; transfer: the customer sends the money */
  flow: 'push' | 'transfer';
  config: PaymentMethodConfig;
  /** Transfer methods: the apps a customer may pay from */
  apps?: GimtelApp[];
  /** Transfer methods: the receiving wallet's bank */
  receivingBank?: string;
  /** Transfer methods: the receiving wallet, 8-digit local number */
  receivingPhone?: string;
  /** The key's organization */
  organizationId: string;
  /** true in Sandbox */
  isTestingMode: boolean;
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
  /** The payment link the request was made for; null otherwise */
  paymentLinkId: string | null;
  environmentId: string;
  createdAt: string;
  updatedAt: string;
  /** What the payer pays: `amount` (Khoums charges the payer no fee) */
  totalAmount: number;
  /** Payments made for the request after the first (0 for a fresh one) */
  retryCount: number;
}

export interface PaymentStatus {
  id: string;
  status: 'pending' | 'completed' | 'failed';
  /** The bank's reference */
  referenceId: string | null;
  /** Transfer payments: until when the transfer is awaited; null for the other methods */
  claimExpiresAt: string | null;
}

export interface PayoutAccount {
  /** Bank code, e.g. BNM */
  bank: string;
  holderName: string;
  /** The last four digits of the IBAN */
  ibanLast4: string;
  status: 'pending' | 'approved' | 'rejected';
}

export interface PayoutDestination {
  /** Bank code of the payout account */
  bank: string;
  holderName: string;
  /** The last four digits of the account's IBAN */
  ibanLast4: string;
}

export interface Payout {
  id: string;
  /** Whole MRU */
  amount: number;
  status: 'pending' | 'in_transit' | 'paid' | 'failed';
  destination: PayoutDestination;
  failureReason: string | null;
  /** The bank's reference of the transfer */
  bankReference: string | null;
  arrivedAt: string | null;
  environmentId: string;
  createdAt: string;
  updatedAt: string;
}

export interface PayoutRun {
  /** Payouts made by this run */
  payoutsCreated: number;
  /** Payouts whose status this run changed (paid, in_transit, failed) */
  payoutsUpdated: number;
}

export interface PayoutSchedule {
  interval: 'daily' | 'weekly' | 'manual';
  /** The day of a weekly schedule; null otherwise */
  weeklyDay: 'sunday' | 'monday' | 'tuesday' | 'wednesday' | 'thursday' | 'friday' | 'saturday' | null;
  /** The least balance, in whole MRU, the schedule pays out */
  minimumAmount: number;
  /** The hour (UTC) from which a due day is paid */
  hourUtc: number;
  environmentId: string;
  updatedAt: string;
}

export interface PendingChange {
  priceId: string;
  quantity: number;
  /** When it applies: the start of the next period */
  effectiveAt: string | null;
}

export interface PortalBody {
  allowCancel?: boolean;
}

export interface Portal {
  /** Customers may cancel at period end in the portal */
  allowCancel: boolean;
}

export interface PortalSession {
  /** Signs the customer in to the portal of the key's environment; hand it to this customer only */
  url: string;
  /** One hour after creation */
  expiresAt: string;
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

export interface PublicCheckoutSessionRecord {
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
  paymentRequestId: string;
  successUrl: string | null;
  cancelUrl: string | null;
  environmentId: string;
  /** The payment method chosen */
  selectedConfigurationId: string | null;
  completedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface PublicPayBody {
  /** The payment method id (alias: paymentMethodId) */
  configurationId: string;
  /** Alias of configurationId */
  paymentMethodId?: string;
  /** The customer's 8-digit number at the bank app (else the payment request's) */
  phoneNumber?: string | null;
  /** Bankily only: the pass code. Never stored. */
  passCode?: string;
}

export interface PublicPay {
  data: PublicPayment;
  status: 'pending' | 'completed' | 'failed';
  paymentId: string;
  referenceId: string | null;
  /** The payment method's type */
  provider: 'bankily' | 'masrivi' | 'sedad' | 'bim_bank' | 'amanty' | 'bci_pay' | 'gimtel';
  /** The session's successUrl once it is completed */
  successUrl: string | null;
  /** Transfer methods: what the customer must send, where and until when; null for the others */
  instructions: GimtelInstructions | null;
}

export interface PublicPayment {
  id: string;
  paymentRequestId: string;
  /** The payment request's transactionId */
  transactionId: string;
  /** Whole MRU */
  amount: number;
  /** The payment method id */
  configurationId: string;
  /** The phone number masked to its last two digits (`••••••22`) */
  phoneNumber: string;
  status: 'pending' | 'completed' | 'failed';
  /** The bank's reference */
  referenceId: string | null;
  failureReason: string | null;
  completedAt: string | null;
  /** The payout that paid it out (from its balance transaction); null until then */
  payoutId: string | null;
  /** Whole MRU refunded or being refunded (a failed refund gives its amount back) */
  refundedAmount: number;
  environmentId: string;
  createdAt: string;
  updatedAt: string;
  /** Always null: the pass code is never kept */
  passCode: string | null;
  /** Always null (Khoums keeps no payment metadata) */
  metadata: Record<string, unknown> | null;
  /** Always null */
  lastSeenAt: string | null;
  /** Transfer payments: until when the transfer is awaited; null for the other methods */
  claimExpiresAt: string | null;
}

export interface PublicPaymentRequest {
  id: string;
  amount: number;
  phoneNumber: string | null;
}

export interface PublicPaymentRequestView {
  id: string;
  /** The merchant's own order ID, unique per environment */
  transactionId: string;
  /** Whole MRU */
  amount: number;
  /** The phone number masked to its last two digits (`••••••22`) */
  phoneNumber: string | null;
  status: 'pending' | 'paid';
  paidAt: string | null;
  invoiceId: string | null;
  /** Whole MRU the connected account pays its platform when the request is paid; null: none */
  applicationFee: number | null;
  /** The payment link the request was made for; null otherwise */
  paymentLinkId: string | null;
  environmentId: string;
  createdAt: string;
  updatedAt: string;
  /** What the payer pays: `amount` (Khoums charges the payer no fee) */
  totalAmount: number;
  /** Payments made for the request after the first (0 for a fresh one) */
  retryCount: number;
}

export interface PublicPaymentStatus {
  data: CheckoutPaymentStatus;
  /** The payment's status (without paymentId the newest payment's); with no payment, pending while the session is open, else the session's status */
  status: 'pending' | 'completed' | 'failed' | 'open' | 'expired' | 'cancelled';
  /** The payment's claim (transfer payments); null for the other methods */
  claimExpiresAt: string | null;
  /** The session's successUrl once it is completed */
  successUrl: string | null;
}

export interface PublicSessionView {
  data: PublicCheckoutSessionRecord;
  organization: CheckoutOrganization;
  paymentRequest: PublicPaymentRequestView;
  /** The environment's payment methods */
  configurations: PaymentMethod[];
  /** Absent before any payment */
  latestPayment?: LatestPayment;
  environment: CheckoutEnvironment;
}

export interface PublicSimulateTransferBody {
  /** A payment of this session */
  paymentId: string;
}

export interface RecordManualPaymentBody {
  /** Whole MRU, at most what is still due */
  amount: number;
  method: 'cash' | 'bank_transfer' | 'cheque' | 'other';
  /** The receipt, transfer or cheque number */
  reference?: string;
  /** When it was paid (default now) */
  paidAt?: string;
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

export interface RemindersBody {
  beforeDueDays?: number[];
  afterDueDays?: number[];
}

export interface Reminders {
  beforeDueDays: number[];
  afterDueDays: number[];
}

export interface SandboxTransferBody {
  /** The payer's wallet: 8-digit local number */
  payerPhone: string;
  /** Whole MRU */
  amount: number;
  /** The member app it came from (default bankily) */
  payerApp?: string;
  memo?: string;
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
    | 'invoice-upcoming'
    | 'invoice-overdue'
    | 'checkout-session-completed'
    | 'checkout-session-expired'
    | 'account-updated'
    | 'payout-created'
    | 'payout-updated'
    | 'refund-created'
    | 'refund-updated'
    | 'invoice-refunded'
    | 'test-clock-ready'
    | 'transfer-received';
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

export interface SmsBody {
  enabled?: boolean;
}

export interface Sms {
  /** Khoums sends the reminders by SMS itself (in Sandbox: logs them) */
  enabled: boolean;
}

export interface Subscription {
  id: string;
  customerId: string;
  /** The price it was created with; each renewal bills its current amount */
  priceId: string;
  /** Units of the price billed each period: each invoice is the price’s amount × quantity */
  quantity: number;
  /** A change of price or quantity made for period end (POST /subscriptions/:id/change) */
  pendingChange: PendingChange | null;
  /** The applied coupon (docs/billing.md "Coupons") */
  discount: Discount | null;
  status:
    | 'trialing'
    | 'active'
    | 'past_due'
    | 'paused'
    | 'pending_cancellation'
    | 'cancelled'
    | 'expired'
    | 'incomplete'
    | 'incomplete_expired';
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

export interface SwitchMethodBody {
  /** The payment method id (alias: paymentMethodId) */
  configurationId: string;
  /** Alias of configurationId */
  paymentMethodId?: string;
}

export interface TestClock {
  id: string;
  name: string | null;
  /** The time of the clock (while advancing: the time it is advancing to) */
  frozenTime: string;
  /** advancing: the time-driven work up to frozenTime is being done; ready: done */
  status: 'ready' | 'advancing';
  /** How far the advance has got (equal to frozenTime once ready) */
  advancedTo: string;
  environmentId: string;
  createdAt: string;
  updatedAt: string;
}

export interface Transfer {
  id: string;
  /** The receiving bank's reference of the transfer */
  bankReference: string;
  /** The bank of the receiving wallet (e.g. BANKILY) */
  receivingBank: string;
  /** The receiving wallet: 8-digit local number */
  receivingPhone: string;
  /** The payer's wallet: 8-digit local number */
  payerPhone: string;
  /** The member app the payer sent from */
  payerApp: string;
  /** Whole MRU */
  amount: number;
  memo: string | null;
  receivedAt: string;
  /** matched: it completed the pending payment it was for; unmatched: waiting in the inbox; assigned: the merchant made it pay a request; returned: the merchant sent it back */
  status: 'matched' | 'unmatched' | 'assigned' | 'returned';
  /** The payment it completed */
  paymentId: string | null;
  /** The payment request it paid */
  paymentRequestId: string | null;
  createdAt: string;
}

export interface UpdateBillingSettingsBody {
  reminders?: RemindersBody;
  sms?: SmsBody;
  dunning?: DunningBody;
  portal?: PortalBody;
  /** The prefix of the invoice numbers given from now on; null: back to the default (the organization's first four letters or digits). Numbers already given keep theirs */
  invoicePrefix?: string | null;
}

export interface UpdateCustomerBody {
  /** A new user ID, unique within the organization */
  externalUserId?: string;
  /** A new number; null removes it */
  phone?: string | null;
  language?: 'fr' | 'ar' | 'en';
}

export interface UpdatePaymentLinkBody {
  name?: string;
  /** null removes it */
  description?: string | null;
  /** false deactivates the link (its page answers 410) */
  active?: boolean;
  /** null: no limit */
  maxPayments?: number | null;
  /** A future date-time; null: never expires */
  expiresAt?: string | null;
  /** null removes it */
  successMessage?: string | null;
}

export interface UpdatePayoutScheduleBody {
  /** daily (the default), weekly or manual */
  interval?: 'daily' | 'weekly' | 'manual';
  /** The day of a weekly payout (default monday) */
  weeklyDay?: 'sunday' | 'monday' | 'tuesday' | 'wednesday' | 'thursday' | 'friday' | 'saturday';
  /** The least balance, in whole MRU, the schedule pays out (default 1000) */
  minimumAmount?: number;
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
    | 'invoice-upcoming'
    | 'invoice-overdue'
    | 'checkout-session-completed'
    | 'checkout-session-expired'
    | 'account-updated'
    | 'payout-created'
    | 'payout-updated'
    | 'refund-created'
    | 'refund-updated'
    | 'invoice-refunded'
    | 'test-clock-ready'
    | 'transfer-received'
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
    | 'invoice-upcoming'
    | 'invoice-overdue'
    | 'checkout-session-completed'
    | 'checkout-session-expired'
    | 'account-updated'
    | 'payout-created'
    | 'payout-updated'
    | 'refund-created'
    | 'refund-updated'
    | 'invoice-refunded'
    | 'test-clock-ready'
    | 'transfer-received';
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
    | 'invoice-upcoming'
    | 'invoice-overdue'
    | 'checkout-session-completed'
    | 'checkout-session-expired'
    | 'account-updated'
    | 'payout-created'
    | 'payout-updated'
    | 'refund-created'
    | 'refund-updated'
    | 'invoice-refunded'
    | 'test-clock-ready'
    | 'transfer-received'
  >;
  enabled: boolean;
  /** A platform's endpoint that also receives the events of its connected accounts */
  connected: boolean;
  environmentId: string;
  createdAt: string;
  /** The signing secret (`whsec_…`): only in the answers of create and rotate-secret */
  secret?: string;
}

/** Every message of the API's error answers that names no value (an `AppException`'s `code`). */
export type ApiErrorMessage =
  | 'A coupon takes exactly one of percentOff and amountOff'
  | 'A coupon with this code already exists'
  | 'A payment for this payment request is already in progress'
  | 'A period cannot bill more than 100000000 MRU'
  | 'A request with this idempotency key is in progress'
  | 'A subscription with a trial cannot require a first payment'
  | 'API key is required'
  | 'Account is not connected to this platform'
  | 'Amount exceeds the amount due'
  | 'Amount is required when transactionId does not match an existing payment request'
  | 'Amount must be a positive number'
  | 'Amount must not exceed 100000000'
  | 'Application fee must not exceed the amount'
  | 'Application fees need a connected account'
  | 'Billing runs are only available in sandbox'
  | 'Checkout session is not open'
  | 'Checkout session not found'
  | 'Coupon is not valid'
  | 'Coupon not found'
  | 'Customer is on a test clock of another environment'
  | 'Customer not found'
  | 'Either paymentRequestId or transactionId is required'
  | 'Idempotency key must be 1 to 255 printable characters'
  | 'Idempotency key reused with different parameters'
  | 'Insufficient available balance'
  | 'Internal server error'
  | 'Invalid API key'
  | 'Invalid email address'
  | 'Invalid phone number'
  | 'Invalid receiving bank'
  | 'Invoice is not pending'
  | 'Invoice not found'
  | 'Malformed JSON body'
  | 'Malformed URL'
  | 'Not found'
  | 'Nothing to change'
  | 'Only completed payments can be refunded'
  | 'Only platforms can connect accounts'
  | 'Only secret API keys can create checkout sessions'
  | 'Organization is not verified'
  | 'Organization is not verified for Production'
  | 'Organization not found'
  | 'Pass code is required for Bankily'
  | 'Payload too large'
  | 'Payment Request not found'
  | 'Payment failed due to a third party error, please try again later'
  | 'Payment is not pending'
  | 'Payment link not found'
  | 'Payment method not found'
  | 'Payment not found'
  | 'Payment request is already paid'
  | 'Payment request is void: its invoice was voided'
  | 'Payment request is void: its payment link checkout session ended'
  | 'Payout not found'
  | 'Payout runs are only available in sandbox'
  | 'Payouts are on hold for this organization'
  | 'Phone number is required'
  | 'Price amount must be a positive number'
  | 'Price is not active'
  | 'Price not found'
  | 'Product not found'
  | 'Prorated changes need prices of the same interval'
  | 'Refund amount exceeds the amount left to refund'
  | 'Refund not found'
  | 'Service unavailable'
  | 'Simulated transfers are only available in sandbox'
  | 'Start date is too far in the past'
  | 'Subscription is not active'
  | 'Subscription not found'
  | 'Test clock is advancing'
  | 'Test clock not found'
  | 'Test clocks are only available in sandbox'
  | 'Test clocks only move forward, by at most two years'
  | 'Too many requests'
  | 'Too many webhook endpoints'
  | 'Transfer amount does not match the payment request'
  | 'Transfer is not unmatched'
  | 'Transfer not found'
  | 'URI too long'
  | 'Unauthorized access'
  | 'Unsupported media type'
  | 'Webhook URL must be a public address'
  | 'Webhook URL must be a public address in Production'
  | 'Webhook delivery not found'
  | 'Webhook endpoint not found'
  | 'durationInPeriods goes with a repeating duration, and only with it'
  | 'expiresAt must be after startedAt'
  | 'expiresAt must be in the future'
  | 'from must not be after to, and the range at most 366 days'
  | 'minAmount and maxAmount apply only to links without an amount'
  | 'minAmount must not exceed maxAmount'
  | 'trialEnd must be after startedAt'
  | 'trialPeriod or trialEnd is required when trial is true';

/**
 * Every route of /api/v1: path parameters, query, JSON body, the 200 answer, and each error answer
 * by status (its text/plain message; the validation body for a 422).
 */
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
    errors: {
      /** `Malformed URL` */
      400: 'Malformed URL';
      /** `API key is required`, `Invalid API key` */
      401: 'API key is required' | 'Invalid API key';
      /** `Unauthorized access`, `Account is not connected to this platform`, `Only platforms can connect accounts` */
      403:
        | 'Account is not connected to this platform'
        | 'Only platforms can connect accounts'
        | 'Unauthorized access';
      /** `Not found` */
      404: 'Not found';
      /** `URI too long` */
      414: 'URI too long';
      /** An input of the wrong type or shape: the validation body, as text/plain. */
      422: ValidationErrorBody;
      /** `Too many requests` */
      429: 'Too many requests';
      /** `Internal server error` */
      500: 'Internal server error';
      /** `Service unavailable` */
      503: 'Service unavailable';
    };
  };
  'POST /accounts': {
    params: Record<string, never>;
    query: Record<string, never>;
    body: CreateAccountBody;
    response: { data: AccountJsonDoc };
    errors: {
      /** `Malformed URL`, `Malformed JSON body`, `Idempotency key must be 1 to 255 printable characters`, `Idempotency key reused with different parameters`, `Invalid email address` */
      400:
        | 'Idempotency key must be 1 to 255 printable characters'
        | 'Idempotency key reused with different parameters'
        | 'Invalid email address'
        | 'Malformed JSON body'
        | 'Malformed URL';
      /** `API key is required`, `Invalid API key` */
      401: 'API key is required' | 'Invalid API key';
      /** `Unauthorized access`, `Account is not connected to this platform`, `Only platforms can connect accounts` */
      403:
        | 'Account is not connected to this platform'
        | 'Only platforms can connect accounts'
        | 'Unauthorized access';
      /** `Not found` */
      404: 'Not found';
      /** `A request with this idempotency key is in progress`, `A dashboard user with email … already exists` */
      409: 'A request with this idempotency key is in progress' | (string & {});
      /** `Payload too large` */
      413: 'Payload too large';
      /** `URI too long` */
      414: 'URI too long';
      /** `Unsupported media type` */
      415: 'Unsupported media type';
      /** An input of the wrong type or shape: the validation body, as text/plain. */
      422: ValidationErrorBody;
      /** `Too many requests` */
      429: 'Too many requests';
      /** `Internal server error` */
      500: 'Internal server error';
      /** `Service unavailable` */
      503: 'Service unavailable';
    };
  };
  'GET /accounts/{id}': {
    params: { id: string };
    query: Record<string, never>;
    body: never;
    response: { data: AccountJsonDoc };
    errors: {
      /** `Malformed URL` */
      400: 'Malformed URL';
      /** `API key is required`, `Invalid API key` */
      401: 'API key is required' | 'Invalid API key';
      /** `Unauthorized access`, `Account is not connected to this platform`, `Only platforms can connect accounts` */
      403:
        | 'Account is not connected to this platform'
        | 'Only platforms can connect accounts'
        | 'Unauthorized access';
      /** `Not found` */
      404: 'Not found';
      /** `URI too long` */
      414: 'URI too long';
      /** An input of the wrong type or shape: the validation body, as text/plain. */
      422: ValidationErrorBody;
      /** `Too many requests` */
      429: 'Too many requests';
      /** `Internal server error` */
      500: 'Internal server error';
      /** `Service unavailable` */
      503: 'Service unavailable';
    };
  };
  'POST /accounts/{id}/onboarding-link': {
    params: { id: string };
    query: Record<string, never>;
    body: CreateOnboardingLinkBody;
    response: { data: OnboardingLink };
    errors: {
      /** `Malformed URL`, `Malformed JSON body`, `Idempotency key must be 1 to 255 printable characters`, `Idempotency key reused with different parameters` */
      400:
        | 'Idempotency key must be 1 to 255 printable characters'
        | 'Idempotency key reused with different parameters'
        | 'Malformed JSON body'
        | 'Malformed URL';
      /** `API key is required`, `Invalid API key` */
      401: 'API key is required' | 'Invalid API key';
      /** `Unauthorized access`, `Account is not connected to this platform`, `Only platforms can connect accounts` */
      403:
        | 'Account is not connected to this platform'
        | 'Only platforms can connect accounts'
        | 'Unauthorized access';
      /** `Not found` */
      404: 'Not found';
      /** `A request with this idempotency key is in progress` */
      409: 'A request with this idempotency key is in progress';
      /** `Payload too large` */
      413: 'Payload too large';
      /** `URI too long` */
      414: 'URI too long';
      /** `Unsupported media type` */
      415: 'Unsupported media type';
      /** An input of the wrong type or shape: the validation body, as text/plain. */
      422: ValidationErrorBody;
      /** `Too many requests` */
      429: 'Too many requests';
      /** `Internal server error` */
      500: 'Internal server error';
      /** `Service unavailable` */
      503: 'Service unavailable';
    };
  };
  'GET /balance': {
    params: Record<string, never>;
    query: Record<string, never>;
    body: never;
    response: { data: Balance };
    errors: {
      /** `Malformed URL` */
      400: 'Malformed URL';
      /** `API key is required`, `Invalid API key` */
      401: 'API key is required' | 'Invalid API key';
      /** `Unauthorized access`, `Account is not connected to this platform` */
      403: 'Account is not connected to this platform' | 'Unauthorized access';
      /** `Not found` */
      404: 'Not found';
      /** `URI too long` */
      414: 'URI too long';
      /** `Too many requests` */
      429: 'Too many requests';
      /** `Internal server error` */
      500: 'Internal server error';
      /** `Service unavailable` */
      503: 'Service unavailable';
    };
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
    errors: {
      /** `Malformed URL` */
      400: 'Malformed URL';
      /** `API key is required`, `Invalid API key` */
      401: 'API key is required' | 'Invalid API key';
      /** `Unauthorized access`, `Account is not connected to this platform` */
      403: 'Account is not connected to this platform' | 'Unauthorized access';
      /** `Not found` */
      404: 'Not found';
      /** `URI too long` */
      414: 'URI too long';
      /** An input of the wrong type or shape: the validation body, as text/plain. */
      422: ValidationErrorBody;
      /** `Too many requests` */
      429: 'Too many requests';
      /** `Internal server error` */
      500: 'Internal server error';
      /** `Service unavailable` */
      503: 'Service unavailable';
    };
  };
  'GET /billing-settings': {
    params: Record<string, never>;
    query: Record<string, never>;
    body: never;
    response: { data: BillingSettings };
    errors: {
      /** `Malformed URL` */
      400: 'Malformed URL';
      /** `API key is required`, `Invalid API key` */
      401: 'API key is required' | 'Invalid API key';
      /** `Unauthorized access`, `Account is not connected to this platform` */
      403: 'Account is not connected to this platform' | 'Unauthorized access';
      /** `Not found` */
      404: 'Not found';
      /** `URI too long` */
      414: 'URI too long';
      /** `Too many requests` */
      429: 'Too many requests';
      /** `Internal server error` */
      500: 'Internal server error';
      /** `Service unavailable` */
      503: 'Service unavailable';
    };
  };
  'PATCH /billing-settings': {
    params: Record<string, never>;
    query: Record<string, never>;
    body: UpdateBillingSettingsBody;
    response: { data: BillingSettings };
    errors: {
      /** `Malformed URL`, `Malformed JSON body`, `Idempotency key must be 1 to 255 printable characters`, `Idempotency key reused with different parameters` */
      400:
        | 'Idempotency key must be 1 to 255 printable characters'
        | 'Idempotency key reused with different parameters'
        | 'Malformed JSON body'
        | 'Malformed URL';
      /** `API key is required`, `Invalid API key` */
      401: 'API key is required' | 'Invalid API key';
      /** `Unauthorized access`, `Account is not connected to this platform` */
      403: 'Account is not connected to this platform' | 'Unauthorized access';
      /** `Not found` */
      404: 'Not found';
      /** `A request with this idempotency key is in progress` */
      409: 'A request with this idempotency key is in progress';
      /** `Payload too large` */
      413: 'Payload too large';
      /** `URI too long` */
      414: 'URI too long';
      /** `Unsupported media type` */
      415: 'Unsupported media type';
      /** An input of the wrong type or shape: the validation body, as text/plain. */
      422: ValidationErrorBody;
      /** `Too many requests` */
      429: 'Too many requests';
      /** `Internal server error` */
      500: 'Internal server error';
      /** `Service unavailable` */
      503: 'Service unavailable';
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
    errors: {
      /** `Malformed URL`, `Malformed JSON body`, `Idempotency key must be 1 to 255 printable characters`, `Idempotency key reused with different parameters`, `Either paymentRequestId or transactionId is required`, `Amount is required when transactionId does not match an existing payment request`, `Application fees need a connected account`, `Application fee must not exceed the amount`, `Amount must be a positive number`, `Amount must not exceed 100000000`, `Invalid phone number` */
      400:
        | 'Amount is required when transactionId does not match an existing payment request'
        | 'Amount must be a positive number'
        | 'Amount must not exceed 100000000'
        | 'Application fee must not exceed the amount'
        | 'Application fees need a connected account'
        | 'Either paymentRequestId or transactionId is required'
        | 'Idempotency key must be 1 to 255 printable characters'
        | 'Idempotency key reused with different parameters'
        | 'Invalid phone number'
        | 'Malformed JSON body'
        | 'Malformed URL';
      /** `API key is required`, `Invalid API key` */
      401: 'API key is required' | 'Invalid API key';
      /** `Only secret API keys can create checkout sessions`, `Account is not connected to this platform`, `Organization is not verified for Production` */
      403:
        | 'Account is not connected to this platform'
        | 'Only secret API keys can create checkout sessions'
        | 'Organization is not verified for Production';
      /** `Not found`, `Payment Request not found` */
      404: 'Not found' | 'Payment Request not found';
      /** `A request with this idempotency key is in progress`, `Payment request is already paid`, `Payment request is void: its invoice was voided`, `Payment request is void: its payment link checkout session ended` */
      409:
        | 'A request with this idempotency key is in progress'
        | 'Payment request is already paid'
        | 'Payment request is void: its invoice was voided'
        | 'Payment request is void: its payment link checkout session ended';
      /** `Payload too large` */
      413: 'Payload too large';
      /** `URI too long` */
      414: 'URI too long';
      /** `Unsupported media type` */
      415: 'Unsupported media type';
      /** An input of the wrong type or shape: the validation body, as text/plain. */
      422: ValidationErrorBody;
      /** `Too many requests` */
      429: 'Too many requests';
      /** `Internal server error` */
      500: 'Internal server error';
      /** `Service unavailable` */
      503: 'Service unavailable';
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
    errors: {
      /** `Malformed URL` */
      400: 'Malformed URL';
      /** `API key is required`, `Invalid API key` */
      401: 'API key is required' | 'Invalid API key';
      /** `Unauthorized access`, `Account is not connected to this platform` */
      403: 'Account is not connected to this platform' | 'Unauthorized access';
      /** `Not found`, `Checkout session not found` */
      404: 'Checkout session not found' | 'Not found';
      /** `URI too long` */
      414: 'URI too long';
      /** An input of the wrong type or shape: the validation body, as text/plain. */
      422: ValidationErrorBody;
      /** `Too many requests` */
      429: 'Too many requests';
      /** `Internal server error` */
      500: 'Internal server error';
      /** `Service unavailable` */
      503: 'Service unavailable';
    };
  };
  'POST /checkout-session/{id}/expire': {
    params: { id: string };
    query: Record<string, never>;
    body: never;
    response: { data: CheckoutSession };
    errors: {
      /** `Malformed URL`, `Malformed JSON body`, `Idempotency key must be 1 to 255 printable characters`, `Idempotency key reused with different parameters` */
      400:
        | 'Idempotency key must be 1 to 255 printable characters'
        | 'Idempotency key reused with different parameters'
        | 'Malformed JSON body'
        | 'Malformed URL';
      /** `API key is required`, `Invalid API key` */
      401: 'API key is required' | 'Invalid API key';
      /** `Unauthorized access`, `Account is not connected to this platform` */
      403: 'Account is not connected to this platform' | 'Unauthorized access';
      /** `Not found`, `Checkout session not found` */
      404: 'Checkout session not found' | 'Not found';
      /** `A request with this idempotency key is in progress`, `Checkout session is not open`, `A payment for this payment request is already in progress` */
      409:
        | 'A payment for this payment request is already in progress'
        | 'A request with this idempotency key is in progress'
        | 'Checkout session is not open';
      /** `Payload too large` */
      413: 'Payload too large';
      /** `URI too long` */
      414: 'URI too long';
      /** `Unsupported media type` */
      415: 'Unsupported media type';
      /** An input of the wrong type or shape: the validation body, as text/plain. */
      422: ValidationErrorBody;
      /** `Too many requests` */
      429: 'Too many requests';
      /** `Internal server error` */
      500: 'Internal server error';
      /** `Service unavailable` */
      503: 'Service unavailable';
    };
  };
  'GET /checkout-session/public/{id}': {
    params: { id: string };
    query: Record<string, never>;
    body: never;
    response: PublicSessionView;
    errors: {
      /** `Malformed URL` */
      400: 'Malformed URL';
      /** `Not found`, `Checkout session not found` */
      404: 'Checkout session not found' | 'Not found';
      /** `URI too long` */
      414: 'URI too long';
      /** An input of the wrong type or shape: the validation body, as text/plain. */
      422: ValidationErrorBody;
      /** `Too many requests` */
      429: 'Too many requests';
      /** `Internal server error` */
      500: 'Internal server error';
      /** `Service unavailable` */
      503: 'Service unavailable';
    };
  };
  'POST /checkout-session/public/{id}/pay': {
    params: { id: string };
    query: Record<string, never>;
    body: PublicPayBody;
    response: PublicPay;
    errors: {
      /** `Malformed URL`, `Malformed JSON body`, `Idempotency key must be 1 to 255 printable characters`, `Idempotency key reused with different parameters`, `Phone number is required`, `Invalid phone number`, `Pass code is required for Bankily` */
      400:
        | 'Idempotency key must be 1 to 255 printable characters'
        | 'Idempotency key reused with different parameters'
        | 'Invalid phone number'
        | 'Malformed JSON body'
        | 'Malformed URL'
        | 'Pass code is required for Bankily'
        | 'Phone number is required';
      /** `Organization is not verified for Production` */
      403: 'Organization is not verified for Production';
      /** `Not found`, `Checkout session not found`, `Payment method not found` */
      404: 'Checkout session not found' | 'Not found' | 'Payment method not found';
      /** `A request with this idempotency key is in progress`, `Checkout session is not open`, `Payment request is already paid`, `Payment request is void: its invoice was voided`, `A payment for this payment request is already in progress` */
      409:
        | 'A payment for this payment request is already in progress'
        | 'A request with this idempotency key is in progress'
        | 'Checkout session is not open'
        | 'Payment request is already paid'
        | 'Payment request is void: its invoice was voided';
      /** `Payload too large` */
      413: 'Payload too large';
      /** `URI too long` */
      414: 'URI too long';
      /** `Unsupported media type` */
      415: 'Unsupported media type';
      /** An input of the wrong type or shape: the validation body, as text/plain. */
      422: ValidationErrorBody;
      /** `Too many requests`, `Too many requests` */
      429: 'Too many requests';
      /** `Internal server error` */
      500: 'Internal server error';
      /** `Payment failed due to a third party error, please try again later` */
      502: 'Payment failed due to a third party error, please try again later';
      /** `Service unavailable` */
      503: 'Service unavailable';
    };
  };
  'GET /checkout-session/public/{id}/payment-status': {
    params: { id: string };
    query: {
      /** A payment of this session (else the newest) */
      paymentId?: string;
    };
    body: never;
    response: PublicPaymentStatus;
    errors: {
      /** `Malformed URL` */
      400: 'Malformed URL';
      /** `Not found`, `Checkout session not found`, `Payment not found` */
      404: 'Checkout session not found' | 'Not found' | 'Payment not found';
      /** `URI too long` */
      414: 'URI too long';
      /** An input of the wrong type or shape: the validation body, as text/plain. */
      422: ValidationErrorBody;
      /** `Too many requests` */
      429: 'Too many requests';
      /** `Internal server error` */
      500: 'Internal server error';
      /** `Service unavailable` */
      503: 'Service unavailable';
    };
  };
  'POST /checkout-session/public/{id}/simulate-transfer': {
    params: { id: string };
    query: Record<string, never>;
    body: PublicSimulateTransferBody;
    response: PublicPaymentStatus;
    errors: {
      /** `Malformed URL`, `Malformed JSON body`, `Idempotency key must be 1 to 255 printable characters`, `Idempotency key reused with different parameters`, `Simulated transfers are only available in sandbox` */
      400:
        | 'Idempotency key must be 1 to 255 printable characters'
        | 'Idempotency key reused with different parameters'
        | 'Malformed JSON body'
        | 'Malformed URL'
        | 'Simulated transfers are only available in sandbox';
      /** `Not found`, `Checkout session not found`, `Payment not found` */
      404: 'Checkout session not found' | 'Not found' | 'Payment not found';
      /** `A request with this idempotency key is in progress`, `Checkout session is not open`, `Payment is not pending` */
      409:
        | 'A request with this idempotency key is in progress'
        | 'Checkout session is not open'
        | 'Payment is not pending';
      /** `Payload too large` */
      413: 'Payload too large';
      /** `URI too long` */
      414: 'URI too long';
      /** `Unsupported media type` */
      415: 'Unsupported media type';
      /** An input of the wrong type or shape: the validation body, as text/plain. */
      422: ValidationErrorBody;
      /** `Too many requests` */
      429: 'Too many requests';
      /** `Internal server error` */
      500: 'Internal server error';
      /** `Service unavailable` */
      503: 'Service unavailable';
    };
  };
  'POST /checkout-session/public/{id}/switch-method': {
    params: { id: string };
    query: Record<string, never>;
    body: SwitchMethodBody;
    response: PublicSessionView;
    errors: {
      /** `Malformed URL`, `Malformed JSON body`, `Idempotency key must be 1 to 255 printable characters`, `Idempotency key reused with different parameters` */
      400:
        | 'Idempotency key must be 1 to 255 printable characters'
        | 'Idempotency key reused with different parameters'
        | 'Malformed JSON body'
        | 'Malformed URL';
      /** `Not found`, `Checkout session not found`, `Payment method not found` */
      404: 'Checkout session not found' | 'Not found' | 'Payment method not found';
      /** `A request with this idempotency key is in progress`, `Checkout session is not open`, `A payment for this payment request is already in progress` */
      409:
        | 'A payment for this payment request is already in progress'
        | 'A request with this idempotency key is in progress'
        | 'Checkout session is not open';
      /** `Payload too large` */
      413: 'Payload too large';
      /** `URI too long` */
      414: 'URI too long';
      /** `Unsupported media type` */
      415: 'Unsupported media type';
      /** An input of the wrong type or shape: the validation body, as text/plain. */
      422: ValidationErrorBody;
      /** `Too many requests` */
      429: 'Too many requests';
      /** `Internal server error` */
      500: 'Internal server error';
      /** `Service unavailable` */
      503: 'Service unavailable';
    };
  };
  'GET /configuration': {
    params: Record<string, never>;
    query: {
      /** Accepted for the client libraries; it has no effect (the key decides the environment) */
      isTestingMode?: string;
    };
    body: never;
    response: { data: PaymentMethod[] };
    errors: {
      /** `Malformed URL` */
      400: 'Malformed URL';
      /** `API key is required`, `Invalid API key` */
      401: 'API key is required' | 'Invalid API key';
      /** `Account is not connected to this platform` */
      403: 'Account is not connected to this platform';
      /** `Not found` */
      404: 'Not found';
      /** `URI too long` */
      414: 'URI too long';
      /** An input of the wrong type or shape: the validation body, as text/plain. */
      422: ValidationErrorBody;
      /** `Too many requests` */
      429: 'Too many requests';
      /** `Internal server error` */
      500: 'Internal server error';
      /** `Service unavailable` */
      503: 'Service unavailable';
    };
  };
  'GET /configuration/{id}': {
    params: { id: string };
    query: Record<string, never>;
    body: never;
    response: { data: PaymentMethodDetail };
    errors: {
      /** `Malformed URL` */
      400: 'Malformed URL';
      /** `API key is required`, `Invalid API key` */
      401: 'API key is required' | 'Invalid API key';
      /** `Account is not connected to this platform` */
      403: 'Account is not connected to this platform';
      /** `Not found`, `Payment method not found` */
      404: 'Not found' | 'Payment method not found';
      /** `URI too long` */
      414: 'URI too long';
      /** An input of the wrong type or shape: the validation body, as text/plain. */
      422: ValidationErrorBody;
      /** `Too many requests` */
      429: 'Too many requests';
      /** `Internal server error` */
      500: 'Internal server error';
      /** `Service unavailable` */
      503: 'Service unavailable';
    };
  };
  'PUT /configuration/gimtel': {
    params: Record<string, never>;
    query: Record<string, never>;
    body: GimtelConfigurationBody;
    response: { data: PaymentMethod };
    errors: {
      /** `Malformed URL`, `Malformed JSON body`, `Idempotency key must be 1 to 255 printable characters`, `Idempotency key reused with different parameters`, `Invalid receiving bank`, `Invalid phone number`, `Organization is not verified` */
      400:
        | 'Idempotency key must be 1 to 255 printable characters'
        | 'Idempotency key reused with different parameters'
        | 'Invalid phone number'
        | 'Invalid receiving bank'
        | 'Malformed JSON body'
        | 'Malformed URL'
        | 'Organization is not verified';
      /** `API key is required`, `Invalid API key` */
      401: 'API key is required' | 'Invalid API key';
      /** `Unauthorized access`, `Account is not connected to this platform` */
      403: 'Account is not connected to this platform' | 'Unauthorized access';
      /** `Not found` */
      404: 'Not found';
      /** `A request with this idempotency key is in progress` */
      409: 'A request with this idempotency key is in progress';
      /** `Payload too large` */
      413: 'Payload too large';
      /** `URI too long` */
      414: 'URI too long';
      /** `Unsupported media type` */
      415: 'Unsupported media type';
      /** An input of the wrong type or shape: the validation body, as text/plain. */
      422: ValidationErrorBody;
      /** `Too many requests` */
      429: 'Too many requests';
      /** `Internal server error` */
      500: 'Internal server error';
      /** `Service unavailable` */
      503: 'Service unavailable';
    };
  };
  'GET /coupons': {
    params: Record<string, never>;
    query: {
      /** Page number, from 1 */
      page?: number;
      /** Items per page, 1 to 100 */
      limit?: number;
    };
    body: never;
    response: {
      data: Coupon[];
      pagination: { page: number; limit: number; total: number; totalPages: number };
    };
    errors: {
      /** `Malformed URL` */
      400: 'Malformed URL';
      /** `API key is required`, `Invalid API key` */
      401: 'API key is required' | 'Invalid API key';
      /** `Unauthorized access`, `Account is not connected to this platform` */
      403: 'Account is not connected to this platform' | 'Unauthorized access';
      /** `Not found` */
      404: 'Not found';
      /** `URI too long` */
      414: 'URI too long';
      /** An input of the wrong type or shape: the validation body, as text/plain. */
      422: ValidationErrorBody;
      /** `Too many requests` */
      429: 'Too many requests';
      /** `Internal server error` */
      500: 'Internal server error';
      /** `Service unavailable` */
      503: 'Service unavailable';
    };
  };
  'POST /coupons': {
    params: Record<string, never>;
    query: Record<string, never>;
    body: CreateCouponBody;
    response: { data: Coupon };
    errors: {
      /** `Malformed URL`, `Malformed JSON body`, `Idempotency key must be 1 to 255 printable characters`, `Idempotency key reused with different parameters`, `A coupon takes exactly one of percentOff and amountOff`, `durationInPeriods goes with a repeating duration, and only with it` */
      400:
        | 'A coupon takes exactly one of percentOff and amountOff'
        | 'Idempotency key must be 1 to 255 printable characters'
        | 'Idempotency key reused with different parameters'
        | 'Malformed JSON body'
        | 'Malformed URL'
        | 'durationInPeriods goes with a repeating duration, and only with it';
      /** `API key is required`, `Invalid API key` */
      401: 'API key is required' | 'Invalid API key';
      /** `Unauthorized access`, `Account is not connected to this platform` */
      403: 'Account is not connected to this platform' | 'Unauthorized access';
      /** `Not found` */
      404: 'Not found';
      /** `A request with this idempotency key is in progress`, `A coupon with this code already exists` */
      409: 'A coupon with this code already exists' | 'A request with this idempotency key is in progress';
      /** `Payload too large` */
      413: 'Payload too large';
      /** `URI too long` */
      414: 'URI too long';
      /** `Unsupported media type` */
      415: 'Unsupported media type';
      /** An input of the wrong type or shape: the validation body, as text/plain. */
      422: ValidationErrorBody;
      /** `Too many requests` */
      429: 'Too many requests';
      /** `Internal server error` */
      500: 'Internal server error';
      /** `Service unavailable` */
      503: 'Service unavailable';
    };
  };
  'GET /coupons/{id}': {
    params: { id: string };
    query: Record<string, never>;
    body: never;
    response: { data: Coupon };
    errors: {
      /** `Malformed URL` */
      400: 'Malformed URL';
      /** `API key is required`, `Invalid API key` */
      401: 'API key is required' | 'Invalid API key';
      /** `Unauthorized access`, `Account is not connected to this platform` */
      403: 'Account is not connected to this platform' | 'Unauthorized access';
      /** `Not found`, `Coupon not found` */
      404: 'Coupon not found' | 'Not found';
      /** `URI too long` */
      414: 'URI too long';
      /** An input of the wrong type or shape: the validation body, as text/plain. */
      422: ValidationErrorBody;
      /** `Too many requests` */
      429: 'Too many requests';
      /** `Internal server error` */
      500: 'Internal server error';
      /** `Service unavailable` */
      503: 'Service unavailable';
    };
  };
  'POST /coupons/{id}/archive': {
    params: { id: string };
    query: Record<string, never>;
    body: never;
    response: { data: Coupon };
    errors: {
      /** `Malformed URL`, `Malformed JSON body`, `Idempotency key must be 1 to 255 printable characters`, `Idempotency key reused with different parameters` */
      400:
        | 'Idempotency key must be 1 to 255 printable characters'
        | 'Idempotency key reused with different parameters'
        | 'Malformed JSON body'
        | 'Malformed URL';
      /** `API key is required`, `Invalid API key` */
      401: 'API key is required' | 'Invalid API key';
      /** `Unauthorized access`, `Account is not connected to this platform` */
      403: 'Account is not connected to this platform' | 'Unauthorized access';
      /** `Not found`, `Coupon not found` */
      404: 'Coupon not found' | 'Not found';
      /** `A request with this idempotency key is in progress` */
      409: 'A request with this idempotency key is in progress';
      /** `Payload too large` */
      413: 'Payload too large';
      /** `URI too long` */
      414: 'URI too long';
      /** `Unsupported media type` */
      415: 'Unsupported media type';
      /** An input of the wrong type or shape: the validation body, as text/plain. */
      422: ValidationErrorBody;
      /** `Too many requests` */
      429: 'Too many requests';
      /** `Internal server error` */
      500: 'Internal server error';
      /** `Service unavailable` */
      503: 'Service unavailable';
    };
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
    errors: {
      /** `Malformed URL` */
      400: 'Malformed URL';
      /** `API key is required`, `Invalid API key` */
      401: 'API key is required' | 'Invalid API key';
      /** `Unauthorized access`, `Account is not connected to this platform` */
      403: 'Account is not connected to this platform' | 'Unauthorized access';
      /** `Not found` */
      404: 'Not found';
      /** `URI too long` */
      414: 'URI too long';
      /** An input of the wrong type or shape: the validation body, as text/plain. */
      422: ValidationErrorBody;
      /** `Too many requests` */
      429: 'Too many requests';
      /** `Internal server error` */
      500: 'Internal server error';
      /** `Service unavailable` */
      503: 'Service unavailable';
    };
  };
  'POST /customers': {
    params: Record<string, never>;
    query: Record<string, never>;
    body: CreateCustomerBody;
    response: { data: Customer };
    errors: {
      /** `Malformed URL`, `Malformed JSON body`, `Idempotency key must be 1 to 255 printable characters`, `Idempotency key reused with different parameters`, `Invalid phone number`, `Test clocks are only available in sandbox` */
      400:
        | 'Idempotency key must be 1 to 255 printable characters'
        | 'Idempotency key reused with different parameters'
        | 'Invalid phone number'
        | 'Malformed JSON body'
        | 'Malformed URL'
        | 'Test clocks are only available in sandbox';
      /** `API key is required`, `Invalid API key` */
      401: 'API key is required' | 'Invalid API key';
      /** `Unauthorized access`, `Account is not connected to this platform` */
      403: 'Account is not connected to this platform' | 'Unauthorized access';
      /** `Not found`, `Test clock not found` */
      404: 'Not found' | 'Test clock not found';
      /** `A request with this idempotency key is in progress`, `A customer with externalUserId "…" already exists` */
      409: 'A request with this idempotency key is in progress' | (string & {});
      /** `Payload too large` */
      413: 'Payload too large';
      /** `URI too long` */
      414: 'URI too long';
      /** `Unsupported media type` */
      415: 'Unsupported media type';
      /** An input of the wrong type or shape: the validation body, as text/plain. */
      422: ValidationErrorBody;
      /** `Too many requests` */
      429: 'Too many requests';
      /** `Internal server error` */
      500: 'Internal server error';
      /** `Service unavailable` */
      503: 'Service unavailable';
    };
  };
  'PATCH /customers/{id}': {
    params: { id: string };
    query: Record<string, never>;
    body: UpdateCustomerBody;
    response: { data: Customer };
    errors: {
      /** `Malformed URL`, `Malformed JSON body`, `Idempotency key must be 1 to 255 printable characters`, `Idempotency key reused with different parameters`, `Invalid phone number` */
      400:
        | 'Idempotency key must be 1 to 255 printable characters'
        | 'Idempotency key reused with different parameters'
        | 'Invalid phone number'
        | 'Malformed JSON body'
        | 'Malformed URL';
      /** `API key is required`, `Invalid API key` */
      401: 'API key is required' | 'Invalid API key';
      /** `Unauthorized access`, `Account is not connected to this platform` */
      403: 'Account is not connected to this platform' | 'Unauthorized access';
      /** `Not found`, `Customer not found` */
      404: 'Customer not found' | 'Not found';
      /** `A request with this idempotency key is in progress`, `A customer with externalUserId "…" already exists` */
      409: 'A request with this idempotency key is in progress' | (string & {});
      /** `Payload too large` */
      413: 'Payload too large';
      /** `URI too long` */
      414: 'URI too long';
      /** `Unsupported media type` */
      415: 'Unsupported media type';
      /** An input of the wrong type or shape: the validation body, as text/plain. */
      422: ValidationErrorBody;
      /** `Too many requests` */
      429: 'Too many requests';
      /** `Internal server error` */
      500: 'Internal server error';
      /** `Service unavailable` */
      503: 'Service unavailable';
    };
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
    errors: {
      /** `Malformed URL` */
      400: 'Malformed URL';
      /** `API key is required`, `Invalid API key` */
      401: 'API key is required' | 'Invalid API key';
      /** `Unauthorized access`, `Account is not connected to this platform` */
      403: 'Account is not connected to this platform' | 'Unauthorized access';
      /** `Not found` */
      404: 'Not found';
      /** `URI too long` */
      414: 'URI too long';
      /** An input of the wrong type or shape: the validation body, as text/plain. */
      422: ValidationErrorBody;
      /** `Too many requests` */
      429: 'Too many requests';
      /** `Internal server error` */
      500: 'Internal server error';
      /** `Service unavailable` */
      503: 'Service unavailable';
    };
  };
  'GET /invoices/{id}': {
    params: { id: string };
    query: Record<string, never>;
    body: never;
    response: { data: Invoice };
    errors: {
      /** `Malformed URL` */
      400: 'Malformed URL';
      /** `API key is required`, `Invalid API key` */
      401: 'API key is required' | 'Invalid API key';
      /** `Unauthorized access`, `Account is not connected to this platform` */
      403: 'Account is not connected to this platform' | 'Unauthorized access';
      /** `Not found`, `Invoice not found` */
      404: 'Invoice not found' | 'Not found';
      /** `URI too long` */
      414: 'URI too long';
      /** An input of the wrong type or shape: the validation body, as text/plain. */
      422: ValidationErrorBody;
      /** `Too many requests` */
      429: 'Too many requests';
      /** `Internal server error` */
      500: 'Internal server error';
      /** `Service unavailable` */
      503: 'Service unavailable';
    };
  };
  'POST /invoices/{id}/payments': {
    params: { id: string };
    query: Record<string, never>;
    body: RecordManualPaymentBody;
    response: { data: Invoice };
    errors: {
      /** `Malformed URL`, `Malformed JSON body`, `Idempotency key must be 1 to 255 printable characters`, `Idempotency key reused with different parameters`, `Amount exceeds the amount due`, `Amount must be a positive number`, `Amount must not exceed 100000000` */
      400:
        | 'Amount exceeds the amount due'
        | 'Amount must be a positive number'
        | 'Amount must not exceed 100000000'
        | 'Idempotency key must be 1 to 255 printable characters'
        | 'Idempotency key reused with different parameters'
        | 'Malformed JSON body'
        | 'Malformed URL';
      /** `API key is required`, `Invalid API key` */
      401: 'API key is required' | 'Invalid API key';
      /** `Unauthorized access`, `Account is not connected to this platform` */
      403: 'Account is not connected to this platform' | 'Unauthorized access';
      /** `Not found`, `Invoice not found` */
      404: 'Invoice not found' | 'Not found';
      /** `A request with this idempotency key is in progress`, `Invoice is not pending`, `A payment for this payment request is already in progress` */
      409:
        | 'A payment for this payment request is already in progress'
        | 'A request with this idempotency key is in progress'
        | 'Invoice is not pending';
      /** `Payload too large` */
      413: 'Payload too large';
      /** `URI too long` */
      414: 'URI too long';
      /** `Unsupported media type` */
      415: 'Unsupported media type';
      /** An input of the wrong type or shape: the validation body, as text/plain. */
      422: ValidationErrorBody;
      /** `Too many requests` */
      429: 'Too many requests';
      /** `Internal server error` */
      500: 'Internal server error';
      /** `Service unavailable` */
      503: 'Service unavailable';
    };
  };
  'GET /invoices/{id}/pdf': {
    params: { id: string };
    query: {
      /** The language of the PDF (default fr) */
      lang?: 'fr' | 'ar' | 'en';
    };
    body: never;
    response: string;
    errors: {
      /** `Malformed URL` */
      400: 'Malformed URL';
      /** `API key is required`, `Invalid API key` */
      401: 'API key is required' | 'Invalid API key';
      /** `Unauthorized access`, `Account is not connected to this platform` */
      403: 'Account is not connected to this platform' | 'Unauthorized access';
      /** `Not found`, `Invoice not found` */
      404: 'Invoice not found' | 'Not found';
      /** `URI too long` */
      414: 'URI too long';
      /** An input of the wrong type or shape: the validation body, as text/plain. */
      422: ValidationErrorBody;
      /** `Too many requests` */
      429: 'Too many requests';
      /** `Internal server error` */
      500: 'Internal server error';
      /** `Service unavailable` */
      503: 'Service unavailable';
    };
  };
  'GET /organization': {
    params: Record<string, never>;
    query: Record<string, never>;
    body: never;
    response: { data: Organization };
    errors: {
      /** `Malformed URL` */
      400: 'Malformed URL';
      /** `API key is required`, `Invalid API key` */
      401: 'API key is required' | 'Invalid API key';
      /** `Unauthorized access`, `Account is not connected to this platform` */
      403: 'Account is not connected to this platform' | 'Unauthorized access';
      /** `Not found` */
      404: 'Not found';
      /** `URI too long` */
      414: 'URI too long';
      /** `Too many requests` */
      429: 'Too many requests';
      /** `Internal server error` */
      500: 'Internal server error';
      /** `Service unavailable` */
      503: 'Service unavailable';
    };
  };
  'GET /organization/{id}': {
    params: {
      /** The organization's id */
      id: string;
    };
    query: Record<string, never>;
    body: never;
    response: { data: Organization };
    errors: {
      /** `Malformed URL` */
      400: 'Malformed URL';
      /** `API key is required`, `Invalid API key` */
      401: 'API key is required' | 'Invalid API key';
      /** `Unauthorized access`, `Account is not connected to this platform` */
      403: 'Account is not connected to this platform' | 'Unauthorized access';
      /** `Not found`, `Organization not found` */
      404: 'Not found' | 'Organization not found';
      /** `URI too long` */
      414: 'URI too long';
      /** An input of the wrong type or shape: the validation body, as text/plain. */
      422: ValidationErrorBody;
      /** `Too many requests` */
      429: 'Too many requests';
      /** `Internal server error` */
      500: 'Internal server error';
      /** `Service unavailable` */
      503: 'Service unavailable';
    };
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
    errors: {
      /** `Malformed URL` */
      400: 'Malformed URL';
      /** `API key is required`, `Invalid API key` */
      401: 'API key is required' | 'Invalid API key';
      /** `Unauthorized access`, `Account is not connected to this platform` */
      403: 'Account is not connected to this platform' | 'Unauthorized access';
      /** `Not found` */
      404: 'Not found';
      /** `URI too long` */
      414: 'URI too long';
      /** An input of the wrong type or shape: the validation body, as text/plain. */
      422: ValidationErrorBody;
      /** `Too many requests` */
      429: 'Too many requests';
      /** `Internal server error` */
      500: 'Internal server error';
      /** `Service unavailable` */
      503: 'Service unavailable';
    };
  };
  'POST /payment': {
    params: Record<string, never>;
    query: Record<string, never>;
    body: PayBody;
    response: {
      data: Payment;
      /** data's id */
      id: string;
      /** data's status */
      status: 'pending' | 'completed' | 'failed';
      /** data's referenceId */
      referenceId: string | null;
      /** Always null */
      metadata: Record<string, unknown> | null;
      /** Transfer methods: what the customer must send, where and until when; null for the others */
      instructions: GimtelInstructions | null;
    };
    errors: {
      /** `Malformed URL`, `Malformed JSON body`, `Idempotency key must be 1 to 255 printable characters`, `Idempotency key reused with different parameters`, `Invalid phone number`, `Pass code is required for Bankily` */
      400:
        | 'Idempotency key must be 1 to 255 printable characters'
        | 'Idempotency key reused with different parameters'
        | 'Invalid phone number'
        | 'Malformed JSON body'
        | 'Malformed URL'
        | 'Pass code is required for Bankily';
      /** `API key is required`, `Invalid API key` */
      401: 'API key is required' | 'Invalid API key';
      /** `Account is not connected to this platform`, `Organization is not verified for Production` */
      403: 'Account is not connected to this platform' | 'Organization is not verified for Production';
      /** `Not found`, `Payment method not found`, `Payment Request not found` */
      404: 'Not found' | 'Payment Request not found' | 'Payment method not found';
      /** `A request with this idempotency key is in progress`, `Payment request is already paid`, `Payment request is void: its invoice was voided`, `Payment request is void: its payment link checkout session ended`, `A payment for this payment request is already in progress` */
      409:
        | 'A payment for this payment request is already in progress'
        | 'A request with this idempotency key is in progress'
        | 'Payment request is already paid'
        | 'Payment request is void: its invoice was voided'
        | 'Payment request is void: its payment link checkout session ended';
      /** `Payload too large` */
      413: 'Payload too large';
      /** `URI too long` */
      414: 'URI too long';
      /** `Unsupported media type` */
      415: 'Unsupported media type';
      /** An input of the wrong type or shape: the validation body, as text/plain. */
      422: ValidationErrorBody;
      /** `Too many requests`, `Too many requests` */
      429: 'Too many requests';
      /** `Internal server error` */
      500: 'Internal server error';
      /** `Payment failed due to a third party error, please try again later` */
      502: 'Payment failed due to a third party error, please try again later';
      /** `Service unavailable` */
      503: 'Service unavailable';
    };
  };
  'GET /payment-links': {
    params: Record<string, never>;
    query: {
      /** Page number, from 1 */
      page?: number;
      /** Items per page, 1 to 100 */
      limit?: number;
      /** Only active (true) or inactive (false) links */
      active?: 'true' | 'false';
    };
    body: never;
    response: {
      data: PaymentLink[];
      pagination: { page: number; limit: number; total: number; totalPages: number };
    };
    errors: {
      /** `Malformed URL` */
      400: 'Malformed URL';
      /** `API key is required`, `Invalid API key` */
      401: 'API key is required' | 'Invalid API key';
      /** `Unauthorized access`, `Account is not connected to this platform` */
      403: 'Account is not connected to this platform' | 'Unauthorized access';
      /** `Not found` */
      404: 'Not found';
      /** `URI too long` */
      414: 'URI too long';
      /** An input of the wrong type or shape: the validation body, as text/plain. */
      422: ValidationErrorBody;
      /** `Too many requests` */
      429: 'Too many requests';
      /** `Internal server error` */
      500: 'Internal server error';
      /** `Service unavailable` */
      503: 'Service unavailable';
    };
  };
  'POST /payment-links': {
    params: Record<string, never>;
    query: Record<string, never>;
    body: CreatePaymentLinkBody;
    response: { data: PaymentLink };
    errors: {
      /** `Malformed URL`, `Malformed JSON body`, `Idempotency key must be 1 to 255 printable characters`, `Idempotency key reused with different parameters`, `Amount must be a positive number`, `Amount must not exceed 100000000`, `minAmount and maxAmount apply only to links without an amount`, `minAmount must not exceed maxAmount`, `expiresAt must be in the future` */
      400:
        | 'Amount must be a positive number'
        | 'Amount must not exceed 100000000'
        | 'Idempotency key must be 1 to 255 printable characters'
        | 'Idempotency key reused with different parameters'
        | 'Malformed JSON body'
        | 'Malformed URL'
        | 'expiresAt must be in the future'
        | 'minAmount and maxAmount apply only to links without an amount'
        | 'minAmount must not exceed maxAmount';
      /** `API key is required`, `Invalid API key` */
      401: 'API key is required' | 'Invalid API key';
      /** `Unauthorized access`, `Account is not connected to this platform`, `Organization is not verified for Production` */
      403:
        | 'Account is not connected to this platform'
        | 'Organization is not verified for Production'
        | 'Unauthorized access';
      /** `Not found` */
      404: 'Not found';
      /** `A request with this idempotency key is in progress` */
      409: 'A request with this idempotency key is in progress';
      /** `Payload too large` */
      413: 'Payload too large';
      /** `URI too long` */
      414: 'URI too long';
      /** `Unsupported media type` */
      415: 'Unsupported media type';
      /** An input of the wrong type or shape: the validation body, as text/plain. */
      422: ValidationErrorBody;
      /** `Too many requests` */
      429: 'Too many requests';
      /** `Internal server error` */
      500: 'Internal server error';
      /** `Service unavailable` */
      503: 'Service unavailable';
    };
  };
  'GET /payment-links/{id}': {
    params: { id: string };
    query: Record<string, never>;
    body: never;
    response: { data: PaymentLink };
    errors: {
      /** `Malformed URL` */
      400: 'Malformed URL';
      /** `API key is required`, `Invalid API key` */
      401: 'API key is required' | 'Invalid API key';
      /** `Unauthorized access`, `Account is not connected to this platform` */
      403: 'Account is not connected to this platform' | 'Unauthorized access';
      /** `Not found`, `Payment link not found` */
      404: 'Not found' | 'Payment link not found';
      /** `URI too long` */
      414: 'URI too long';
      /** An input of the wrong type or shape: the validation body, as text/plain. */
      422: ValidationErrorBody;
      /** `Too many requests` */
      429: 'Too many requests';
      /** `Internal server error` */
      500: 'Internal server error';
      /** `Service unavailable` */
      503: 'Service unavailable';
    };
  };
  'PATCH /payment-links/{id}': {
    params: { id: string };
    query: Record<string, never>;
    body: UpdatePaymentLinkBody;
    response: { data: PaymentLink };
    errors: {
      /** `Malformed URL`, `Malformed JSON body`, `Idempotency key must be 1 to 255 printable characters`, `Idempotency key reused with different parameters`, `expiresAt must be in the future` */
      400:
        | 'Idempotency key must be 1 to 255 printable characters'
        | 'Idempotency key reused with different parameters'
        | 'Malformed JSON body'
        | 'Malformed URL'
        | 'expiresAt must be in the future';
      /** `API key is required`, `Invalid API key` */
      401: 'API key is required' | 'Invalid API key';
      /** `Unauthorized access`, `Account is not connected to this platform` */
      403: 'Account is not connected to this platform' | 'Unauthorized access';
      /** `Not found`, `Payment link not found` */
      404: 'Not found' | 'Payment link not found';
      /** `A request with this idempotency key is in progress` */
      409: 'A request with this idempotency key is in progress';
      /** `Payload too large` */
      413: 'Payload too large';
      /** `URI too long` */
      414: 'URI too long';
      /** `Unsupported media type` */
      415: 'Unsupported media type';
      /** An input of the wrong type or shape: the validation body, as text/plain. */
      422: ValidationErrorBody;
      /** `Too many requests` */
      429: 'Too many requests';
      /** `Internal server error` */
      500: 'Internal server error';
      /** `Service unavailable` */
      503: 'Service unavailable';
    };
  };
  'GET /payment-methods': {
    params: Record<string, never>;
    query: {
      /** Accepted for the client libraries; it has no effect (the key decides the environment) */
      isTestingMode?: string;
    };
    body: never;
    response: { data: PaymentMethod[] };
    errors: {
      /** `Malformed URL` */
      400: 'Malformed URL';
      /** `API key is required`, `Invalid API key` */
      401: 'API key is required' | 'Invalid API key';
      /** `Account is not connected to this platform` */
      403: 'Account is not connected to this platform';
      /** `Not found` */
      404: 'Not found';
      /** `URI too long` */
      414: 'URI too long';
      /** An input of the wrong type or shape: the validation body, as text/plain. */
      422: ValidationErrorBody;
      /** `Too many requests` */
      429: 'Too many requests';
      /** `Internal server error` */
      500: 'Internal server error';
      /** `Service unavailable` */
      503: 'Service unavailable';
    };
  };
  'GET /payment-request': {
    params: Record<string, never>;
    query: {
      /** Page number, from 1 */
      page?: number;
      /** Items per page, 1 to 100 */
      limit?: number;
      status?: 'pending' | 'paid';
      /** Only the requests made by this payment link */
      paymentLinkId?: string;
    };
    body: never;
    response: {
      data: PaymentRequest[];
      pagination: { page: number; limit: number; total: number; totalPages: number };
    };
    errors: {
      /** `Malformed URL` */
      400: 'Malformed URL';
      /** `API key is required`, `Invalid API key` */
      401: 'API key is required' | 'Invalid API key';
      /** `Unauthorized access`, `Account is not connected to this platform` */
      403: 'Account is not connected to this platform' | 'Unauthorized access';
      /** `Not found` */
      404: 'Not found';
      /** `URI too long` */
      414: 'URI too long';
      /** An input of the wrong type or shape: the validation body, as text/plain. */
      422: ValidationErrorBody;
      /** `Too many requests` */
      429: 'Too many requests';
      /** `Internal server error` */
      500: 'Internal server error';
      /** `Service unavailable` */
      503: 'Service unavailable';
    };
  };
  'POST /payment-request': {
    params: Record<string, never>;
    query: Record<string, never>;
    body: CreatePaymentRequestBody;
    response: { data: PaymentRequest };
    errors: {
      /** `Malformed URL`, `Malformed JSON body`, `Idempotency key must be 1 to 255 printable characters`, `Idempotency key reused with different parameters`, `Amount must be a positive number`, `Amount must not exceed 100000000`, `Invalid phone number`, `Application fees need a connected account`, `Application fee must not exceed the amount` */
      400:
        | 'Amount must be a positive number'
        | 'Amount must not exceed 100000000'
        | 'Application fee must not exceed the amount'
        | 'Application fees need a connected account'
        | 'Idempotency key must be 1 to 255 printable characters'
        | 'Idempotency key reused with different parameters'
        | 'Invalid phone number'
        | 'Malformed JSON body'
        | 'Malformed URL';
      /** `API key is required`, `Invalid API key` */
      401: 'API key is required' | 'Invalid API key';
      /** `Unauthorized access`, `Account is not connected to this platform`, `Organization is not verified for Production` */
      403:
        | 'Account is not connected to this platform'
        | 'Organization is not verified for Production'
        | 'Unauthorized access';
      /** `Not found` */
      404: 'Not found';
      /** `A request with this idempotency key is in progress`, `A payment request with transactionId "…" already exists in this environment` */
      409: 'A request with this idempotency key is in progress' | (string & {});
      /** `Payload too large` */
      413: 'Payload too large';
      /** `URI too long` */
      414: 'URI too long';
      /** `Unsupported media type` */
      415: 'Unsupported media type';
      /** An input of the wrong type or shape: the validation body, as text/plain. */
      422: ValidationErrorBody;
      /** `Too many requests` */
      429: 'Too many requests';
      /** `Internal server error` */
      500: 'Internal server error';
      /** `Service unavailable` */
      503: 'Service unavailable';
    };
  };
  'GET /payment-request/{id}': {
    params: { id: string };
    query: Record<string, never>;
    body: never;
    response: { data: PaymentRequest };
    errors: {
      /** `Malformed URL` */
      400: 'Malformed URL';
      /** `API key is required`, `Invalid API key` */
      401: 'API key is required' | 'Invalid API key';
      /** `Unauthorized access`, `Account is not connected to this platform` */
      403: 'Account is not connected to this platform' | 'Unauthorized access';
      /** `Not found`, `Payment Request not found` */
      404: 'Not found' | 'Payment Request not found';
      /** `URI too long` */
      414: 'URI too long';
      /** An input of the wrong type or shape: the validation body, as text/plain. */
      422: ValidationErrorBody;
      /** `Too many requests` */
      429: 'Too many requests';
      /** `Internal server error` */
      500: 'Internal server error';
      /** `Service unavailable` */
      503: 'Service unavailable';
    };
  };
  'PATCH /payment-request/{transactionId}/refresh-status': {
    params: { transactionId: string };
    query: Record<string, never>;
    body: never;
    response: {
      data: PaymentRequest;
      /** One item per pending payment this call asked its bank about */
      bankingApiResponses: BankingApiResponse[];
    };
    errors: {
      /** `Malformed URL`, `Malformed JSON body`, `Idempotency key must be 1 to 255 printable characters`, `Idempotency key reused with different parameters` */
      400:
        | 'Idempotency key must be 1 to 255 printable characters'
        | 'Idempotency key reused with different parameters'
        | 'Malformed JSON body'
        | 'Malformed URL';
      /** `API key is required`, `Invalid API key` */
      401: 'API key is required' | 'Invalid API key';
      /** `Unauthorized access`, `Account is not connected to this platform` */
      403: 'Account is not connected to this platform' | 'Unauthorized access';
      /** `Not found`, `Payment Request not found` */
      404: 'Not found' | 'Payment Request not found';
      /** `A request with this idempotency key is in progress` */
      409: 'A request with this idempotency key is in progress';
      /** `Payload too large` */
      413: 'Payload too large';
      /** `URI too long` */
      414: 'URI too long';
      /** `Unsupported media type` */
      415: 'Unsupported media type';
      /** An input of the wrong type or shape: the validation body, as text/plain. */
      422: ValidationErrorBody;
      /** `Too many requests` */
      429: 'Too many requests';
      /** `Internal server error` */
      500: 'Internal server error';
      /** `Service unavailable` */
      503: 'Service unavailable';
    };
  };
  'GET /payment-request/by-transaction/{transactionId}': {
    params: { transactionId: string };
    query: Record<string, never>;
    body: never;
    response: { data: PaymentRequest | PublicPaymentRequest };
    errors: {
      /** `Malformed URL` */
      400: 'Malformed URL';
      /** `API key is required`, `Invalid API key` */
      401: 'API key is required' | 'Invalid API key';
      /** `Account is not connected to this platform` */
      403: 'Account is not connected to this platform';
      /** `Not found`, `Payment Request not found` */
      404: 'Not found' | 'Payment Request not found';
      /** `URI too long` */
      414: 'URI too long';
      /** An input of the wrong type or shape: the validation body, as text/plain. */
      422: ValidationErrorBody;
      /** `Too many requests` */
      429: 'Too many requests';
      /** `Internal server error` */
      500: 'Internal server error';
      /** `Service unavailable` */
      503: 'Service unavailable';
    };
  };
  'GET /payment/{id}': {
    params: { id: string };
    query: Record<string, never>;
    body: never;
    response: { data: Payment };
    errors: {
      /** `Malformed URL` */
      400: 'Malformed URL';
      /** `API key is required`, `Invalid API key` */
      401: 'API key is required' | 'Invalid API key';
      /** `Unauthorized access`, `Account is not connected to this platform` */
      403: 'Account is not connected to this platform' | 'Unauthorized access';
      /** `Not found`, `Payment not found` */
      404: 'Not found' | 'Payment not found';
      /** `URI too long` */
      414: 'URI too long';
      /** An input of the wrong type or shape: the validation body, as text/plain. */
      422: ValidationErrorBody;
      /** `Too many requests` */
      429: 'Too many requests';
      /** `Internal server error` */
      500: 'Internal server error';
      /** `Service unavailable` */
      503: 'Service unavailable';
    };
  };
  'POST /payment/{id}/simulate-transfer': {
    params: { id: string };
    query: Record<string, never>;
    body: SimulateTransferBody;
    response: {
      data: Payment;
      /** matched: this call completed the payment; unmatched: it failed it; skipped: it already had that status */
      outcome: 'matched' | 'unmatched' | 'skipped';
    };
    errors: {
      /** `Malformed URL`, `Malformed JSON body`, `Idempotency key must be 1 to 255 printable characters`, `Idempotency key reused with different parameters`, `Simulated transfers are only available in sandbox` */
      400:
        | 'Idempotency key must be 1 to 255 printable characters'
        | 'Idempotency key reused with different parameters'
        | 'Malformed JSON body'
        | 'Malformed URL'
        | 'Simulated transfers are only available in sandbox';
      /** `API key is required`, `Invalid API key` */
      401: 'API key is required' | 'Invalid API key';
      /** `Unauthorized access`, `Account is not connected to this platform` */
      403: 'Account is not connected to this platform' | 'Unauthorized access';
      /** `Not found`, `Payment not found` */
      404: 'Not found' | 'Payment not found';
      /** `A request with this idempotency key is in progress`, `Payment is not pending` */
      409: 'A request with this idempotency key is in progress' | 'Payment is not pending';
      /** `Payload too large` */
      413: 'Payload too large';
      /** `URI too long` */
      414: 'URI too long';
      /** `Unsupported media type` */
      415: 'Unsupported media type';
      /** An input of the wrong type or shape: the validation body, as text/plain. */
      422: ValidationErrorBody;
      /** `Too many requests` */
      429: 'Too many requests';
      /** `Internal server error` */
      500: 'Internal server error';
      /** `Service unavailable` */
      503: 'Service unavailable';
    };
  };
  'GET /payment/{id}/status': {
    params: { id: string };
    query: Record<string, never>;
    body: never;
    response: {
      data: PaymentStatus;
      id: string;
      status: 'pending' | 'completed' | 'failed';
      referenceId: string | null;
      claimExpiresAt: string | null;
    };
    errors: {
      /** `Malformed URL` */
      400: 'Malformed URL';
      /** `API key is required`, `Invalid API key` */
      401: 'API key is required' | 'Invalid API key';
      /** `Unauthorized access`, `Account is not connected to this platform` */
      403: 'Account is not connected to this platform' | 'Unauthorized access';
      /** `Not found`, `Payment not found` */
      404: 'Not found' | 'Payment not found';
      /** `URI too long` */
      414: 'URI too long';
      /** An input of the wrong type or shape: the validation body, as text/plain. */
      422: ValidationErrorBody;
      /** `Too many requests` */
      429: 'Too many requests';
      /** `Internal server error` */
      500: 'Internal server error';
      /** `Service unavailable` */
      503: 'Service unavailable';
    };
  };
  'GET /payout-schedule': {
    params: Record<string, never>;
    query: Record<string, never>;
    body: never;
    response: { data: PayoutSchedule };
    errors: {
      /** `Malformed URL` */
      400: 'Malformed URL';
      /** `API key is required`, `Invalid API key` */
      401: 'API key is required' | 'Invalid API key';
      /** `Unauthorized access`, `Account is not connected to this platform` */
      403: 'Account is not connected to this platform' | 'Unauthorized access';
      /** `Not found` */
      404: 'Not found';
      /** `URI too long` */
      414: 'URI too long';
      /** `Too many requests` */
      429: 'Too many requests';
      /** `Internal server error` */
      500: 'Internal server error';
      /** `Service unavailable` */
      503: 'Service unavailable';
    };
  };
  'PATCH /payout-schedule': {
    params: Record<string, never>;
    query: Record<string, never>;
    body: UpdatePayoutScheduleBody;
    response: { data: PayoutSchedule };
    errors: {
      /** `Malformed URL`, `Malformed JSON body`, `Idempotency key must be 1 to 255 printable characters`, `Idempotency key reused with different parameters`, `Amount must be a positive number`, `Amount must not exceed 100000000` */
      400:
        | 'Amount must be a positive number'
        | 'Amount must not exceed 100000000'
        | 'Idempotency key must be 1 to 255 printable characters'
        | 'Idempotency key reused with different parameters'
        | 'Malformed JSON body'
        | 'Malformed URL';
      /** `API key is required`, `Invalid API key` */
      401: 'API key is required' | 'Invalid API key';
      /** `Unauthorized access`, `Account is not connected to this platform` */
      403: 'Account is not connected to this platform' | 'Unauthorized access';
      /** `Not found` */
      404: 'Not found';
      /** `A request with this idempotency key is in progress` */
      409: 'A request with this idempotency key is in progress';
      /** `Payload too large` */
      413: 'Payload too large';
      /** `URI too long` */
      414: 'URI too long';
      /** `Unsupported media type` */
      415: 'Unsupported media type';
      /** An input of the wrong type or shape: the validation body, as text/plain. */
      422: ValidationErrorBody;
      /** `Too many requests` */
      429: 'Too many requests';
      /** `Internal server error` */
      500: 'Internal server error';
      /** `Service unavailable` */
      503: 'Service unavailable';
    };
  };
  'GET /payouts': {
    params: Record<string, never>;
    query: {
      /** Page number, from 1 */
      page?: number;
      /** Items per page, 1 to 100 */
      limit?: number;
      status?: 'pending' | 'in_transit' | 'paid' | 'failed';
    };
    body: never;
    response: {
      data: Payout[];
      pagination: { page: number; limit: number; total: number; totalPages: number };
    };
    errors: {
      /** `Malformed URL` */
      400: 'Malformed URL';
      /** `API key is required`, `Invalid API key` */
      401: 'API key is required' | 'Invalid API key';
      /** `Unauthorized access`, `Account is not connected to this platform` */
      403: 'Account is not connected to this platform' | 'Unauthorized access';
      /** `Not found` */
      404: 'Not found';
      /** `URI too long` */
      414: 'URI too long';
      /** An input of the wrong type or shape: the validation body, as text/plain. */
      422: ValidationErrorBody;
      /** `Too many requests` */
      429: 'Too many requests';
      /** `Internal server error` */
      500: 'Internal server error';
      /** `Service unavailable` */
      503: 'Service unavailable';
    };
  };
  'POST /payouts': {
    params: Record<string, never>;
    query: Record<string, never>;
    body: CreatePayoutBody;
    response: { data: Payout };
    errors: {
      /** `Malformed URL`, `Malformed JSON body`, `Idempotency key must be 1 to 255 printable characters`, `Idempotency key reused with different parameters`, `Amount must be a positive number`, `Amount must not exceed 100000000`, `Insufficient available balance` */
      400:
        | 'Amount must be a positive number'
        | 'Amount must not exceed 100000000'
        | 'Idempotency key must be 1 to 255 printable characters'
        | 'Idempotency key reused with different parameters'
        | 'Insufficient available balance'
        | 'Malformed JSON body'
        | 'Malformed URL';
      /** `API key is required`, `Invalid API key` */
      401: 'API key is required' | 'Invalid API key';
      /** `Unauthorized access`, `Account is not connected to this platform`, `Organization is not verified for Production` */
      403:
        | 'Account is not connected to this platform'
        | 'Organization is not verified for Production'
        | 'Unauthorized access';
      /** `Not found` */
      404: 'Not found';
      /** `A request with this idempotency key is in progress`, `Payouts are on hold for this organization` */
      409: 'A request with this idempotency key is in progress' | 'Payouts are on hold for this organization';
      /** `Payload too large` */
      413: 'Payload too large';
      /** `URI too long` */
      414: 'URI too long';
      /** `Unsupported media type` */
      415: 'Unsupported media type';
      /** An input of the wrong type or shape: the validation body, as text/plain. */
      422: ValidationErrorBody;
      /** `Too many requests` */
      429: 'Too many requests';
      /** `Internal server error` */
      500: 'Internal server error';
      /** `Service unavailable` */
      503: 'Service unavailable';
    };
  };
  'GET /payouts/{id}': {
    params: { id: string };
    query: Record<string, never>;
    body: never;
    response: { data: Payout };
    errors: {
      /** `Malformed URL` */
      400: 'Malformed URL';
      /** `API key is required`, `Invalid API key` */
      401: 'API key is required' | 'Invalid API key';
      /** `Unauthorized access`, `Account is not connected to this platform` */
      403: 'Account is not connected to this platform' | 'Unauthorized access';
      /** `Not found`, `Payout not found` */
      404: 'Not found' | 'Payout not found';
      /** `URI too long` */
      414: 'URI too long';
      /** An input of the wrong type or shape: the validation body, as text/plain. */
      422: ValidationErrorBody;
      /** `Too many requests` */
      429: 'Too many requests';
      /** `Internal server error` */
      500: 'Internal server error';
      /** `Service unavailable` */
      503: 'Service unavailable';
    };
  };
  'POST /portal-sessions': {
    params: Record<string, never>;
    query: Record<string, never>;
    body: CreatePortalSessionBody;
    response: { data: PortalSession };
    errors: {
      /** `Malformed URL`, `Malformed JSON body`, `Idempotency key must be 1 to 255 printable characters`, `Idempotency key reused with different parameters` */
      400:
        | 'Idempotency key must be 1 to 255 printable characters'
        | 'Idempotency key reused with different parameters'
        | 'Malformed JSON body'
        | 'Malformed URL';
      /** `API key is required`, `Invalid API key` */
      401: 'API key is required' | 'Invalid API key';
      /** `Unauthorized access`, `Account is not connected to this platform` */
      403: 'Account is not connected to this platform' | 'Unauthorized access';
      /** `Not found`, `Customer not found` */
      404: 'Customer not found' | 'Not found';
      /** `A request with this idempotency key is in progress` */
      409: 'A request with this idempotency key is in progress';
      /** `Payload too large` */
      413: 'Payload too large';
      /** `URI too long` */
      414: 'URI too long';
      /** `Unsupported media type` */
      415: 'Unsupported media type';
      /** An input of the wrong type or shape: the validation body, as text/plain. */
      422: ValidationErrorBody;
      /** `Too many requests` */
      429: 'Too many requests';
      /** `Internal server error` */
      500: 'Internal server error';
      /** `Service unavailable` */
      503: 'Service unavailable';
    };
  };
  'POST /prices': {
    params: Record<string, never>;
    query: Record<string, never>;
    body: CreatePriceBody;
    response: { data: Price };
    errors: {
      /** `Malformed URL`, `Malformed JSON body`, `Idempotency key must be 1 to 255 printable characters`, `Idempotency key reused with different parameters`, `Price amount must be a positive number`, `Amount must not exceed 100000000` */
      400:
        | 'Amount must not exceed 100000000'
        | 'Idempotency key must be 1 to 255 printable characters'
        | 'Idempotency key reused with different parameters'
        | 'Malformed JSON body'
        | 'Malformed URL'
        | 'Price amount must be a positive number';
      /** `API key is required`, `Invalid API key` */
      401: 'API key is required' | 'Invalid API key';
      /** `Unauthorized access`, `Account is not connected to this platform` */
      403: 'Account is not connected to this platform' | 'Unauthorized access';
      /** `Not found`, `Product not found` */
      404: 'Not found' | 'Product not found';
      /** `A request with this idempotency key is in progress` */
      409: 'A request with this idempotency key is in progress';
      /** `Payload too large` */
      413: 'Payload too large';
      /** `URI too long` */
      414: 'URI too long';
      /** `Unsupported media type` */
      415: 'Unsupported media type';
      /** An input of the wrong type or shape: the validation body, as text/plain. */
      422: ValidationErrorBody;
      /** `Too many requests` */
      429: 'Too many requests';
      /** `Internal server error` */
      500: 'Internal server error';
      /** `Service unavailable` */
      503: 'Service unavailable';
    };
  };
  'GET /prices/{id}': {
    params: { id: string };
    query: Record<string, never>;
    body: never;
    response: { data: Price };
    errors: {
      /** `Malformed URL` */
      400: 'Malformed URL';
      /** `API key is required`, `Invalid API key` */
      401: 'API key is required' | 'Invalid API key';
      /** `Unauthorized access`, `Account is not connected to this platform` */
      403: 'Account is not connected to this platform' | 'Unauthorized access';
      /** `Not found`, `Price not found` */
      404: 'Not found' | 'Price not found';
      /** `URI too long` */
      414: 'URI too long';
      /** An input of the wrong type or shape: the validation body, as text/plain. */
      422: ValidationErrorBody;
      /** `Too many requests` */
      429: 'Too many requests';
      /** `Internal server error` */
      500: 'Internal server error';
      /** `Service unavailable` */
      503: 'Service unavailable';
    };
  };
  'PATCH /prices/{id}': {
    params: { id: string };
    query: Record<string, never>;
    body: UpdatePriceBody;
    response: { data: Price };
    errors: {
      /** `Malformed URL`, `Malformed JSON body`, `Idempotency key must be 1 to 255 printable characters`, `Idempotency key reused with different parameters`, `Price amount must be a positive number`, `Amount must not exceed 100000000` */
      400:
        | 'Amount must not exceed 100000000'
        | 'Idempotency key must be 1 to 255 printable characters'
        | 'Idempotency key reused with different parameters'
        | 'Malformed JSON body'
        | 'Malformed URL'
        | 'Price amount must be a positive number';
      /** `API key is required`, `Invalid API key` */
      401: 'API key is required' | 'Invalid API key';
      /** `Unauthorized access`, `Account is not connected to this platform` */
      403: 'Account is not connected to this platform' | 'Unauthorized access';
      /** `Not found`, `Price not found` */
      404: 'Not found' | 'Price not found';
      /** `A request with this idempotency key is in progress` */
      409: 'A request with this idempotency key is in progress';
      /** `Payload too large` */
      413: 'Payload too large';
      /** `URI too long` */
      414: 'URI too long';
      /** `Unsupported media type` */
      415: 'Unsupported media type';
      /** An input of the wrong type or shape: the validation body, as text/plain. */
      422: ValidationErrorBody;
      /** `Too many requests` */
      429: 'Too many requests';
      /** `Internal server error` */
      500: 'Internal server error';
      /** `Service unavailable` */
      503: 'Service unavailable';
    };
  };
  'PATCH /prices/{id}/archive': {
    params: { id: string };
    query: Record<string, never>;
    body: never;
    response: { data: Price; success: true };
    errors: {
      /** `Malformed URL`, `Malformed JSON body`, `Idempotency key must be 1 to 255 printable characters`, `Idempotency key reused with different parameters` */
      400:
        | 'Idempotency key must be 1 to 255 printable characters'
        | 'Idempotency key reused with different parameters'
        | 'Malformed JSON body'
        | 'Malformed URL';
      /** `API key is required`, `Invalid API key` */
      401: 'API key is required' | 'Invalid API key';
      /** `Unauthorized access`, `Account is not connected to this platform` */
      403: 'Account is not connected to this platform' | 'Unauthorized access';
      /** `Not found`, `Price not found` */
      404: 'Not found' | 'Price not found';
      /** `A request with this idempotency key is in progress` */
      409: 'A request with this idempotency key is in progress';
      /** `Payload too large` */
      413: 'Payload too large';
      /** `URI too long` */
      414: 'URI too long';
      /** `Unsupported media type` */
      415: 'Unsupported media type';
      /** An input of the wrong type or shape: the validation body, as text/plain. */
      422: ValidationErrorBody;
      /** `Too many requests` */
      429: 'Too many requests';
      /** `Internal server error` */
      500: 'Internal server error';
      /** `Service unavailable` */
      503: 'Service unavailable';
    };
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
    errors: {
      /** `Malformed URL` */
      400: 'Malformed URL';
      /** `API key is required`, `Invalid API key` */
      401: 'API key is required' | 'Invalid API key';
      /** `Unauthorized access`, `Account is not connected to this platform` */
      403: 'Account is not connected to this platform' | 'Unauthorized access';
      /** `Not found` */
      404: 'Not found';
      /** `URI too long` */
      414: 'URI too long';
      /** An input of the wrong type or shape: the validation body, as text/plain. */
      422: ValidationErrorBody;
      /** `Too many requests` */
      429: 'Too many requests';
      /** `Internal server error` */
      500: 'Internal server error';
      /** `Service unavailable` */
      503: 'Service unavailable';
    };
  };
  'POST /products': {
    params: Record<string, never>;
    query: Record<string, never>;
    body: CreateProductBody;
    response: { data: Product };
    errors: {
      /** `Malformed URL`, `Malformed JSON body`, `Idempotency key must be 1 to 255 printable characters`, `Idempotency key reused with different parameters` */
      400:
        | 'Idempotency key must be 1 to 255 printable characters'
        | 'Idempotency key reused with different parameters'
        | 'Malformed JSON body'
        | 'Malformed URL';
      /** `API key is required`, `Invalid API key` */
      401: 'API key is required' | 'Invalid API key';
      /** `Unauthorized access`, `Account is not connected to this platform` */
      403: 'Account is not connected to this platform' | 'Unauthorized access';
      /** `Not found` */
      404: 'Not found';
      /** `A request with this idempotency key is in progress` */
      409: 'A request with this idempotency key is in progress';
      /** `Payload too large` */
      413: 'Payload too large';
      /** `URI too long` */
      414: 'URI too long';
      /** `Unsupported media type` */
      415: 'Unsupported media type';
      /** An input of the wrong type or shape: the validation body, as text/plain. */
      422: ValidationErrorBody;
      /** `Too many requests` */
      429: 'Too many requests';
      /** `Internal server error` */
      500: 'Internal server error';
      /** `Service unavailable` */
      503: 'Service unavailable';
    };
  };
  'GET /products/{id}': {
    params: { id: string };
    query: Record<string, never>;
    body: never;
    response: { data: ProductWithPrices };
    errors: {
      /** `Malformed URL` */
      400: 'Malformed URL';
      /** `API key is required`, `Invalid API key` */
      401: 'API key is required' | 'Invalid API key';
      /** `Unauthorized access`, `Account is not connected to this platform` */
      403: 'Account is not connected to this platform' | 'Unauthorized access';
      /** `Not found`, `Product not found` */
      404: 'Not found' | 'Product not found';
      /** `URI too long` */
      414: 'URI too long';
      /** An input of the wrong type or shape: the validation body, as text/plain. */
      422: ValidationErrorBody;
      /** `Too many requests` */
      429: 'Too many requests';
      /** `Internal server error` */
      500: 'Internal server error';
      /** `Service unavailable` */
      503: 'Service unavailable';
    };
  };
  'PATCH /products/{id}': {
    params: { id: string };
    query: Record<string, never>;
    body: UpdateProductBody;
    response: { data: Product };
    errors: {
      /** `Malformed URL`, `Malformed JSON body`, `Idempotency key must be 1 to 255 printable characters`, `Idempotency key reused with different parameters` */
      400:
        | 'Idempotency key must be 1 to 255 printable characters'
        | 'Idempotency key reused with different parameters'
        | 'Malformed JSON body'
        | 'Malformed URL';
      /** `API key is required`, `Invalid API key` */
      401: 'API key is required' | 'Invalid API key';
      /** `Unauthorized access`, `Account is not connected to this platform` */
      403: 'Account is not connected to this platform' | 'Unauthorized access';
      /** `Not found`, `Product not found` */
      404: 'Not found' | 'Product not found';
      /** `A request with this idempotency key is in progress` */
      409: 'A request with this idempotency key is in progress';
      /** `Payload too large` */
      413: 'Payload too large';
      /** `URI too long` */
      414: 'URI too long';
      /** `Unsupported media type` */
      415: 'Unsupported media type';
      /** An input of the wrong type or shape: the validation body, as text/plain. */
      422: ValidationErrorBody;
      /** `Too many requests` */
      429: 'Too many requests';
      /** `Internal server error` */
      500: 'Internal server error';
      /** `Service unavailable` */
      503: 'Service unavailable';
    };
  };
  'PATCH /products/{id}/archive': {
    params: { id: string };
    query: Record<string, never>;
    body: never;
    response: { data: Product; success: true };
    errors: {
      /** `Malformed URL`, `Malformed JSON body`, `Idempotency key must be 1 to 255 printable characters`, `Idempotency key reused with different parameters` */
      400:
        | 'Idempotency key must be 1 to 255 printable characters'
        | 'Idempotency key reused with different parameters'
        | 'Malformed JSON body'
        | 'Malformed URL';
      /** `API key is required`, `Invalid API key` */
      401: 'API key is required' | 'Invalid API key';
      /** `Unauthorized access`, `Account is not connected to this platform` */
      403: 'Account is not connected to this platform' | 'Unauthorized access';
      /** `Not found`, `Product not found` */
      404: 'Not found' | 'Product not found';
      /** `A request with this idempotency key is in progress` */
      409: 'A request with this idempotency key is in progress';
      /** `Payload too large` */
      413: 'Payload too large';
      /** `URI too long` */
      414: 'URI too long';
      /** `Unsupported media type` */
      415: 'Unsupported media type';
      /** An input of the wrong type or shape: the validation body, as text/plain. */
      422: ValidationErrorBody;
      /** `Too many requests` */
      429: 'Too many requests';
      /** `Internal server error` */
      500: 'Internal server error';
      /** `Service unavailable` */
      503: 'Service unavailable';
    };
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
    errors: {
      /** `Malformed URL` */
      400: 'Malformed URL';
      /** `API key is required`, `Invalid API key` */
      401: 'API key is required' | 'Invalid API key';
      /** `Unauthorized access`, `Account is not connected to this platform` */
      403: 'Account is not connected to this platform' | 'Unauthorized access';
      /** `Not found` */
      404: 'Not found';
      /** `URI too long` */
      414: 'URI too long';
      /** An input of the wrong type or shape: the validation body, as text/plain. */
      422: ValidationErrorBody;
      /** `Too many requests` */
      429: 'Too many requests';
      /** `Internal server error` */
      500: 'Internal server error';
      /** `Service unavailable` */
      503: 'Service unavailable';
    };
  };
  'POST /refunds': {
    params: Record<string, never>;
    query: Record<string, never>;
    body: CreateRefundBody;
    response: { data: Refund };
    errors: {
      /** `Malformed URL`, `Malformed JSON body`, `Idempotency key must be 1 to 255 printable characters`, `Idempotency key reused with different parameters`, `Amount must be a positive number`, `Refund amount exceeds the amount left to refund` */
      400:
        | 'Amount must be a positive number'
        | 'Idempotency key must be 1 to 255 printable characters'
        | 'Idempotency key reused with different parameters'
        | 'Malformed JSON body'
        | 'Malformed URL'
        | 'Refund amount exceeds the amount left to refund';
      /** `API key is required`, `Invalid API key` */
      401: 'API key is required' | 'Invalid API key';
      /** `Unauthorized access`, `Account is not connected to this platform`, `Organization is not verified for Production` */
      403:
        | 'Account is not connected to this platform'
        | 'Organization is not verified for Production'
        | 'Unauthorized access';
      /** `Not found`, `Payment not found` */
      404: 'Not found' | 'Payment not found';
      /** `A request with this idempotency key is in progress`, `Only completed payments can be refunded` */
      409: 'A request with this idempotency key is in progress' | 'Only completed payments can be refunded';
      /** `Payload too large` */
      413: 'Payload too large';
      /** `URI too long` */
      414: 'URI too long';
      /** `Unsupported media type` */
      415: 'Unsupported media type';
      /** An input of the wrong type or shape: the validation body, as text/plain. */
      422: ValidationErrorBody;
      /** `Too many requests` */
      429: 'Too many requests';
      /** `Internal server error` */
      500: 'Internal server error';
      /** `Service unavailable` */
      503: 'Service unavailable';
    };
  };
  'GET /refunds/{id}': {
    params: { id: string };
    query: Record<string, never>;
    body: never;
    response: { data: Refund };
    errors: {
      /** `Malformed URL` */
      400: 'Malformed URL';
      /** `API key is required`, `Invalid API key` */
      401: 'API key is required' | 'Invalid API key';
      /** `Unauthorized access`, `Account is not connected to this platform` */
      403: 'Account is not connected to this platform' | 'Unauthorized access';
      /** `Not found`, `Refund not found` */
      404: 'Not found' | 'Refund not found';
      /** `URI too long` */
      414: 'URI too long';
      /** An input of the wrong type or shape: the validation body, as text/plain. */
      422: ValidationErrorBody;
      /** `Too many requests` */
      429: 'Too many requests';
      /** `Internal server error` */
      500: 'Internal server error';
      /** `Service unavailable` */
      503: 'Service unavailable';
    };
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
    errors: {
      /** `Malformed URL`, `from must not be after to, and the range at most 366 days` */
      400: 'Malformed URL' | 'from must not be after to, and the range at most 366 days';
      /** `API key is required`, `Invalid API key` */
      401: 'API key is required' | 'Invalid API key';
      /** `Unauthorized access`, `Account is not connected to this platform` */
      403: 'Account is not connected to this platform' | 'Unauthorized access';
      /** `Not found` */
      404: 'Not found';
      /** `URI too long` */
      414: 'URI too long';
      /** An input of the wrong type or shape: the validation body, as text/plain. */
      422: ValidationErrorBody;
      /** `Too many requests` */
      429: 'Too many requests';
      /** `Internal server error` */
      500: 'Internal server error';
      /** `Service unavailable` */
      503: 'Service unavailable';
    };
  };
  'POST /sandbox/billing/run': {
    params: Record<string, never>;
    query: Record<string, never>;
    body: never;
    response: { data: BillingRun };
    errors: {
      /** `Malformed URL`, `Malformed JSON body`, `Idempotency key must be 1 to 255 printable characters`, `Idempotency key reused with different parameters`, `Billing runs are only available in sandbox` */
      400:
        | 'Billing runs are only available in sandbox'
        | 'Idempotency key must be 1 to 255 printable characters'
        | 'Idempotency key reused with different parameters'
        | 'Malformed JSON body'
        | 'Malformed URL';
      /** `API key is required`, `Invalid API key` */
      401: 'API key is required' | 'Invalid API key';
      /** `Unauthorized access`, `Account is not connected to this platform` */
      403: 'Account is not connected to this platform' | 'Unauthorized access';
      /** `Not found` */
      404: 'Not found';
      /** `A request with this idempotency key is in progress` */
      409: 'A request with this idempotency key is in progress';
      /** `Payload too large` */
      413: 'Payload too large';
      /** `URI too long` */
      414: 'URI too long';
      /** `Unsupported media type` */
      415: 'Unsupported media type';
      /** `Too many requests` */
      429: 'Too many requests';
      /** `Internal server error` */
      500: 'Internal server error';
      /** `Service unavailable` */
      503: 'Service unavailable';
    };
  };
  'POST /sandbox/payouts/run': {
    params: Record<string, never>;
    query: Record<string, never>;
    body: never;
    response: { data: PayoutRun };
    errors: {
      /** `Malformed URL`, `Malformed JSON body`, `Idempotency key must be 1 to 255 printable characters`, `Idempotency key reused with different parameters`, `Payout runs are only available in sandbox` */
      400:
        | 'Idempotency key must be 1 to 255 printable characters'
        | 'Idempotency key reused with different parameters'
        | 'Malformed JSON body'
        | 'Malformed URL'
        | 'Payout runs are only available in sandbox';
      /** `API key is required`, `Invalid API key` */
      401: 'API key is required' | 'Invalid API key';
      /** `Unauthorized access`, `Account is not connected to this platform` */
      403: 'Account is not connected to this platform' | 'Unauthorized access';
      /** `Not found` */
      404: 'Not found';
      /** `A request with this idempotency key is in progress` */
      409: 'A request with this idempotency key is in progress';
      /** `Payload too large` */
      413: 'Payload too large';
      /** `URI too long` */
      414: 'URI too long';
      /** `Unsupported media type` */
      415: 'Unsupported media type';
      /** `Too many requests` */
      429: 'Too many requests';
      /** `Internal server error` */
      500: 'Internal server error';
      /** `Service unavailable` */
      503: 'Service unavailable';
    };
  };
  'POST /sandbox/transfers': {
    params: Record<string, never>;
    query: Record<string, never>;
    body: SandboxTransferBody;
    response: { data: Transfer };
    errors: {
      /** `Malformed URL`, `Malformed JSON body`, `Idempotency key must be 1 to 255 printable characters`, `Idempotency key reused with different parameters`, `Simulated transfers are only available in sandbox` */
      400:
        | 'Idempotency key must be 1 to 255 printable characters'
        | 'Idempotency key reused with different parameters'
        | 'Malformed JSON body'
        | 'Malformed URL'
        | 'Simulated transfers are only available in sandbox';
      /** `API key is required`, `Invalid API key` */
      401: 'API key is required' | 'Invalid API key';
      /** `Unauthorized access`, `Account is not connected to this platform` */
      403: 'Account is not connected to this platform' | 'Unauthorized access';
      /** `Not found` */
      404: 'Not found';
      /** `A request with this idempotency key is in progress` */
      409: 'A request with this idempotency key is in progress';
      /** `Payload too large` */
      413: 'Payload too large';
      /** `URI too long` */
      414: 'URI too long';
      /** `Unsupported media type` */
      415: 'Unsupported media type';
      /** An input of the wrong type or shape: the validation body, as text/plain. */
      422: ValidationErrorBody;
      /** `Too many requests` */
      429: 'Too many requests';
      /** `Internal server error` */
      500: 'Internal server error';
      /** `Service unavailable` */
      503: 'Service unavailable';
    };
  };
  'GET /subscriptions': {
    params: Record<string, never>;
    query: {
      /** Page number, from 1 */
      page?: number;
      /** Items per page, 1 to 100 */
      limit?: number;
      status?:
        | 'trialing'
        | 'active'
        | 'past_due'
        | 'paused'
        | 'pending_cancellation'
        | 'cancelled'
        | 'expired'
        | 'incomplete'
        | 'incomplete_expired';
    };
    body: never;
    response: {
      data: Subscription[];
      pagination: { page: number; limit: number; total: number; totalPages: number };
    };
    errors: {
      /** `Malformed URL` */
      400: 'Malformed URL';
      /** `API key is required`, `Invalid API key` */
      401: 'API key is required' | 'Invalid API key';
      /** `Unauthorized access`, `Account is not connected to this platform` */
      403: 'Account is not connected to this platform' | 'Unauthorized access';
      /** `Not found` */
      404: 'Not found';
      /** `URI too long` */
      414: 'URI too long';
      /** An input of the wrong type or shape: the validation body, as text/plain. */
      422: ValidationErrorBody;
      /** `Too many requests` */
      429: 'Too many requests';
      /** `Internal server error` */
      500: 'Internal server error';
      /** `Service unavailable` */
      503: 'Service unavailable';
    };
  };
  'POST /subscriptions': {
    params: Record<string, never>;
    query: Record<string, never>;
    body: CreateSubscriptionBody;
    response: { data: Subscription };
    errors: {
      /** `Malformed URL`, `Malformed JSON body`, `Idempotency key must be 1 to 255 printable characters`, `Idempotency key reused with different parameters`, `Customer is on a test clock of another environment`, `trialPeriod or trialEnd is required when trial is true`, `Start date is too far in the past`, `trialEnd must be after startedAt`, `expiresAt must be after startedAt`, `A subscription with a trial cannot require a first payment`, `A period cannot bill more than 100000000 MRU`, `Coupon is not valid`, `Application fees need a connected account` */
      400:
        | 'A period cannot bill more than 100000000 MRU'
        | 'A subscription with a trial cannot require a first payment'
        | 'Application fees need a connected account'
        | 'Coupon is not valid'
        | 'Customer is on a test clock of another environment'
        | 'Idempotency key must be 1 to 255 printable characters'
        | 'Idempotency key reused with different parameters'
        | 'Malformed JSON body'
        | 'Malformed URL'
        | 'Start date is too far in the past'
        | 'expiresAt must be after startedAt'
        | 'trialEnd must be after startedAt'
        | 'trialPeriod or trialEnd is required when trial is true';
      /** `API key is required`, `Invalid API key` */
      401: 'API key is required' | 'Invalid API key';
      /** `Unauthorized access`, `Account is not connected to this platform`, `Organization is not verified for Production` */
      403:
        | 'Account is not connected to this platform'
        | 'Organization is not verified for Production'
        | 'Unauthorized access';
      /** `Not found`, `Customer not found`, `Price not found` */
      404: 'Customer not found' | 'Not found' | 'Price not found';
      /** `A request with this idempotency key is in progress`, `Test clock is advancing` */
      409: 'A request with this idempotency key is in progress' | 'Test clock is advancing';
      /** `Payload too large` */
      413: 'Payload too large';
      /** `URI too long` */
      414: 'URI too long';
      /** `Unsupported media type` */
      415: 'Unsupported media type';
      /** An input of the wrong type or shape: the validation body, as text/plain. */
      422: ValidationErrorBody;
      /** `Too many requests` */
      429: 'Too many requests';
      /** `Internal server error` */
      500: 'Internal server error';
      /** `Service unavailable` */
      503: 'Service unavailable';
    };
  };
  'GET /subscriptions/{id}': {
    params: { id: string };
    query: Record<string, never>;
    body: never;
    response: { data: Subscription };
    errors: {
      /** `Malformed URL` */
      400: 'Malformed URL';
      /** `API key is required`, `Invalid API key` */
      401: 'API key is required' | 'Invalid API key';
      /** `Unauthorized access`, `Account is not connected to this platform` */
      403: 'Account is not connected to this platform' | 'Unauthorized access';
      /** `Not found`, `Subscription not found` */
      404: 'Not found' | 'Subscription not found';
      /** `URI too long` */
      414: 'URI too long';
      /** An input of the wrong type or shape: the validation body, as text/plain. */
      422: ValidationErrorBody;
      /** `Too many requests` */
      429: 'Too many requests';
      /** `Internal server error` */
      500: 'Internal server error';
      /** `Service unavailable` */
      503: 'Service unavailable';
    };
  };
  'POST /subscriptions/{id}/cancel': {
    params: { id: string };
    query: Record<string, never>;
    body: CancelSubscriptionBody;
    response: { data: Subscription };
    errors: {
      /** `Malformed URL`, `Malformed JSON body`, `Idempotency key must be 1 to 255 printable characters`, `Idempotency key reused with different parameters`, `Customer is on a test clock of another environment` */
      400:
        | 'Customer is on a test clock of another environment'
        | 'Idempotency key must be 1 to 255 printable characters'
        | 'Idempotency key reused with different parameters'
        | 'Malformed JSON body'
        | 'Malformed URL';
      /** `API key is required`, `Invalid API key` */
      401: 'API key is required' | 'Invalid API key';
      /** `Unauthorized access`, `Account is not connected to this platform` */
      403: 'Account is not connected to this platform' | 'Unauthorized access';
      /** `Not found`, `Subscription not found` */
      404: 'Not found' | 'Subscription not found';
      /** `A request with this idempotency key is in progress`, `Test clock is advancing` */
      409: 'A request with this idempotency key is in progress' | 'Test clock is advancing';
      /** `Payload too large` */
      413: 'Payload too large';
      /** `URI too long` */
      414: 'URI too long';
      /** `Unsupported media type` */
      415: 'Unsupported media type';
      /** An input of the wrong type or shape: the validation body, as text/plain. */
      422: ValidationErrorBody;
      /** `Too many requests` */
      429: 'Too many requests';
      /** `Internal server error` */
      500: 'Internal server error';
      /** `Service unavailable` */
      503: 'Service unavailable';
    };
  };
  'POST /subscriptions/{id}/change': {
    params: { id: string };
    query: Record<string, never>;
    body: ChangeSubscriptionBody;
    response: { data: Subscription };
    errors: {
      /** `Malformed URL`, `Malformed JSON body`, `Idempotency key must be 1 to 255 printable characters`, `Idempotency key reused with different parameters`, `Customer is on a test clock of another environment`, `Nothing to change`, `Prorated changes need prices of the same interval`, `Price is not active`, `A period cannot bill more than 100000000 MRU` */
      400:
        | 'A period cannot bill more than 100000000 MRU'
        | 'Customer is on a test clock of another environment'
        | 'Idempotency key must be 1 to 255 printable characters'
        | 'Idempotency key reused with different parameters'
        | 'Malformed JSON body'
        | 'Malformed URL'
        | 'Nothing to change'
        | 'Price is not active'
        | 'Prorated changes need prices of the same interval';
      /** `API key is required`, `Invalid API key` */
      401: 'API key is required' | 'Invalid API key';
      /** `Unauthorized access`, `Account is not connected to this platform`, `Organization is not verified for Production` */
      403:
        | 'Account is not connected to this platform'
        | 'Organization is not verified for Production'
        | 'Unauthorized access';
      /** `Not found`, `Subscription not found`, `Price not found` */
      404: 'Not found' | 'Price not found' | 'Subscription not found';
      /** `A request with this idempotency key is in progress`, `Test clock is advancing`, `Subscription is not active` */
      409:
        | 'A request with this idempotency key is in progress'
        | 'Subscription is not active'
        | 'Test clock is advancing';
      /** `Payload too large` */
      413: 'Payload too large';
      /** `URI too long` */
      414: 'URI too long';
      /** `Unsupported media type` */
      415: 'Unsupported media type';
      /** An input of the wrong type or shape: the validation body, as text/plain. */
      422: ValidationErrorBody;
      /** `Too many requests` */
      429: 'Too many requests';
      /** `Internal server error` */
      500: 'Internal server error';
      /** `Service unavailable` */
      503: 'Service unavailable';
    };
  };
  'DELETE /subscriptions/{id}/discount': {
    params: { id: string };
    query: Record<string, never>;
    body: never;
    response: { data: Subscription };
    errors: {
      /** `Malformed URL`, `Malformed JSON body`, `Idempotency key must be 1 to 255 printable characters`, `Idempotency key reused with different parameters`, `Customer is on a test clock of another environment` */
      400:
        | 'Customer is on a test clock of another environment'
        | 'Idempotency key must be 1 to 255 printable characters'
        | 'Idempotency key reused with different parameters'
        | 'Malformed JSON body'
        | 'Malformed URL';
      /** `API key is required`, `Invalid API key` */
      401: 'API key is required' | 'Invalid API key';
      /** `Unauthorized access`, `Account is not connected to this platform` */
      403: 'Account is not connected to this platform' | 'Unauthorized access';
      /** `Not found`, `Subscription not found` */
      404: 'Not found' | 'Subscription not found';
      /** `A request with this idempotency key is in progress`, `Test clock is advancing`, `Subscription is not active` */
      409:
        | 'A request with this idempotency key is in progress'
        | 'Subscription is not active'
        | 'Test clock is advancing';
      /** `Payload too large` */
      413: 'Payload too large';
      /** `URI too long` */
      414: 'URI too long';
      /** `Unsupported media type` */
      415: 'Unsupported media type';
      /** An input of the wrong type or shape: the validation body, as text/plain. */
      422: ValidationErrorBody;
      /** `Too many requests` */
      429: 'Too many requests';
      /** `Internal server error` */
      500: 'Internal server error';
      /** `Service unavailable` */
      503: 'Service unavailable';
    };
  };
  'POST /subscriptions/{id}/discount': {
    params: { id: string };
    query: Record<string, never>;
    body: ApplyDiscountBody;
    response: { data: Subscription };
    errors: {
      /** `Malformed URL`, `Malformed JSON body`, `Idempotency key must be 1 to 255 printable characters`, `Idempotency key reused with different parameters`, `Customer is on a test clock of another environment`, `Coupon is not valid` */
      400:
        | 'Coupon is not valid'
        | 'Customer is on a test clock of another environment'
        | 'Idempotency key must be 1 to 255 printable characters'
        | 'Idempotency key reused with different parameters'
        | 'Malformed JSON body'
        | 'Malformed URL';
      /** `API key is required`, `Invalid API key` */
      401: 'API key is required' | 'Invalid API key';
      /** `Unauthorized access`, `Account is not connected to this platform` */
      403: 'Account is not connected to this platform' | 'Unauthorized access';
      /** `Not found`, `Subscription not found` */
      404: 'Not found' | 'Subscription not found';
      /** `A request with this idempotency key is in progress`, `Test clock is advancing`, `Subscription is not active` */
      409:
        | 'A request with this idempotency key is in progress'
        | 'Subscription is not active'
        | 'Test clock is advancing';
      /** `Payload too large` */
      413: 'Payload too large';
      /** `URI too long` */
      414: 'URI too long';
      /** `Unsupported media type` */
      415: 'Unsupported media type';
      /** An input of the wrong type or shape: the validation body, as text/plain. */
      422: ValidationErrorBody;
      /** `Too many requests` */
      429: 'Too many requests';
      /** `Internal server error` */
      500: 'Internal server error';
      /** `Service unavailable` */
      503: 'Service unavailable';
    };
  };
  'POST /subscriptions/{id}/pause': {
    params: { id: string };
    query: Record<string, never>;
    body: never;
    response: { data: Subscription };
    errors: {
      /** `Malformed URL`, `Malformed JSON body`, `Idempotency key must be 1 to 255 printable characters`, `Idempotency key reused with different parameters`, `Customer is on a test clock of another environment` */
      400:
        | 'Customer is on a test clock of another environment'
        | 'Idempotency key must be 1 to 255 printable characters'
        | 'Idempotency key reused with different parameters'
        | 'Malformed JSON body'
        | 'Malformed URL';
      /** `API key is required`, `Invalid API key` */
      401: 'API key is required' | 'Invalid API key';
      /** `Unauthorized access`, `Account is not connected to this platform` */
      403: 'Account is not connected to this platform' | 'Unauthorized access';
      /** `Not found`, `Subscription not found` */
      404: 'Not found' | 'Subscription not found';
      /** `A request with this idempotency key is in progress`, `Test clock is advancing`, `A … subscription cannot be paused` */
      409: 'A request with this idempotency key is in progress' | 'Test clock is advancing' | (string & {});
      /** `Payload too large` */
      413: 'Payload too large';
      /** `URI too long` */
      414: 'URI too long';
      /** `Unsupported media type` */
      415: 'Unsupported media type';
      /** An input of the wrong type or shape: the validation body, as text/plain. */
      422: ValidationErrorBody;
      /** `Too many requests` */
      429: 'Too many requests';
      /** `Internal server error` */
      500: 'Internal server error';
      /** `Service unavailable` */
      503: 'Service unavailable';
    };
  };
  'POST /subscriptions/{id}/resume': {
    params: { id: string };
    query: Record<string, never>;
    body: never;
    response: { data: Subscription };
    errors: {
      /** `Malformed URL`, `Malformed JSON body`, `Idempotency key must be 1 to 255 printable characters`, `Idempotency key reused with different parameters`, `Customer is on a test clock of another environment` */
      400:
        | 'Customer is on a test clock of another environment'
        | 'Idempotency key must be 1 to 255 printable characters'
        | 'Idempotency key reused with different parameters'
        | 'Malformed JSON body'
        | 'Malformed URL';
      /** `API key is required`, `Invalid API key` */
      401: 'API key is required' | 'Invalid API key';
      /** `Unauthorized access`, `Account is not connected to this platform` */
      403: 'Account is not connected to this platform' | 'Unauthorized access';
      /** `Not found`, `Subscription not found` */
      404: 'Not found' | 'Subscription not found';
      /** `A request with this idempotency key is in progress`, `Test clock is advancing`, `A … subscription cannot be resumed` */
      409: 'A request with this idempotency key is in progress' | 'Test clock is advancing' | (string & {});
      /** `Payload too large` */
      413: 'Payload too large';
      /** `URI too long` */
      414: 'URI too long';
      /** `Unsupported media type` */
      415: 'Unsupported media type';
      /** An input of the wrong type or shape: the validation body, as text/plain. */
      422: ValidationErrorBody;
      /** `Too many requests` */
      429: 'Too many requests';
      /** `Internal server error` */
      500: 'Internal server error';
      /** `Service unavailable` */
      503: 'Service unavailable';
    };
  };
  'POST /subscriptions/by-external-user': {
    params: Record<string, never>;
    query: Record<string, never>;
    body: CreateSubscriptionByExternalUserBody;
    response: { data: Subscription };
    errors: {
      /** `Malformed URL`, `Malformed JSON body`, `Idempotency key must be 1 to 255 printable characters`, `Idempotency key reused with different parameters`, `Customer is on a test clock of another environment`, `trialPeriod or trialEnd is required when trial is true`, `Start date is too far in the past`, `trialEnd must be after startedAt`, `expiresAt must be after startedAt`, `A subscription with a trial cannot require a first payment`, `A period cannot bill more than 100000000 MRU`, `Coupon is not valid`, `Application fees need a connected account`, `Invalid phone number` */
      400:
        | 'A period cannot bill more than 100000000 MRU'
        | 'A subscription with a trial cannot require a first payment'
        | 'Application fees need a connected account'
        | 'Coupon is not valid'
        | 'Customer is on a test clock of another environment'
        | 'Idempotency key must be 1 to 255 printable characters'
        | 'Idempotency key reused with different parameters'
        | 'Invalid phone number'
        | 'Malformed JSON body'
        | 'Malformed URL'
        | 'Start date is too far in the past'
        | 'expiresAt must be after startedAt'
        | 'trialEnd must be after startedAt'
        | 'trialPeriod or trialEnd is required when trial is true';
      /** `API key is required`, `Invalid API key` */
      401: 'API key is required' | 'Invalid API key';
      /** `Unauthorized access`, `Account is not connected to this platform`, `Organization is not verified for Production` */
      403:
        | 'Account is not connected to this platform'
        | 'Organization is not verified for Production'
        | 'Unauthorized access';
      /** `Not found`, `Price not found` */
      404: 'Not found' | 'Price not found';
      /** `A request with this idempotency key is in progress`, `Test clock is advancing` */
      409: 'A request with this idempotency key is in progress' | 'Test clock is advancing';
      /** `Payload too large` */
      413: 'Payload too large';
      /** `URI too long` */
      414: 'URI too long';
      /** `Unsupported media type` */
      415: 'Unsupported media type';
      /** An input of the wrong type or shape: the validation body, as text/plain. */
      422: ValidationErrorBody;
      /** `Too many requests` */
      429: 'Too many requests';
      /** `Internal server error` */
      500: 'Internal server error';
      /** `Service unavailable` */
      503: 'Service unavailable';
    };
  };
  'GET /subscriptions/by-external-user/{externalUserId}': {
    params: { externalUserId: string };
    query: Record<string, never>;
    body: never;
    response: { data: Subscription };
    errors: {
      /** `Malformed URL` */
      400: 'Malformed URL';
      /** `API key is required`, `Invalid API key` */
      401: 'API key is required' | 'Invalid API key';
      /** `Unauthorized access`, `Account is not connected to this platform` */
      403: 'Account is not connected to this platform' | 'Unauthorized access';
      /** `Not found`, `Subscription not found` */
      404: 'Not found' | 'Subscription not found';
      /** `URI too long` */
      414: 'URI too long';
      /** An input of the wrong type or shape: the validation body, as text/plain. */
      422: ValidationErrorBody;
      /** `Too many requests` */
      429: 'Too many requests';
      /** `Internal server error` */
      500: 'Internal server error';
      /** `Service unavailable` */
      503: 'Service unavailable';
    };
  };
  'GET /test-clocks': {
    params: Record<string, never>;
    query: {
      /** Page number, from 1 */
      page?: number;
      /** Items per page, 1 to 100 */
      limit?: number;
    };
    body: never;
    response: {
      data: TestClock[];
      pagination: { page: number; limit: number; total: number; totalPages: number };
    };
    errors: {
      /** `Malformed URL`, `Test clocks are only available in sandbox` */
      400: 'Malformed URL' | 'Test clocks are only available in sandbox';
      /** `API key is required`, `Invalid API key` */
      401: 'API key is required' | 'Invalid API key';
      /** `Unauthorized access`, `Account is not connected to this platform` */
      403: 'Account is not connected to this platform' | 'Unauthorized access';
      /** `Not found` */
      404: 'Not found';
      /** `URI too long` */
      414: 'URI too long';
      /** An input of the wrong type or shape: the validation body, as text/plain. */
      422: ValidationErrorBody;
      /** `Too many requests` */
      429: 'Too many requests';
      /** `Internal server error` */
      500: 'Internal server error';
      /** `Service unavailable` */
      503: 'Service unavailable';
    };
  };
  'POST /test-clocks': {
    params: Record<string, never>;
    query: Record<string, never>;
    body: CreateTestClockBody;
    response: { data: TestClock };
    errors: {
      /** `Malformed URL`, `Malformed JSON body`, `Idempotency key must be 1 to 255 printable characters`, `Idempotency key reused with different parameters`, `Test clocks are only available in sandbox` */
      400:
        | 'Idempotency key must be 1 to 255 printable characters'
        | 'Idempotency key reused with different parameters'
        | 'Malformed JSON body'
        | 'Malformed URL'
        | 'Test clocks are only available in sandbox';
      /** `API key is required`, `Invalid API key` */
      401: 'API key is required' | 'Invalid API key';
      /** `Unauthorized access`, `Account is not connected to this platform` */
      403: 'Account is not connected to this platform' | 'Unauthorized access';
      /** `Not found` */
      404: 'Not found';
      /** `A request with this idempotency key is in progress` */
      409: 'A request with this idempotency key is in progress';
      /** `Payload too large` */
      413: 'Payload too large';
      /** `URI too long` */
      414: 'URI too long';
      /** `Unsupported media type` */
      415: 'Unsupported media type';
      /** An input of the wrong type or shape: the validation body, as text/plain. */
      422: ValidationErrorBody;
      /** `Too many requests` */
      429: 'Too many requests';
      /** `Internal server error` */
      500: 'Internal server error';
      /** `Service unavailable` */
      503: 'Service unavailable';
    };
  };
  'DELETE /test-clocks/{id}': {
    params: { id: string };
    query: Record<string, never>;
    body: never;
    response: { data: DeletedTestClock };
    errors: {
      /** `Malformed URL`, `Malformed JSON body`, `Idempotency key must be 1 to 255 printable characters`, `Idempotency key reused with different parameters`, `Test clocks are only available in sandbox` */
      400:
        | 'Idempotency key must be 1 to 255 printable characters'
        | 'Idempotency key reused with different parameters'
        | 'Malformed JSON body'
        | 'Malformed URL'
        | 'Test clocks are only available in sandbox';
      /** `API key is required`, `Invalid API key` */
      401: 'API key is required' | 'Invalid API key';
      /** `Unauthorized access`, `Account is not connected to this platform` */
      403: 'Account is not connected to this platform' | 'Unauthorized access';
      /** `Not found`, `Test clock not found` */
      404: 'Not found' | 'Test clock not found';
      /** `A request with this idempotency key is in progress` */
      409: 'A request with this idempotency key is in progress';
      /** `Payload too large` */
      413: 'Payload too large';
      /** `URI too long` */
      414: 'URI too long';
      /** `Unsupported media type` */
      415: 'Unsupported media type';
      /** An input of the wrong type or shape: the validation body, as text/plain. */
      422: ValidationErrorBody;
      /** `Too many requests` */
      429: 'Too many requests';
      /** `Internal server error` */
      500: 'Internal server error';
      /** `Service unavailable` */
      503: 'Service unavailable';
    };
  };
  'GET /test-clocks/{id}': {
    params: { id: string };
    query: Record<string, never>;
    body: never;
    response: { data: TestClock };
    errors: {
      /** `Malformed URL`, `Test clocks are only available in sandbox` */
      400: 'Malformed URL' | 'Test clocks are only available in sandbox';
      /** `API key is required`, `Invalid API key` */
      401: 'API key is required' | 'Invalid API key';
      /** `Unauthorized access`, `Account is not connected to this platform` */
      403: 'Account is not connected to this platform' | 'Unauthorized access';
      /** `Not found`, `Test clock not found` */
      404: 'Not found' | 'Test clock not found';
      /** `URI too long` */
      414: 'URI too long';
      /** An input of the wrong type or shape: the validation body, as text/plain. */
      422: ValidationErrorBody;
      /** `Too many requests` */
      429: 'Too many requests';
      /** `Internal server error` */
      500: 'Internal server error';
      /** `Service unavailable` */
      503: 'Service unavailable';
    };
  };
  'POST /test-clocks/{id}/advance': {
    params: { id: string };
    query: Record<string, never>;
    body: AdvanceTestClockBody;
    response: { data: TestClock };
    errors: {
      /** `Malformed URL`, `Malformed JSON body`, `Idempotency key must be 1 to 255 printable characters`, `Idempotency key reused with different parameters`, `Test clocks are only available in sandbox`, `Test clocks only move forward, by at most two years` */
      400:
        | 'Idempotency key must be 1 to 255 printable characters'
        | 'Idempotency key reused with different parameters'
        | 'Malformed JSON body'
        | 'Malformed URL'
        | 'Test clocks are only available in sandbox'
        | 'Test clocks only move forward, by at most two years';
      /** `API key is required`, `Invalid API key` */
      401: 'API key is required' | 'Invalid API key';
      /** `Unauthorized access`, `Account is not connected to this platform` */
      403: 'Account is not connected to this platform' | 'Unauthorized access';
      /** `Not found`, `Test clock not found` */
      404: 'Not found' | 'Test clock not found';
      /** `A request with this idempotency key is in progress`, `Test clock is advancing` */
      409: 'A request with this idempotency key is in progress' | 'Test clock is advancing';
      /** `Payload too large` */
      413: 'Payload too large';
      /** `URI too long` */
      414: 'URI too long';
      /** `Unsupported media type` */
      415: 'Unsupported media type';
      /** An input of the wrong type or shape: the validation body, as text/plain. */
      422: ValidationErrorBody;
      /** `Too many requests` */
      429: 'Too many requests';
      /** `Internal server error` */
      500: 'Internal server error';
      /** `Service unavailable` */
      503: 'Service unavailable';
    };
  };
  'GET /transfers': {
    params: Record<string, never>;
    query: {
      /** Page number, from 1 */
      page?: number;
      /** Items per page, 1 to 100 */
      limit?: number;
      status?: 'matched' | 'unmatched' | 'assigned' | 'returned';
    };
    body: never;
    response: {
      data: Transfer[];
      pagination: { page: number; limit: number; total: number; totalPages: number };
    };
    errors: {
      /** `Malformed URL` */
      400: 'Malformed URL';
      /** `API key is required`, `Invalid API key` */
      401: 'API key is required' | 'Invalid API key';
      /** `Unauthorized access`, `Account is not connected to this platform` */
      403: 'Account is not connected to this platform' | 'Unauthorized access';
      /** `Not found` */
      404: 'Not found';
      /** `URI too long` */
      414: 'URI too long';
      /** An input of the wrong type or shape: the validation body, as text/plain. */
      422: ValidationErrorBody;
      /** `Too many requests` */
      429: 'Too many requests';
      /** `Internal server error` */
      500: 'Internal server error';
      /** `Service unavailable` */
      503: 'Service unavailable';
    };
  };
  'GET /transfers/{id}': {
    params: { id: string };
    query: Record<string, never>;
    body: never;
    response: { data: Transfer };
    errors: {
      /** `Malformed URL` */
      400: 'Malformed URL';
      /** `API key is required`, `Invalid API key` */
      401: 'API key is required' | 'Invalid API key';
      /** `Unauthorized access`, `Account is not connected to this platform` */
      403: 'Account is not connected to this platform' | 'Unauthorized access';
      /** `Not found`, `Transfer not found` */
      404: 'Not found' | 'Transfer not found';
      /** `URI too long` */
      414: 'URI too long';
      /** An input of the wrong type or shape: the validation body, as text/plain. */
      422: ValidationErrorBody;
      /** `Too many requests` */
      429: 'Too many requests';
      /** `Internal server error` */
      500: 'Internal server error';
      /** `Service unavailable` */
      503: 'Service unavailable';
    };
  };
  'POST /transfers/{id}/assign': {
    params: { id: string };
    query: Record<string, never>;
    body: AssignTransferBody;
    response: { data: Transfer };
    errors: {
      /** `Malformed URL`, `Malformed JSON body`, `Idempotency key must be 1 to 255 printable characters`, `Idempotency key reused with different parameters`, `Transfer amount does not match the payment request` */
      400:
        | 'Idempotency key must be 1 to 255 printable characters'
        | 'Idempotency key reused with different parameters'
        | 'Malformed JSON body'
        | 'Malformed URL'
        | 'Transfer amount does not match the payment request';
      /** `API key is required`, `Invalid API key` */
      401: 'API key is required' | 'Invalid API key';
      /** `Unauthorized access`, `Account is not connected to this platform` */
      403: 'Account is not connected to this platform' | 'Unauthorized access';
      /** `Not found`, `Transfer not found`, `Payment Request not found` */
      404: 'Not found' | 'Payment Request not found' | 'Transfer not found';
      /** `A request with this idempotency key is in progress`, `Transfer is not unmatched`, `Payment request is already paid`, `Payment request is void: its invoice was voided`, `Payment request is void: its payment link checkout session ended`, `A payment for this payment request is already in progress` */
      409:
        | 'A payment for this payment request is already in progress'
        | 'A request with this idempotency key is in progress'
        | 'Payment request is already paid'
        | 'Payment request is void: its invoice was voided'
        | 'Payment request is void: its payment link checkout session ended'
        | 'Transfer is not unmatched';
      /** `Payload too large` */
      413: 'Payload too large';
      /** `URI too long` */
      414: 'URI too long';
      /** `Unsupported media type` */
      415: 'Unsupported media type';
      /** An input of the wrong type or shape: the validation body, as text/plain. */
      422: ValidationErrorBody;
      /** `Too many requests` */
      429: 'Too many requests';
      /** `Internal server error` */
      500: 'Internal server error';
      /** `Service unavailable` */
      503: 'Service unavailable';
    };
  };
  'POST /transfers/{id}/return': {
    params: { id: string };
    query: Record<string, never>;
    body: never;
    response: { data: Transfer };
    errors: {
      /** `Malformed URL`, `Malformed JSON body`, `Idempotency key must be 1 to 255 printable characters`, `Idempotency key reused with different parameters` */
      400:
        | 'Idempotency key must be 1 to 255 printable characters'
        | 'Idempotency key reused with different parameters'
        | 'Malformed JSON body'
        | 'Malformed URL';
      /** `API key is required`, `Invalid API key` */
      401: 'API key is required' | 'Invalid API key';
      /** `Unauthorized access`, `Account is not connected to this platform` */
      403: 'Account is not connected to this platform' | 'Unauthorized access';
      /** `Not found`, `Transfer not found` */
      404: 'Not found' | 'Transfer not found';
      /** `A request with this idempotency key is in progress`, `Transfer is not unmatched` */
      409: 'A request with this idempotency key is in progress' | 'Transfer is not unmatched';
      /** `Payload too large` */
      413: 'Payload too large';
      /** `URI too long` */
      414: 'URI too long';
      /** `Unsupported media type` */
      415: 'Unsupported media type';
      /** An input of the wrong type or shape: the validation body, as text/plain. */
      422: ValidationErrorBody;
      /** `Too many requests` */
      429: 'Too many requests';
      /** `Internal server error` */
      500: 'Internal server error';
      /** `Service unavailable` */
      503: 'Service unavailable';
    };
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
        | 'invoice-upcoming'
        | 'invoice-overdue'
        | 'checkout-session-completed'
        | 'checkout-session-expired'
        | 'account-updated'
        | 'payout-created'
        | 'payout-updated'
        | 'refund-created'
        | 'refund-updated'
        | 'invoice-refunded'
        | 'test-clock-ready'
        | 'transfer-received';
      status?: 'pending' | 'succeeded' | 'failed';
    };
    body: never;
    response: {
      data: WebhookDelivery[];
      pagination: { page: number; limit: number; total: number; totalPages: number };
    };
    errors: {
      /** `Malformed URL` */
      400: 'Malformed URL';
      /** `API key is required`, `Invalid API key` */
      401: 'API key is required' | 'Invalid API key';
      /** `Unauthorized access`, `Account is not connected to this platform` */
      403: 'Account is not connected to this platform' | 'Unauthorized access';
      /** `Not found` */
      404: 'Not found';
      /** `URI too long` */
      414: 'URI too long';
      /** An input of the wrong type or shape: the validation body, as text/plain. */
      422: ValidationErrorBody;
      /** `Too many requests` */
      429: 'Too many requests';
      /** `Internal server error` */
      500: 'Internal server error';
      /** `Service unavailable` */
      503: 'Service unavailable';
    };
  };
  'GET /webhook-deliveries/{id}': {
    params: { id: string };
    query: Record<string, never>;
    body: never;
    response: { data: WebhookDelivery };
    errors: {
      /** `Malformed URL` */
      400: 'Malformed URL';
      /** `API key is required`, `Invalid API key` */
      401: 'API key is required' | 'Invalid API key';
      /** `Unauthorized access`, `Account is not connected to this platform` */
      403: 'Account is not connected to this platform' | 'Unauthorized access';
      /** `Not found`, `Webhook delivery not found` */
      404: 'Not found' | 'Webhook delivery not found';
      /** `URI too long` */
      414: 'URI too long';
      /** An input of the wrong type or shape: the validation body, as text/plain. */
      422: ValidationErrorBody;
      /** `Too many requests` */
      429: 'Too many requests';
      /** `Internal server error` */
      500: 'Internal server error';
      /** `Service unavailable` */
      503: 'Service unavailable';
    };
  };
  'GET /webhook-deliveries/{id}/attempts': {
    params: { id: string };
    query: Record<string, never>;
    body: never;
    response: { data: WebhookAttempt[] };
    errors: {
      /** `Malformed URL` */
      400: 'Malformed URL';
      /** `API key is required`, `Invalid API key` */
      401: 'API key is required' | 'Invalid API key';
      /** `Unauthorized access`, `Account is not connected to this platform` */
      403: 'Account is not connected to this platform' | 'Unauthorized access';
      /** `Not found`, `Webhook delivery not found` */
      404: 'Not found' | 'Webhook delivery not found';
      /** `URI too long` */
      414: 'URI too long';
      /** An input of the wrong type or shape: the validation body, as text/plain. */
      422: ValidationErrorBody;
      /** `Too many requests` */
      429: 'Too many requests';
      /** `Internal server error` */
      500: 'Internal server error';
      /** `Service unavailable` */
      503: 'Service unavailable';
    };
  };
  'POST /webhook-deliveries/{id}/retry': {
    params: { id: string };
    query: Record<string, never>;
    body: never;
    response: { data: WebhookDelivery };
    errors: {
      /** `Malformed URL`, `Malformed JSON body`, `Idempotency key must be 1 to 255 printable characters`, `Idempotency key reused with different parameters`, `Webhook URL must be a public address` */
      400:
        | 'Idempotency key must be 1 to 255 printable characters'
        | 'Idempotency key reused with different parameters'
        | 'Malformed JSON body'
        | 'Malformed URL'
        | 'Webhook URL must be a public address';
      /** `API key is required`, `Invalid API key` */
      401: 'API key is required' | 'Invalid API key';
      /** `Unauthorized access`, `Account is not connected to this platform` */
      403: 'Account is not connected to this platform' | 'Unauthorized access';
      /** `Not found`, `Webhook delivery not found` */
      404: 'Not found' | 'Webhook delivery not found';
      /** `A request with this idempotency key is in progress` */
      409: 'A request with this idempotency key is in progress';
      /** `Payload too large` */
      413: 'Payload too large';
      /** `URI too long` */
      414: 'URI too long';
      /** `Unsupported media type` */
      415: 'Unsupported media type';
      /** An input of the wrong type or shape: the validation body, as text/plain. */
      422: ValidationErrorBody;
      /** `Too many requests` */
      429: 'Too many requests';
      /** `Internal server error` */
      500: 'Internal server error';
      /** `Service unavailable` */
      503: 'Service unavailable';
    };
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
    errors: {
      /** `Malformed URL` */
      400: 'Malformed URL';
      /** `API key is required`, `Invalid API key` */
      401: 'API key is required' | 'Invalid API key';
      /** `Unauthorized access`, `Account is not connected to this platform` */
      403: 'Account is not connected to this platform' | 'Unauthorized access';
      /** `Not found` */
      404: 'Not found';
      /** `URI too long` */
      414: 'URI too long';
      /** An input of the wrong type or shape: the validation body, as text/plain. */
      422: ValidationErrorBody;
      /** `Too many requests` */
      429: 'Too many requests';
      /** `Internal server error` */
      500: 'Internal server error';
      /** `Service unavailable` */
      503: 'Service unavailable';
    };
  };
  'POST /webhook-endpoints': {
    params: Record<string, never>;
    query: Record<string, never>;
    body: CreateWebhookEndpointBody;
    response: { data: WebhookEndpoint };
    errors: {
      /** `Malformed URL`, `Malformed JSON body`, `Idempotency key must be 1 to 255 printable characters`, `Idempotency key reused with different parameters`, `Webhook URL must be a public address`, `Webhook URL must be a public address in Production`, `Too many webhook endpoints` */
      400:
        | 'Idempotency key must be 1 to 255 printable characters'
        | 'Idempotency key reused with different parameters'
        | 'Malformed JSON body'
        | 'Malformed URL'
        | 'Too many webhook endpoints'
        | 'Webhook URL must be a public address'
        | 'Webhook URL must be a public address in Production';
      /** `API key is required`, `Invalid API key` */
      401: 'API key is required' | 'Invalid API key';
      /** `Unauthorized access`, `Account is not connected to this platform`, `Only platforms can connect accounts` */
      403:
        | 'Account is not connected to this platform'
        | 'Only platforms can connect accounts'
        | 'Unauthorized access';
      /** `Not found` */
      404: 'Not found';
      /** `A request with this idempotency key is in progress` */
      409: 'A request with this idempotency key is in progress';
      /** `Payload too large` */
      413: 'Payload too large';
      /** `URI too long` */
      414: 'URI too long';
      /** `Unsupported media type` */
      415: 'Unsupported media type';
      /** An input of the wrong type or shape: the validation body, as text/plain. */
      422: ValidationErrorBody;
      /** `Too many requests` */
      429: 'Too many requests';
      /** `Internal server error` */
      500: 'Internal server error';
      /** `Service unavailable` */
      503: 'Service unavailable';
    };
  };
  'DELETE /webhook-endpoints/{id}': {
    params: { id: string };
    query: Record<string, never>;
    body: never;
    response: { data: WebhookEndpoint };
    errors: {
      /** `Malformed URL`, `Malformed JSON body`, `Idempotency key must be 1 to 255 printable characters`, `Idempotency key reused with different parameters` */
      400:
        | 'Idempotency key must be 1 to 255 printable characters'
        | 'Idempotency key reused with different parameters'
        | 'Malformed JSON body'
        | 'Malformed URL';
      /** `API key is required`, `Invalid API key` */
      401: 'API key is required' | 'Invalid API key';
      /** `Unauthorized access`, `Account is not connected to this platform` */
      403: 'Account is not connected to this platform' | 'Unauthorized access';
      /** `Not found`, `Webhook endpoint not found` */
      404: 'Not found' | 'Webhook endpoint not found';
      /** `A request with this idempotency key is in progress` */
      409: 'A request with this idempotency key is in progress';
      /** `Payload too large` */
      413: 'Payload too large';
      /** `URI too long` */
      414: 'URI too long';
      /** `Unsupported media type` */
      415: 'Unsupported media type';
      /** An input of the wrong type or shape: the validation body, as text/plain. */
      422: ValidationErrorBody;
      /** `Too many requests` */
      429: 'Too many requests';
      /** `Internal server error` */
      500: 'Internal server error';
      /** `Service unavailable` */
      503: 'Service unavailable';
    };
  };
  'GET /webhook-endpoints/{id}': {
    params: { id: string };
    query: Record<string, never>;
    body: never;
    response: { data: WebhookEndpoint };
    errors: {
      /** `Malformed URL` */
      400: 'Malformed URL';
      /** `API key is required`, `Invalid API key` */
      401: 'API key is required' | 'Invalid API key';
      /** `Unauthorized access`, `Account is not connected to this platform` */
      403: 'Account is not connected to this platform' | 'Unauthorized access';
      /** `Not found`, `Webhook endpoint not found` */
      404: 'Not found' | 'Webhook endpoint not found';
      /** `URI too long` */
      414: 'URI too long';
      /** An input of the wrong type or shape: the validation body, as text/plain. */
      422: ValidationErrorBody;
      /** `Too many requests` */
      429: 'Too many requests';
      /** `Internal server error` */
      500: 'Internal server error';
      /** `Service unavailable` */
      503: 'Service unavailable';
    };
  };
  'PATCH /webhook-endpoints/{id}': {
    params: { id: string };
    query: Record<string, never>;
    body: UpdateWebhookEndpointBody;
    response: { data: WebhookEndpoint };
    errors: {
      /** `Malformed URL`, `Malformed JSON body`, `Idempotency key must be 1 to 255 printable characters`, `Idempotency key reused with different parameters`, `Webhook URL must be a public address`, `Webhook URL must be a public address in Production` */
      400:
        | 'Idempotency key must be 1 to 255 printable characters'
        | 'Idempotency key reused with different parameters'
        | 'Malformed JSON body'
        | 'Malformed URL'
        | 'Webhook URL must be a public address'
        | 'Webhook URL must be a public address in Production';
      /** `API key is required`, `Invalid API key` */
      401: 'API key is required' | 'Invalid API key';
      /** `Unauthorized access`, `Account is not connected to this platform` */
      403: 'Account is not connected to this platform' | 'Unauthorized access';
      /** `Not found`, `Webhook endpoint not found` */
      404: 'Not found' | 'Webhook endpoint not found';
      /** `A request with this idempotency key is in progress` */
      409: 'A request with this idempotency key is in progress';
      /** `Payload too large` */
      413: 'Payload too large';
      /** `URI too long` */
      414: 'URI too long';
      /** `Unsupported media type` */
      415: 'Unsupported media type';
      /** An input of the wrong type or shape: the validation body, as text/plain. */
      422: ValidationErrorBody;
      /** `Too many requests` */
      429: 'Too many requests';
      /** `Internal server error` */
      500: 'Internal server error';
      /** `Service unavailable` */
      503: 'Service unavailable';
    };
  };
  'POST /webhook-endpoints/{id}/rotate-secret': {
    params: { id: string };
    query: Record<string, never>;
    body: never;
    response: { data: WebhookEndpoint };
    errors: {
      /** `Malformed URL`, `Malformed JSON body`, `Idempotency key must be 1 to 255 printable characters`, `Idempotency key reused with different parameters` */
      400:
        | 'Idempotency key must be 1 to 255 printable characters'
        | 'Idempotency key reused with different parameters'
        | 'Malformed JSON body'
        | 'Malformed URL';
      /** `API key is required`, `Invalid API key` */
      401: 'API key is required' | 'Invalid API key';
      /** `Unauthorized access`, `Account is not connected to this platform` */
      403: 'Account is not connected to this platform' | 'Unauthorized access';
      /** `Not found`, `Webhook endpoint not found` */
      404: 'Not found' | 'Webhook endpoint not found';
      /** `A request with this idempotency key is in progress` */
      409: 'A request with this idempotency key is in progress';
      /** `Payload too large` */
      413: 'Payload too large';
      /** `URI too long` */
      414: 'URI too long';
      /** `Unsupported media type` */
      415: 'Unsupported media type';
      /** An input of the wrong type or shape: the validation body, as text/plain. */
      422: ValidationErrorBody;
      /** `Too many requests` */
      429: 'Too many requests';
      /** `Internal server error` */
      500: 'Internal server error';
      /** `Service unavailable` */
      503: 'Service unavailable';
    };
  };
  'POST /webhook-endpoints/{id}/test': {
    params: { id: string };
    query: Record<string, never>;
    body: SendTestEventBody;
    response: { data: WebhookDelivery };
    errors: {
      /** `Malformed URL`, `Malformed JSON body`, `Idempotency key must be 1 to 255 printable characters`, `Idempotency key reused with different parameters`, `Webhook endpoint does not receive … events` */
      400:
        | 'Idempotency key must be 1 to 255 printable characters'
        | 'Idempotency key reused with different parameters'
        | 'Malformed JSON body'
        | 'Malformed URL'
        | (string & {});
      /** `API key is required`, `Invalid API key` */
      401: 'API key is required' | 'Invalid API key';
      /** `Unauthorized access`, `Account is not connected to this platform` */
      403: 'Account is not connected to this platform' | 'Unauthorized access';
      /** `Not found`, `Webhook endpoint not found` */
      404: 'Not found' | 'Webhook endpoint not found';
      /** `A request with this idempotency key is in progress` */
      409: 'A request with this idempotency key is in progress';
      /** `Payload too large` */
      413: 'Payload too large';
      /** `URI too long` */
      414: 'URI too long';
      /** `Unsupported media type` */
      415: 'Unsupported media type';
      /** An input of the wrong type or shape: the validation body, as text/plain. */
      422: ValidationErrorBody;
      /** `Too many requests` */
      429: 'Too many requests';
      /** `Internal server error` */
      500: 'Internal server error';
      /** `Service unavailable` */
      503: 'Service unavailable';
    };
  };
}
