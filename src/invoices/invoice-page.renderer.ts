import { Injectable, Logger } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { PageRequest } from '../common/http/pages';
import { Views } from '../common/http/views';
import { CHECKOUT_TEXTS, CheckoutTexts } from '../common/i18n/checkout-texts';
import { direction, formatDate, formatMru, LANGUAGES } from '../common/i18n/languages';
import { invoicePagePath } from './invoice';
import { InvoicePageService, PaymentMethodChoice } from './invoice-page.service';
import type { InvoicePageRow } from './invoices.repository';

/** The form as the customer filled it, with what went wrong. */
export interface InvoiceFormState {
  phoneNumber: string;
  methodId?: string;
  error?: string;
}

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
  ) {}

  texts(page: PageRequest): CheckoutTexts {
    return CHECKOUT_TEXTS[page.lang];
  }

  /** Whatever the invoice is now: paid, void, refunded, waiting for the bank, or the form. */
  async invoice(page: PageRequest, invoice: InvoicePageRow, status: number): Promise<void> {
    const t = this.texts(page);
    switch (invoice.status) {
      case 'paid':
        return this.closed(page, invoice, status, t.invoicePaidTitle, t.invoicePaidBody, true);
      case 'void':
        return this.closed(page, invoice, status, t.invoiceVoidTitle, t.invoiceVoidBody, false);
      case 'refunded':
        return this.closed(page, invoice, status, t.invoiceRefundedTitle, t.invoiceRefundedBody, false);
      case 'pending':
        if (invoice.paymentStatus === 'pending') return this.pending(page, invoice, status);
        // The last attempt failed (e.g. a pending payment the bank then refused): say so with the form.
        return this.form(page, invoice, status, {
          phoneNumber: invoice.phoneNumber ?? '',
          error: invoice.paymentStatus === 'failed' ? t.bankFailure : undefined,
        });
    }
  }

  /** The bank has the payment: the script polls the status route; the link reloads without it. */
  pending(page: PageRequest, invoice: InvoicePageRow, status: number): void {
    const t = this.texts(page);
    this.render(page, 'checkout/pending', status, {
      pageTitle: t.pendingTitle,
      merchantName: invoice.merchantName,
      amountText: formatMru(invoice.amount, page.lang),
      statusUrl: `${invoicePagePath(invoice.id)}/status`,
      pageUrl: invoicePagePath(invoice.id),
    });
  }

  async form(
    page: PageRequest,
    invoice: InvoicePageRow,
    status: number,
    input: InvoiceFormState,
  ): Promise<void> {
    const t = this.texts(page);
    const methods = await this.methods(invoice);
    const amountText = formatMru(invoice.amount, page.lang);
    this.render(page, 'checkout/invoice', status, {
      ...this.summary(page, invoice),
      pageTitle: `${t.invoiceTitle} · ${invoice.merchantName}`,
      state: 'pending',
      heading: t.invoiceTitle,
      payable: true,
      testMode: invoice.environment === 'sandbox',
      methods: methods?.map((m, i) => ({
        ...m,
        checked: input.methodId ? m.id === input.methodId : i === 0,
      })),
      phoneNumber: input.phoneNumber,
      error: input.error,
      payLabel: t.pay.replace('{amount}', amountText),
      payAction: `${invoicePagePath(invoice.id)}/pay`,
      csrf: page.csrfToken(invoice.id),
      // One key per rendered form: submitting it twice (a double click, a reload) pays once.
      idempotencyKey: randomBytes(18).toString('base64url'),
    });
  }

  notFound(page: PageRequest): void {
    const t = this.texts(page);
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
    const t = this.texts(page);
    return {
      merchantName: invoice.merchantName,
      productName: invoice.productName,
      periodText: t.periodRange
        .replace('{start}', formatDate(invoice.periodStart, page.lang))
        .replace('{end}', formatDate(invoice.periodEnd, page.lang)),
      amountText: formatMru(invoice.amount, page.lang),
      transactionId: invoice.transactionId,
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
    const path = page.req.url.split('?')[0].replace(/\/pay\/?$/, '');
    const html = this.views.render(
      view,
      {
        ...locals,
        lang: page.lang,
        dir: direction(page.lang),
        t: this.texts(page),
        nonce: page.nonce,
        languages: LANGUAGES.map((code) => ({
          code,
          name: CHECKOUT_TEXTS[code].languageName,
          href: `${path}?lang=${code}`,
          current: code === page.lang,
        })),
      },
      'layouts/checkout',
    );
    page.send(status, html);
  }
}
