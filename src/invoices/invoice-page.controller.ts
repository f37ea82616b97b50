import { Controller, Get, Param } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { isUUID } from 'class-validator';
import { Public } from '../auth/decorators';
import { CheckoutSurface, HostedPageRequest, HostedPages, param } from '../checkout/hosted-page';
import { payFromHostedPage } from '../checkout/hosted-pay-flow';
import { AppError } from '../common/errors/app-error';
import { PageRequest } from '../common/http/pages';
import { Post } from '../common/http/routes';
import { PageCtx } from '../common/pages/pages.decorator';
import { InvoiceIdParams } from './dto/invoice.dto';
import { invoicePagePath } from './invoice';
import { InvoicePageRenderer } from './invoice-page.renderer';
import { InvoicePageService } from './invoice-page.service';
import { InvoiceError } from './invoices.errors';
import type { InvoicePageRow } from './invoices.repository';

/** What the page's script polls while the bank has a payment: `open` while the invoice is pending. */
export interface InvoicePaymentStatus {
  status: 'open' | 'paid' | 'void' | 'refunded';
  paymentStatus: InvoicePageRow['paymentStatus'];
}

/**
 * An invoice's `checkoutUrl` (docs/billing.md): a stable page, valid as long as the invoice is pending,
 * that shows the merchant, product, period and amount and pays the invoice's payment request, in
 * French, Arabic or English, with or without JavaScript; once the invoice is paid or void it says
 * so instead. It lives on the hosted checkout's surface (cookies on /checkout) and in its look.
 */
@HostedPages('checkout/invoices')
export class InvoicePageController {
  constructor(
    private readonly service: InvoicePageService,
    private readonly renderer: InvoicePageRenderer,
    surface: CheckoutSurface,
  ) {
    surface.whenTokenRefused('/checkout/invoices/:id/pay', (ctx) =>
      this.payPage(ctx, param(ctx, 'id'), true),
    );
  }

  @Get(':id')
  async show(@PageCtx() ctx: HostedPageRequest, @Param('id') id: string): Promise<void> {
    const { page } = ctx;
    const invoice = await this.find(page, id);
    if (invoice) await this.renderer.invoice(page, invoice, 200);
  }

  /**
   * The invoice as a PDF in the page's language (`?lang=fr|ar|en`, else the page's choice), as
   * `GET /invoices/:id/pdf` gives it, but public like the page (whoever has the page's URL): the
   * customer as the page shows them (the phone masked, no external id). Also an invoice of 0 (no
   * payment request, so no page to pay). An unknown id is the page's 404.
   */
  @Get(':id/pdf')
  async pdf(@PageCtx() ctx: HostedPageRequest, @Param('id') id: string): Promise<void> {
    const { page } = ctx;
    let pdf: { number: string; body: Buffer } | undefined;
    if (isUUID(id)) {
      try {
        pdf = await this.service.pdf(id, page.lang);
      } catch (err) {
        if (!AppError.is(err, InvoiceError.NotFound)) throw err;
      }
    }
    if (!pdf) return this.renderer.notFound(page);
    void page.reply
      .status(200)
      .headers({
        'content-type': 'application/pdf',
        'content-disposition': `inline; filename="${pdf.number}.pdf"`,
        'cache-control': 'no-store',
        'x-content-type-options': 'nosniff',
      })
      .send(pdf.body);
  }

  @Post(':id/pay')
  pay(@PageCtx() ctx: HostedPageRequest, @Param('id') id: string): Promise<void> {
    return this.payPage(ctx, id, false);
  }

  /** The route's work; `tokenRefused`: the guard refused the form's token (its refusal drawn here). */
  private async payPage(ctx: HostedPageRequest, id: string, tokenRefused: boolean): Promise<void> {
    const { page } = ctx;
    const invoice = await this.find(page, id);
    if (!invoice) return;
    return payFromHostedPage(
      page,
      {
        knownPhone: invoice.phoneNumber,
        payable: invoice.status === 'pending' && invoice.paymentStatus !== 'pending',
        closedCode: InvoiceError.NotPending,
        show: async (status, reload) =>
          this.renderer.invoice(page, reload ? await this.service.forPage(id) : invoice, status),
        showForm: (status, form) => this.renderer.form(page, invoice, status, form),
        pay: (input) => this.service.pay(invoice, input),
        completed: () => page.redirect(invoicePagePath(id)),
        pending: () => this.renderer.pending(page, invoice, 200),
      },
      tokenRefused,
    );
  }

  /** The invoice, or a rendered 404 page (also for ids that are not UUIDs). */
  private async find(page: PageRequest, id: string): Promise<InvoicePageRow | undefined> {
    if (isUUID(id)) {
      try {
        return await this.service.forPage(id);
      } catch (err) {
        if (!AppError.is(err, InvoiceError.NotFound)) throw err;
      }
    }
    this.renderer.notFound(page);
    return undefined;
  }
}

/** For the invoice page's polling while the bank has a payment: no page, nothing but the two statuses. */
@ApiExcludeController()
@Public()
@Controller('checkout/invoices')
export class InvoicePaymentStatusController {
  constructor(private readonly service: InvoicePageService) {}

  @Get(':id/status')
  async status(@Param() p: InvoiceIdParams): Promise<{ data: InvoicePaymentStatus }> {
    const invoice = await this.service.forPage(p.id);
    return {
      data: {
        status: invoice.status === 'pending' ? 'open' : invoice.status,
        paymentStatus: invoice.paymentStatus,
      },
    };
  }
}
