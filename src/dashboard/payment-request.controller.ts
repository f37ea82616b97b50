import { Get, Param } from '@nestjs/common';
import { CheckoutSessionsService } from '../checkout/checkout-sessions.service';
import { AppError } from '../common/errors/app-error';
import { CommonError } from '../common/errors/common-errors';
import { Post } from '../common/http/routes';
import { formatMru } from '../common/i18n/languages';
import { REFUND_REASON_MAX } from '../ledger/dto/refund.dto';
import { LedgerError } from '../ledger/ledger.errors';
import type { RefundJson } from '../ledger/refund';
import { RefundsService } from '../ledger/refunds.service';
import { assertMayAskForMoney } from '../organizations/account';
import { OrganizationError } from '../organizations/organizations.errors';
import { PaymentRequestsService } from '../payment-requests/payment-requests.service';
import type { PaymentListItem } from '../payments/payment-search';
import { PaymentsService } from '../payments/payments.service';
import { WebhooksService } from '../webhooks/webhooks.service';
import { DashboardError, dashboardError } from './dashboard.errors';
import { DashboardRenderer } from './dashboard.renderer';
import { DashboardPages, idOr404 } from './dashboard-pages';
import { Dash, DashboardAccess, DashboardRequest } from './dashboard-request';
import { fill, formatTime } from './format';
import { apiFormMessage, ApiRule, FormMessage, parseAmount } from './forms';
import { deliveryRow, paymentRow, requestRow, sessionRow, Viewer } from './presenters';

/** The refunds of a payment the page lists (the API pages them; a payment has a few). */
const REFUNDS_SHOWN = 100;

/** What the refund form of one payment was sent with, and what was wrong. */
interface RefundForm {
  paymentId: string;
  amount: string;
  reason: string;
  error?: FormMessage;
}

/** The API's rules a refund may break, shown on the form in the API's words. */
const REFUND_RULES = [
  LedgerError.PaymentNotCompleted,
  LedgerError.AmountExceedsLeft,
  CommonError.AmountNotPositive,
  OrganizationError.NotVerifiedForProduction,
] satisfies ApiRule[];

/**
 * A payment request's page: the request, its payments (a completed one with its refunds, what is
 * left to refund and, for owners, the refund form), checkout sessions and webhook deliveries. A
 * refund is made by `RefundsService`, as `POST /refunds` makes it (its balance transaction, the
 * bank's refund, its events).
 */
@DashboardPages()
export class DashboardPaymentRequestController {
  constructor(
    private readonly renderer: DashboardRenderer,
    private readonly requests: PaymentRequestsService,
    private readonly payments: PaymentsService,
    private readonly checkout: CheckoutSessionsService,
    private readonly webhooks: WebhooksService,
    private readonly refunds: RefundsService,
  ) {}

  @Get('payment-requests/:id')
  async paymentRequest(@Dash() d: DashboardRequest, @Param('id') id: string): Promise<void> {
    await this.render(d, idOr404(id));
  }

  /** Owners only. `amount` empty: what is left; `reason` optional. Back to the request's page. */
  @Post('payments/:id/refunds')
  @DashboardAccess('owner')
  async refund(@Dash() d: DashboardRequest, @Param('id') id: string): Promise<void> {
    const tenant = d.tenant;
    const payment = await this.payments.findInEnvironment(tenant.environmentId, idOr404(id));
    if (!payment) throw dashboardError(DashboardError.NotFound);
    const form: RefundForm = {
      paymentId: payment.id,
      amount: d.field('amount').trim(),
      reason: d.field('reason').trim(),
    };
    const amount = form.amount === '' ? undefined : parseAmount(form.amount);
    if (form.amount !== '' && amount === undefined) form.error = { text: d.t.invalidAmount };
    else if (form.reason.length > REFUND_REASON_MAX) form.error = { text: d.t.reasonTooLong };
    if (form.error) return this.render(d, payment.paymentRequestId, form);
    try {
      assertMayAskForMoney(tenant);
      await this.refunds.create(tenant, { paymentId: payment.id, amount, reason: form.reason || undefined });
    } catch (err) {
      if (!AppError.is(err, ...REFUND_RULES)) throw err;
      return this.render(d, payment.paymentRequestId, { ...form, error: apiFormMessage(d.lang, err) });
    }
    d.page.redirect(
      `/dashboard/payment-requests/${payment.paymentRequestId}?notice=refundCreated#payment-${payment.id}`,
    );
  }

  private async render(d: DashboardRequest, requestId: string, form?: RefundForm): Promise<void> {
    const { t } = d;
    const v = { t, lang: d.lang };
    const tenant = d.tenant;
    const pr = await this.requests.findInEnvironment(tenant.environmentId, requestId);
    if (!pr) throw dashboardError(DashboardError.NotFound);
    const [payments, sessions, deliveries] = await Promise.all([
      this.payments.ofRequest(tenant.environmentId, pr.id),
      this.checkout.ofRequest(tenant.environmentId, pr.id),
      this.webhooks.deliveriesConcerning(tenant.environmentId, pr.id),
    ]);
    const rows = [];
    for (const p of payments) {
      const refunds =
        p.status === 'completed'
          ? (await this.refunds.list(tenant, { paymentId: p.id, limit: REFUNDS_SHOWN })).data
          : [];
      rows.push(this.paymentWithRefunds(d, v, p, refunds, form?.paymentId === p.id ? form : undefined));
    }
    this.renderer.render(
      d,
      'payment-request',
      fill(t.paymentRequestTitle, { transactionId: pr.transactionId }),
      {
        request: requestRow(v, pr),
        payments: rows,
        sessions: sessions.map((s) => sessionRow(v, s)),
        deliveries: deliveries.map((x) => deliveryRow(v, x, `/dashboard/payment-requests/${pr.id}`)),
      },
    );
  }

  private paymentWithRefunds(
    d: DashboardRequest,
    v: Viewer,
    p: PaymentListItem,
    refunds: RefundJson[],
    form: RefundForm | undefined,
  ) {
    const completed = p.status === 'completed';
    const left = p.amount - p.refundedAmount;
    return {
      ...paymentRow(v, p),
      completed,
      refundSection: completed || form !== undefined,
      refundedAmount: formatMru(p.refundedAmount, v.lang),
      leftToRefund: formatMru(left, v.lang),
      refunds: refunds.map((r) => ({
        id: r.id,
        amount: formatMru(r.amount, v.lang),
        status: r.status === 'succeeded' ? 'completed' : r.status,
        statusText: v.t[`refundStatus_${r.status}`],
        reason: r.reason ?? v.t.none,
        failureReason: r.failureReason ?? v.t.none,
        created: formatTime(r.createdAt, v.lang),
      })),
      // Owners, while something is left; and a form sent back with its error.
      refundForm:
        (completed && d.isOwner && left > 0) || form
          ? {
              action: `/dashboard/payments/${p.id}/refunds`,
              amount: form?.amount ?? '',
              reason: form?.reason ?? '',
              help: fill(v.t.refundAmountHelp, { amount: formatMru(left, v.lang) }),
              error: form?.error,
            }
          : undefined,
    };
  }
}
