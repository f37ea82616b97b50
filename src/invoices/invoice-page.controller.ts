import { Controller, Get, OnModuleInit, Param, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { isUUID } from 'class-validator';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Public } from '../auth/decorators';
import { CheckoutSurface } from '../checkout/hosted-page';
import { payFromHostedPage } from '../checkout/hosted-pay-flow';
import { AppError } from '../common/errors/app-error';
import { PageRequest, PageSurface } from '../common/http/pages';
import { Post } from '../common/http/routes';
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
@ApiExcludeController()
@Public()
@Controller('checkout/invoices')
export class InvoicePageController implements OnModuleInit {
  private surface!: PageSurface;

  constructor(
    private readonly service: InvoicePageService,
    private readonly renderer: InvoicePageRenderer,
    private readonly checkoutSurface: CheckoutSurface,
  ) {}

  /** The hosted checkout's surface and CSRF key (the operator's, or the one instances share). */
  async onModuleInit(): Promise<void> {
    this.surface = await this.checkoutSurface.make();
  }

  @Get(':id')
  async show(@Param('id') id: string, @Req() req: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const page = new PageRequest(this.surface, req, reply);
    const invoice = await this.find(page, id);
    if (invoice) await this.renderer.invoice(page, invoice, 200);
  }

  /** For the pending page's polling: nothing but the two statuses. */
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

  @Post(':id/pay')
  async pay(@Param('id') id: string, @Req() req: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const page = new PageRequest(this.surface, req, reply);
    const invoice = await this.find(page, id);
    if (!invoice) return;
    return payFromHostedPage(page, {
      id,
      knownPhone: invoice.phoneNumber,
      payable: invoice.status === 'pending' && invoice.paymentStatus !== 'pending',
      closedCode: InvoiceError.NotPending,
      show: async (status, reload) =>
        this.renderer.invoice(page, reload ? await this.service.forPage(id) : invoice, status),
      showForm: (status, form) => this.renderer.form(page, invoice, status, form),
      pay: (input) => this.service.pay(invoice, input),
      completed: () => page.redirect(invoicePagePath(id)),
      pending: () => this.renderer.pending(page, invoice, 200),
    });
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
