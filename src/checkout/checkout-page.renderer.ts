import { Injectable, Logger } from '@nestjs/common';
import { PageRequest } from '../common/http/pages';
import { API } from '../common/http/routes';
import { Views } from '../common/http/views';
import { formatMru } from '../common/i18n/languages';
import { CheckoutPayments, PaymentMethodChoice } from './checkout-payments';
import { PageSession, successRedirect } from './checkout-sessions.service';
import { checkoutTexts, FormState, payFormLocals, renderHostedPage } from './hosted-page';
import { failedAttemptText, HostedTransfers, pendingTransferLocals } from './hosted-transfer';

export const checkoutPageUrl = (id: string) => `/checkout/${id}`;

/** Renders the hosted page's views (views/checkout/*, in layouts/checkout) for a session in any state. */
@Injectable()
export class CheckoutPageRenderer {
  private readonly logger = new Logger(CheckoutPageRenderer.name);

  constructor(
    private readonly views: Views,
    private readonly payments: CheckoutPayments,
    private readonly transfers: HostedTransfers,
  ) {}

  /** Whatever the session is now: closed, waiting for the bank, or the form. */
  async session(page: PageRequest, session: PageSession, status: number): Promise<void> {
    if (session.status !== 'open') return this.closed(page, session, status);
    if (session.paymentStatus === 'pending') return this.pending(page, session, status);
    // The last attempt failed (e.g. a pending payment the bank then refused, seen after polling, or
    // a transfer's claim that ran out): say so, and offer the form again to retry or choose another.
    const error =
      session.paymentStatus === 'failed'
        ? failedAttemptText(
            page,
            await this.transfers.latestOf(session.environmentId, session.paymentRequestId),
          )
        : undefined;
    // The merchant's number is shown masked beside an empty field, never in it (docs/checkout.md);
    // the bank app chosen before (on a payment link's page, or an attempt that failed) stays checked.
    return this.form(page, session, status, {
      phoneNumber: '',
      methodId: session.selectedConfigurationId ?? undefined,
      error,
    });
  }

  /**
   * The bank has the payment: no form, no cancel; the script polls the status route, the page
   * reloads itself without it. A transfer payment shows what to send, where, and until when.
   */
  async pending(page: PageRequest, session: PageSession, status: number): Promise<void> {
    const t = checkoutTexts(page);
    const statusUrl = `/${API}/checkout-session/public/${session.id}/payment-status`;
    const transfer = await this.transfers.latestOf(session.environmentId, session.paymentRequestId);
    if (transfer?.status === 'pending')
      return this.render(page, 'checkout/transfer', status, {
        merchantName: session.merchantName,
        merchantPhone: session.merchantPhone,
        merchantWebsite: session.merchantWebsite,
        ...pendingTransferLocals(page, transfer, checkoutPageUrl(session.id), statusUrl),
      });
    this.render(page, 'checkout/pending', status, {
      pageTitle: t.pendingTitle,
      merchantName: session.merchantName,
      merchantPhone: session.merchantPhone,
      merchantWebsite: session.merchantWebsite,
      amountText: formatMru(session.amount, page.lang),
      statusUrl,
      pageUrl: checkoutPageUrl(session.id),
      // Without JavaScript nothing polls: the page reloads itself every 5 s (it says it updates).
      refreshUrl: checkoutPageUrl(session.id),
    });
  }

  async form(page: PageRequest, session: PageSession, status: number, input: FormState): Promise<void> {
    const t = checkoutTexts(page);
    const methods = await this.methods(session);
    const amountText = formatMru(session.amount, page.lang);
    this.render(page, 'checkout/open', status, {
      pageTitle: `${t.title} · ${session.merchantName}`,
      merchantName: session.merchantName,
      merchantPhone: session.merchantPhone,
      merchantWebsite: session.merchantWebsite,
      amountText,
      transactionId: session.transactionId,
      testMode: session.environment === 'sandbox',
      ...payFormLocals(page, session.id, methods, input, session.phoneNumber),
      payLabel: t.pay.replace('{amount}', amountText),
      payAction: `${checkoutPageUrl(session.id)}/pay`,
      cancelAction: `${checkoutPageUrl(session.id)}/cancel`,
    });
  }

  notFound(page: PageRequest): void {
    const t = checkoutTexts(page);
    this.render(page, 'checkout/state', 404, {
      pageTitle: t.notFoundTitle,
      state: 'not-found',
      heading: t.notFoundTitle,
      message: t.notFoundBody,
    });
  }

  private closed(page: PageRequest, session: PageSession, status: number): void {
    const t = checkoutTexts(page);
    switch (session.status) {
      case 'completed':
        return this.render(page, 'checkout/receipt', status, {
          pageTitle: t.completedTitle,
          merchantName: session.merchantName,
          amountText: formatMru(session.amount, page.lang),
          transactionId: session.transactionId,
          merchantUrl: successRedirect(session),
        });
      case 'cancelled':
        return this.state(page, session, status, t.cancelledTitle, t.cancelledBody, session.cancelUrl);
      case 'expired':
        return this.state(page, session, status, t.expiredTitle, t.expiredBody, session.cancelUrl);
      case 'open':
        return this.state(page, session, status, t.title, t.notOpen, null);
    }
  }

  private state(
    page: PageRequest,
    session: PageSession,
    status: number,
    heading: string,
    message: string,
    merchantUrl: string | null,
  ): void {
    this.render(page, 'checkout/state', status, {
      pageTitle: heading,
      state: session.status,
      heading,
      message,
      merchantName: session.merchantName,
      merchantUrl,
    });
  }

  /** The enabled bank apps; when payments cannot list them, the page says payment is unavailable. */
  private async methods(session: PageSession): Promise<PaymentMethodChoice[] | null> {
    try {
      return await this.payments.listMethods(session.environmentId);
    } catch (err) {
      this.logger.error({ err, checkoutSessionId: session.id }, 'payment methods unavailable');
      return null;
    }
  }

  private render(page: PageRequest, view: string, status: number, locals: Record<string, unknown>): void {
    renderHostedPage(this.views, page, view, status, locals);
  }
}
