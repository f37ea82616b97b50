import type { CheckoutSession } from '../checkout/checkout-session';
import type { DashboardTexts } from '../common/i18n/dashboard-texts';
import { formatMru, Language } from '../common/i18n/languages';
import type { PaymentRequest } from '../payment-requests/payment-request';
import type { PaymentListItem } from '../payments/payments.repository';
import type { DeliveryLogItem } from '../webhooks/webhooks.repository';
import { formatTime } from './format';

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
