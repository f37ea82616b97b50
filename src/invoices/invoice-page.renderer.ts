import { Injectable, Logger } from '@nestjs/common';
import { PageRequest } from '../common/http/pages';
import { Views } from '../common/http/views';
import { formatDate, formatMru } from '../common/i18n/languages';
import type { PaymentMethodChoice } from '../checkout/checkout-payments';
import { checkoutTexts, FormState, payFormLocals, renderHostedPage } from '../checkout/hosted-page';
import { failedAttemptText, HostedTransfers, pendingTransferLocals } from '../checkout/hosted-transfer';
import { customerPortalPath, invoicePagePath } from './invoice';
import { InvoicePageService } from './invoice-page.service';
import type { InvoicePageRow } from './invoices.repository';

/**
 * Renders an invoice's page in the hosted checkout's look (views/checkout/invoice.hbs in
 * layouts/checkout, the checkout's texts): the merchant, product, period and amount, with the
 * payment form while the invoice is pending, or what it is now.
 */
@Injectable()
export class InvoicePageRenderer {
  private readonly logger = new Logger(InvoicePageRenderer.name);

  constructor(
    private readonly views: Views,
    private readonly service: InvoicePageService,
    private readonly transfers: HostedTransfers,
  ) {}

  /** Whatever the invoice is now: paid, void, refunded, waiting for the bank, or the form. */
  async invoice(page: PageRequest, invoice: InvoicePageRow, status: number): Promise<void> {
    const t = checkoutTexts(page);
    switch (invoice.status) {
      case 'paid':
        return this.closed(page, invoice, status, t.invoicePaidTitle, t.invoicePaidBody, true);
      case 'void':
        return this.closed(page, invoice, status, t.invoiceVoidTitle, t.invoiceVoidBody, false);
      case 'refunded':
        return this.closed(page, invoice, status, t.invoiceRefundedTitle, t.invoiceRefundedBody, false);
      case 'pending':
        if (invoice.paymentStatus === 'pending') return this.pending(page, invoice, status);
        // The last attempt failed (e.g. a pending payment the bank then refused, a transfer's claim
        // that ran out): say so with the form. The customer's number is shown masked beside an empty
        // field, never in it (docs/checkout.md).
        return this.form(page, invoice, status, {
          phoneNumber: '',
          error:
            invoice.paymentStatus === 'failed'
              ? failedAttemptText(
                  page,
                  await this.transfers.latestOf(invoice.environmentId, invoice.paymentRequestId),
                )
              : undefined,
        });
    }
  }

  /**
   * The bank has the payment: the script polls the status route; the page reloads itself without
   * it. A transfer payment shows what to send, where, and until when.
   */
  async pending(page: PageRequest, invoice: InvoicePageRow, status: number): Promise<void> {
    const t = checkoutTexts(page);
    const transfer = await this.transfers.latestOf(invoice.environmentId, invoice.paymentRequestId);
    if (transfer?.status === 'pending')
      return this.render(page, 'checkout/transfer', status, {
        merchantName: invoice.merchantName,
        ...pendingTransferLocals(
          page,
          transfer,
          invoicePagePath(invoice.id),
          `${invoicePagePath(invoice.id)}/status`,
        ),
      });
    this.render(page, 'checkout/pending', status, {
      pageTitle: t.pendingTitle,
      merchantName: invoice.merchantName,
      amountText: formatMru(invoice.amount, page.lang),
      statusUrl: `${invoicePagePath(invoice.id)}/status`,
      pageUrl: invoicePagePath(invoice.id),
      // Without JavaScript nothing polls: the page reloads itself every 5 s (it says it updates).
      refreshUrl: invoicePagePath(invoice.id),
    });
  }

  async form(page: PageRequest, invoice: InvoicePageRow, status: number, input: FormState): Promise<void> {
    const t = checkoutTexts(page);
    const methods = await this.methods(invoice);
    const amountText = formatMru(invoice.amount, page.lang);
    this.render(page, 'checkout/invoice', status, {
      ...this.summary(page, invoice),
      pageTitle: `${t.invoiceTitle} · ${invoice.merchantName}`,
      state: 'pending',
      heading: t.invoiceTitle,
      payable: true,
      testMode: invoice.environment === 'sandbox',
      ...payFormLocals(page, invoice.id, methods, input, invoice.phoneNumber),
      payLabel: t.pay.replace('{amount}', amountText),
      payAction: `${invoicePagePath(invoice.id)}/pay`,
    });
  }

  notFound(page: PageRequest): void {
    const t = checkoutTexts(page);
    this.render(page, 'checkout/state', 404, {
      pageTitle: t.notFoundTitle,
      state: 'not-found',
      heading: t.notFoundTitle,
      message: t.invoiceNotFoundBody,
    });
  }

  private closed(
    page: PageRequest,
    invoice: InvoicePageRow,
    status: number,
    heading: string,
    message: string,
    ok: boolean,
  ): void {
    this.render(page, 'checkout/invoice', status, {
      ...this.summary(page, invoice),
      pageTitle: heading,
      state: invoice.status,
      heading,
      message,
      ok,
    });
  }

  private summary(page: PageRequest, invoice: InvoicePageRow) {
    const t = checkoutTexts(page);
    return {
      merchantName: invoice.merchantName,
      productName: invoice.productName,
      periodText: t.periodRange
        .replace('{start}', formatDate(invoice.periodStart, page.lang))
        .replace('{end}', formatDate(invoice.periodEnd, page.lang)),
      amountText: formatMru(invoice.amount, page.lang),
      transactionId: invoice.transactionId,
      number: invoice.number,
      // The PDF in the page's language, on the page's own public route (whoever has the page's URL).
      pdfHref: `${invoicePagePath(invoice.id)}/pdf?lang=${page.lang}`,
      portalHref: customerPortalPath(invoice.organizationId, invoice.environment),
    };
  }

  /** The enabled bank apps; when payments cannot list them, the page says payment is unavailable. */
  private async methods(invoice: InvoicePageRow): Promise<PaymentMethodChoice[] | null> {
    try {
      return await this.service.listMethods(invoice.environmentId);
    } catch (err) {
      this.logger.error({ err, invoiceId: invoice.id }, 'payment methods unavailable');
      return null;
    }
  }

  private render(page: PageRequest, view: string, status: number, locals: Record<string, unknown>): void {
    renderHostedPage(this.views, page, view, status, locals);
  }
}
