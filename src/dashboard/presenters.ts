import type { CheckoutSession } from '../checkout/checkout-session';
import type { DashboardTexts } from '../common/i18n/dashboard-texts';
import { formatMru, Language } from '../common/i18n/languages';
import type { ListEnvelope } from '../common/pagination';
import type { Customer } from '../customers/customer';
import { invoicePagePath } from '../invoices/invoice';
import type { InvoiceListItem } from '../invoices/invoices.repository';
import type { PaymentRequest } from '../payment-requests/payment-request';
import type { PaymentListItem } from '../payments/payment-search';
import type { Price, PriceInterval } from '../prices/price';
import type { Product } from '../products/product';
import { subscriptionStatus } from '../subscriptions/subscription';
import type { SubscriptionListItem } from '../subscriptions/subscriptions.repository';
import type { TestClockJson } from '../test-clocks/test-clock';
import type { DeliveryLogItem } from '../webhooks/webhooks.repository';
import { fill, formatDate, formatTime } from './format';

/*
 * Records as the views show them: texts in the user's language, times in UTC, MRU grouped, and
 * each status with a class for its colour. Views only place these strings.
 */

export interface Viewer {
  t: DashboardTexts;
  lang: Language;
}

export function requestRow(v: Viewer, pr: PaymentRequest) {
  return {
    id: pr.id,
    href: `/dashboard/payment-requests/${pr.id}`,
    transactionId: pr.transactionId,
    amount: formatMru(pr.amount, v.lang),
    phone: pr.phoneNumber ?? v.t.none,
    status: pr.status,
    statusText: v.t[`requestStatus_${pr.status}`],
    created: formatTime(pr.createdAt, v.lang),
    paidAt: pr.paidAt ? formatTime(pr.paidAt, v.lang) : v.t.none,
    invoiceId: pr.invoiceId,
    invoiceHref: pr.invoiceId ? `/dashboard/invoices/${pr.invoiceId}` : undefined,
    environmentId: pr.environmentId,
  };
}

export function paymentRow(v: Viewer, p: PaymentListItem) {
  return {
    id: p.id,
    href: `/dashboard/payment-requests/${p.paymentRequestId}#payment-${p.id}`,
    requestHref: `/dashboard/payment-requests/${p.paymentRequestId}`,
    transactionId: p.transactionId,
    amount: formatMru(p.amount, v.lang),
    phone: p.phoneNumber,
    method: p.methodName,
    status: p.status,
    statusText: v.t[`paymentStatus_${p.status}`],
    reference: p.referenceId ?? v.t.none,
    failureReason: p.failureReason ?? v.t.none,
    created: formatTime(p.createdAt, v.lang),
    completed: p.completedAt ? formatTime(p.completedAt, v.lang) : v.t.none,
  };
}

export function sessionRow(v: Viewer, s: CheckoutSession) {
  return {
    id: s.id,
    status: s.status,
    statusText: v.t[`sessionStatus_${s.status}`],
    created: formatTime(s.createdAt, v.lang),
    expires: formatTime(s.expiresAt, v.lang),
    completed: s.completedAt ? formatTime(s.completedAt, v.lang) : v.t.none,
    pageUrl: `/checkout/${s.id}`,
  };
}

export function deliveryRow(v: Viewer, d: DeliveryLogItem, returnTo: string) {
  const statusClass = d.status === 'succeeded' ? 'completed' : d.status;
  return {
    id: d.id,
    href: `/dashboard/webhooks/deliveries/${d.id}`,
    event: d.event,
    endpointUrl: d.endpointUrl,
    endpointHref: `/dashboard/webhooks/${d.endpointId}`,
    status: statusClass,
    statusText: v.t[`deliveryStatus_${d.status}`],
    attempts: d.attempts,
    lastStatusCode: d.lastStatusCode ?? v.t.none,
    lastError: d.lastError,
    nextAttempt: d.nextAttemptAt ? formatTime(d.nextAttemptAt, v.lang) : v.t.none,
    created: formatTime(d.createdAt, v.lang),
    replayAction: `/dashboard/webhooks/deliveries/${d.id}/replay`,
    returnTo,
  };
}

/** `1 500 MRU / mois`. */
export const priceText = (v: Viewer, amount: number, interval: PriceInterval): string =>
  fill(v.t[`perInterval_${interval}`], { amount: formatMru(amount, v.lang) });

export function productRow(v: Viewer, p: Product, prices: readonly Price[] = []) {
  return {
    id: p.id,
    href: `/dashboard/products/${p.id}`,
    name: p.name,
    description: p.description ?? '',
    prices: prices.map((pr) => priceText(v, pr.amount, pr.interval)).join(', ') || v.t.none,
    created: formatTime(p.createdAt, v.lang),
  };
}

export function priceRow(v: Viewer, p: Price) {
  return {
    id: p.id,
    amount: p.amount,
    interval: p.interval,
    text: priceText(v, p.amount, p.interval),
    intervalText: v.t[`interval_${p.interval}`],
    created: formatTime(p.createdAt, v.lang),
    action: `/dashboard/prices/${p.id}`,
    archiveAction: `/dashboard/prices/${p.id}/archive`,
  };
}

export function customerRow(v: Viewer, c: Customer) {
  return {
    id: c.id,
    href: `/dashboard/customers/${c.id}`,
    externalUserId: c.externalUserId,
    phone: c.phone ?? v.t.none,
    created: formatTime(c.createdAt, v.lang),
    /** Left by prorated downgrades, taken off the customer's next invoices. */
    creditBalance: formatMru(c.creditBalance, v.lang),
  };
}

/** The badge colour of each status (the dashboard's classes). */
const CLOCK_BADGES = { ready: 'completed', advancing: 'pending' } as const;

/** A clock as the list and its page show it. */
export function testClockRow(v: Viewer, c: TestClockJson) {
  return {
    id: c.id,
    href: `/dashboard/test-clocks/${c.id}`,
    name: c.name ?? v.t.unnamed,
    named: c.name !== null,
    status: c.status,
    statusText: v.t[`testClockStatus_${c.status}`],
    badge: CLOCK_BADGES[c.status],
    advancing: c.status === 'advancing',
    frozenTime: formatTime(c.frozenTime, v.lang),
    advancedTo: formatTime(c.advancedTo, v.lang),
    created: formatTime(c.createdAt, v.lang),
  };
}

/** A UTC day, as billing periods are counted: `23 novembre 2026`. */
const day = (v: Viewer, at: Date | null) => (at ? formatDate(at, v.lang) : v.t.none);

export function subscriptionRow(v: Viewer, s: SubscriptionListItem) {
  const status = subscriptionStatus(s.status, s.overdue, s.firstPaymentDueBy);
  return {
    id: s.id,
    href: `/dashboard/subscriptions/${s.id}`,
    status,
    statusText: v.t[`subscriptionStatus_${status}`],
    customer: s.customerExternalUserId,
    customerHref: `/dashboard/customers/${s.customerId}`,
    product: s.productName,
    productHref: s.productActive ? `/dashboard/products/${s.productId}` : undefined,
    productArchived: !s.productActive,
    price: priceText(v, s.priceAmount, s.priceInterval),
    priceId: s.priceId,
    priceArchived: !s.priceActive,
    quantity: s.quantity,
    couponId: s.couponId ?? undefined,
    discountPeriods:
      s.couponId === null ? undefined : `${s.discountPeriodsApplied}/${s.discountEndsAfter ?? '∞'}`,
    pendingChange:
      s.pendingPriceId === null ? undefined : { priceId: s.pendingPriceId, quantity: s.pendingQuantity },
    startedAt: formatTime(s.startedAt, v.lang),
    trialEnd: s.trialEnd ? formatTime(s.trialEnd, v.lang) : undefined,
    currentPeriod:
      s.currentPeriodStart && s.currentPeriodEnd
        ? fill(v.t.periodRange, { start: day(v, s.currentPeriodStart), end: day(v, s.currentPeriodEnd) })
        : v.t.none,
    nextBilling: s.nextBillingDate ? day(v, s.nextBillingDate) : v.t.none,
    expiresAt: s.expiresAt ? formatTime(s.expiresAt, v.lang) : undefined,
    cancelledAt: s.cancelledAt ? formatTime(s.cancelledAt, v.lang) : undefined,
    created: formatTime(s.createdAt, v.lang),
    invoicesHref: `/dashboard/invoices?subscriptionId=${s.id}`,
  };
}

/** The pay link and ready-made messages to send it: `sms:` and WhatsApp's click-to-chat address (links, nothing loaded). */
export function invoiceRow(v: Viewer, i: InvoiceListItem, publicUrl: string, merchant: string) {
  const amount = formatMru(Number(i.amount), v.lang);
  const period = fill(v.t.periodRange, { start: day(v, i.periodStart), end: day(v, i.periodEnd) });
  const payUrl = publicUrl + invoicePagePath(i.id);
  const message = fill(v.t.payMessage, { merchant, amount, period, url: payUrl });
  const phone = i.customerPhone;
  return {
    id: i.id,
    href: `/dashboard/invoices/${i.id}`,
    status: i.status,
    statusText: v.t[`invoiceStatus_${i.status}`],
    pending: i.status === 'pending',
    amount,
    period,
    dueDate: day(v, i.dueDate),
    customer: i.customerExternalUserId,
    customerHref: `/dashboard/customers/${i.customerId}`,
    customerPhone: phone ?? v.t.none,
    product: i.productName,
    subscriptionId: i.subscriptionId,
    subscriptionHref: `/dashboard/subscriptions/${i.subscriptionId}`,
    paymentRequestId: i.paymentRequestId,
    paymentRequestHref: i.paymentRequestId ? `/dashboard/payment-requests/${i.paymentRequestId}` : undefined,
    created: formatTime(i.createdAt, v.lang),
    payUrl,
    smsHref: `sms:${phone ? `+222${phone}` : ''}?body=${encodeURIComponent(message)}`,
    whatsAppHref: `https://wa.me/${phone ? `222${phone}` : ''}?text=${encodeURIComponent(message)}`,
  };
}

/** The labels of a pager's links, with the filters kept. */
export function pager(
  v: Viewer,
  base: string,
  filters: Record<string, string | undefined>,
  page: { next?: string; previous?: string },
) {
  const link = (extra: Record<string, string>) => {
    const params = new URLSearchParams();
    for (const [k, value] of Object.entries({ ...filters, ...extra })) if (value) params.set(k, value);
    const q = params.toString();
    return q ? `${base}?${q}` : base;
  };
  return {
    previous: page.previous ? link({ before: page.previous }) : undefined,
    next: page.next ? link({ after: page.next }) : undefined,
    first: page.previous ? link({}) : undefined,
    label: v.t.pagination,
  };
}

/** The `page` of a paged list: a whole number from 1, else the first page. */
export function pageNumber(d: { query(name: string): string | undefined }): number {
  const text = d.query('page');
  return text && /^[1-9]\d{0,5}$/.test(text) ? Number(text) : 1;
}

/** The pager partial's links for a numbered page of `list`. */
export function numberedPager(v: Viewer, base: string, list: ListEnvelope<unknown>) {
  const { page, totalPages } = list.pagination;
  return {
    previous: page > 1 ? (page === 2 ? base : `${base}?page=${page - 1}`) : undefined,
    next: page < totalPages ? `${base}?page=${page + 1}` : undefined,
    first: page > 1 ? base : undefined,
    label: v.t.pagination,
  };
}
