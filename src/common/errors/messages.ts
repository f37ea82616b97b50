/**
 * Every message the API answers with, word for word: clients and tests match on them.
 * Tests import these, so a changed wording fails a test instead of breaking a merchant.
 */
export const Messages = {
  apiKeyRequired: 'API key is required',
  invalidApiKey: 'Invalid API key',
  unauthorizedAccess: 'Unauthorized access',
  checkoutNeedsSecretKey: 'Only secret API keys can create checkout sessions',
  organizationNotVerified: 'Organization is not verified for Production',
  /** An operator (or the CLI) names an organization that does not exist. */
  organizationNotFound: 'Organization not found',
  /** Operators' actions (the CLI, and the operators' console to come). */
  rejectionReasonRequired: 'A reason (1 to 1000 characters) is required to reject an application',
  invalidFeeRate: 'Fee rate must be a whole number of basis points from 0 to 10000',
  invalidIban: 'IBAN must be MR followed by 25 digits, with valid check digits',
  unknownPayoutBank: (bank: string) => `Unknown bank "${bank}"`,
  invalidPayoutHolder: 'Account holder must be 1 to 200 characters',
  /** The operators' console: a decision on an application no longer waiting for one. */
  applicationNotUnderReview: 'The application is not waiting for a decision',
  noPayoutAccountChange: 'No payout account change is waiting for a decision',
  payoutAccountChangeNeedsVerification:
    'Only a verified organization changes its payout account; apply to go live with it',
  passwordChangeRequired: 'Password change required',
  /** The go-live application (the dashboard translates them by code). */
  applicationUnderReview: 'The application is already being reviewed',
  alreadyVerified: 'The organization is already verified',
  documentRequired: 'Both documents are required',
  documentNotFound: 'Document not found',
  /** `GET /metrics` without `Authorization: Bearer <METRICS_TOKEN>`. */
  invalidMetricsToken: 'Invalid metrics token',

  notFound: 'Not found',
  malformedJson: 'Malformed JSON body',
  malformedUrl: 'Malformed URL',
  uriTooLong: 'URI too long',
  /** Headers over node's 16 KB limit (a long URL is 414). */
  headersTooLarge: 'Request header fields too large',
  /** Bytes node's HTTP parser cannot read as a request. */
  badRequest: 'Bad request',
  payloadTooLarge: 'Payload too large',
  unsupportedMediaType: 'Unsupported media type',
  /** A list cursor the service did not write, or naming no possible row (the dashboard's lists). */
  invalidCursor: 'Invalid cursor',
  internal: 'Internal server error',
  /** PostgreSQL is unreachable (stopped, restarting, failing over): try again after Retry-After. */
  serviceUnavailable: 'Service unavailable',

  paymentRequestNotFound: 'Payment Request not found',
  paymentNotFound: 'Payment not found',
  paymentMethodNotFound: 'Payment method not found',
  checkoutSessionNotFound: 'Checkout session not found',
  customerNotFound: 'Customer not found',
  productNotFound: 'Product not found',
  priceNotFound: 'Price not found',
  subscriptionNotFound: 'Subscription not found',
  invoiceNotFound: 'Invoice not found',
  webhookEndpointNotFound: 'Webhook endpoint not found',
  webhookDeliveryNotFound: 'Webhook delivery not found',

  invalidPhoneNumber: 'Invalid phone number',
  amountNotPositive: 'Amount must be a positive number',
  priceAmountNotPositive: 'Price amount must be a positive number',
  amountTooLarge: 'Amount must not exceed 100000000',
  amountRequiredForNewTransaction:
    'Amount is required when transactionId does not match an existing payment request',
  eitherPaymentRequestOrTransaction: 'Either paymentRequestId or transactionId is required',
  passCodeRequiredForBankily: 'Pass code is required for Bankily',
  simulatedTransfersSandboxOnly: 'Simulated transfers are only available in sandbox',
  billingRunsSandboxOnly: 'Billing runs are only available in sandbox',
  webhookUrlMustBePublic: 'Webhook URL must be a public address',
  webhookUrlMustBePublicInProduction: 'Webhook URL must be a public address in Production',
  tooManyWebhookEndpoints: 'Too many webhook endpoints',
  webhookEndpointDoesNotReceive: (kind: string) => `Webhook endpoint does not receive ${kind} events`,

  transactionIdTaken: (transactionId: string) =>
    `A payment request with transactionId "${transactionId}" already exists in this environment`,
  customerExternalIdTaken: (externalUserId: string) =>
    `A customer with externalUserId "${externalUserId}" already exists`,
  paymentRequestAlreadyPaid: 'Payment request is already paid',
  /** Paying (or opening checkout for) the request of a voided invoice. */
  paymentRequestVoid: 'Payment request is void: its invoice was voided',
  /** Paying (or opening checkout for) a payment link's request whose checkout session ended unpaid. */
  paymentLinkRequestVoid: 'Payment request is void: its payment link checkout session ended',
  paymentLinkNotFound: 'Payment link not found',
  /** A payment link's amount limits (docs/payment-links.md). */
  paymentLinkAmountLimitsWithAmount: 'minAmount and maxAmount apply only to links without an amount',
  paymentLinkMinAboveMax: 'minAmount must not exceed maxAmount',
  paymentLinkExpiresAtPast: 'expiresAt must be in the future',
  checkoutSessionNotOpen: 'Checkout session is not open',
  phoneNumberRequired: 'Phone number is required',
  /** A second pay while the bank is still answering the first (docs/bank-gateway.md). */
  paymentInProgress: 'A payment for this payment request is already in progress',
  /** A simulated transfer on a payment that is already completed or failed. */
  paymentNotPending: 'Payment is not pending',

  bankFailure: 'Payment failed due to a third party error, please try again later',

  /** Dashboard accounts and keys (docs/dashboard.md; the pages translate them by code). */
  invalidEmailOrPassword: 'Invalid email or password',
  tooManySignInAttempts: 'Too many sign-in attempts. Try again in 15 minutes.',
  invalidEmail: 'Invalid email address',
  passwordTooShort: 'Password must be at least 10 characters',
  passwordTooCommon: 'Password is too common: choose one that is not among the 10,000 most used',
  passwordTooLong: 'Password must be at most 256 characters',
  wrongCurrentPassword: 'Current password is incorrect',
  userNotFound: 'User not found',
  lastOwner: 'An organization needs at least one owner',
  invitationNotFound: 'Invitation not found or expired',
  apiKeyNotFound: 'API key not found',
  securityCheckFailed: 'Security check failed: reload the page and try again',
  viewerCannotChange: 'Your role does not allow this change',
  signInRequired: 'Sign in required',
  dashboardPageNotFound: 'Page not found',
  invalidForm: 'The form was not filled in as expected',
  idempotencyKeyReused: 'Idempotency key reused with different parameters',
  idempotencyKeyInProgress: 'A request with this idempotency key is in progress',
  /** An Idempotency-Key header that is empty, too long or not printable. */
  idempotencyKeyInvalid: 'Idempotency key must be 1 to 255 printable characters',
  tooManyRequests: 'Too many requests',

  /** Subscription inputs that cannot describe a subscription (docs/billing.md). */
  trialNeedsPeriodOrEnd: 'trialPeriod or trialEnd is required when trial is true',
  trialEndNotAfterStart: 'trialEnd must be after startedAt',
  /** requireFirstPayment with a trial (docs/billing.md "Subscriptions that require a first payment"). */
  trialWithFirstPayment: 'A subscription with a trial cannot require a first payment',
  nothingToChange: 'Nothing to change',
  couponNotFound: 'Coupon not found',
  /** Transfers of the national switch (docs/transfers.md). */
  transferNotFound: 'Transfer not found',
  transferAmountMismatch: 'Transfer amount does not match the payment request',
  transferNotUnmatched: 'Transfer is not unmatched',
  invalidReceivingBank: 'Invalid receiving bank',
  transfersNeedVerification: 'Organization is not verified',
  couponNotValid: 'Coupon is not valid',
  couponCodeTaken: 'A coupon with this code already exists',
  couponOneKindOfDiscount: 'A coupon takes exactly one of percentOff and amountOff',
  couponDurationInPeriods: 'durationInPeriods goes with a repeating duration, and only with it',
  subscriptionNotActive: 'Subscription is not active',
  prorationNeedsSameInterval: 'Prorated changes need prices of the same interval',
  priceNotActive: 'Price is not active',
  periodAmountTooLarge: 'A period cannot bill more than 100000000 MRU',
  expiresAtNotAfterStart: 'expiresAt must be after startedAt',
  startTooFarInPast: 'Start date is too far in the past',
  subscriptionCannotBePaused: (status: string) => `A ${status} subscription cannot be paused`,
  subscriptionCannotBeResumed: (status: string) => `A ${status} subscription cannot be resumed`,
  /** Paying an invoice (its page) that was paid or voided meanwhile. */
  invoiceNotPending: 'Invoice is not pending',
  /** A payment recorded by hand for more than the invoice still asks. */
  amountExceedsDue: 'Amount exceeds the amount due',

  /** Payouts (docs/payouts.md). */
  insufficientAvailableBalance: 'Insufficient available balance',
  payoutsOnHold: 'Payouts are on hold for this organization',
  payoutNotFound: 'Payout not found',
  payoutRunsSandboxOnly: 'Payout runs are only available in sandbox',
  /** Platforms and their connected accounts (docs/platforms.md). */
  onlyPlatformsConnectAccounts: 'Only platforms can connect accounts',
  accountNotConnected: 'Account is not connected to this platform',
  accountEmailTaken: (email: string) => `A dashboard user with email ${email} already exists`,
  applicationFeeNeedsAccount: 'Application fees need a connected account',
  applicationFeeExceedsAmount: 'Application fee must not exceed the amount',
  /** Refunds (docs/ledger.md). */
  onlyCompletedPaymentsRefundable: 'Only completed payments can be refunded',
  refundExceedsAmountLeft: 'Refund amount exceeds the amount left to refund',
  refundNotFound: 'Refund not found',
  settlementReportRange: 'from must not be after to, and the range at most 366 days',
} as const;
