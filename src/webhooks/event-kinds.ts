/** The six kinds every endpoint receives by default. */
export const DEFAULT_EVENT_KINDS = [
  'payment-created',
  'payment-updated',
  'payment-request-created',
  'payment-request-updated',
  'subscription-created',
  'subscription-updated',
] as const;

/** Further kinds, sent only to endpoints that list them (docs/api.md "Webhooks"). */
export const EXTRA_EVENT_KINDS = [
  'invoice-created',
  'invoice-paid',
  'invoice-voided',
  'invoice-upcoming',
  'invoice-overdue',
  'checkout-session-completed',
  'checkout-session-expired',
  'account-updated',
  'payout-created',
  'payout-updated',
  'refund-created',
  'refund-updated',
  'invoice-refunded',
  'transfer-received',
] as const;

export const EVENT_KINDS = [...DEFAULT_EVENT_KINDS, ...EXTRA_EVENT_KINDS] as const;
export type EventKind = (typeof EVENT_KINDS)[number];
