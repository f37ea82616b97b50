import { Controller, Get, OnModuleInit, Param, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { isUUID } from 'class-validator';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Public } from '../auth/decorators';
import { AppError } from '../common/errors/app-error';
import { CommonError } from '../common/errors/common-errors';
import { PageRequest, PageSurface } from '../common/http/pages';
import { Post } from '../common/http/routes';
import type { CheckoutTexts } from '../common/i18n/checkout-texts';
import { LANGUAGES } from '../common/i18n/languages';
import { normalizePhone } from '../common/validation/rules';
import { AppConfig } from '../config/config';
import { validIdempotencyKey } from '../idempotency/request-key';
import { ServerSecrets } from '../database/server-secrets.repository';
import { PaymentRequestError } from '../payment-requests/payment-requests.errors';
import { PaymentError } from '../payments/payments.errors';
import { InvoiceIdParams } from './dto/invoice.dto';
import { invoicePagePath } from './invoice';
import { InvoicePageRenderer } from './invoice-page.renderer';
import { InvoicePageService } from './invoice-page.service';
import { InvoiceError } from './invoices.errors';
import type { InvoicePageRow } from './invoices.repository';

interface PageForm {
  paymentMethodId?: unknown;
  phoneNumber?: unknown;
  passCode?: unknown;
  idempotencyKey?: unknown;
  _csrf?: unknown;
}

/** The form errors the page shows in the customer's language, by the error's code. */
const FORM_ERRORS: Partial<Record<string, keyof CheckoutTexts>> = {
  [PaymentError.BankFailure]: 'bankFailure',
  [PaymentError.PassCodeRequired]: 'passCodeRequired',
  [PaymentError.MethodNotFound]: 'chooseMethodError',
  [CommonError.InvalidPhoneNumber]: 'invalidPhone',
};

/** What the page's script polls while the bank has a payment: `open` while the invoice is pending. */
export interface InvoicePaymentStatus {
  status: 'open' | 'paid' | 'void' | 'refunded';
  paymentStatus: InvoicePageRow['paymentStatus'];
}

/**
 * An invoice's `checkoutUrl` (CONTRACT.md): a stable page, valid as long as the invoice is pending,
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
    private readonly config: AppConfig,
    private readonly secrets: ServerSecrets,
  ) {}

  /** The hosted checkout's surface and CSRF key (the operator's, or the one instances share). */
  async onModuleInit(): Promise<void> {
    this.surface = {
      path: '/checkout',
      languages: LANGUAGES,
      languageCookie: 'khoums_lang',
      csrfSecret: this.config.CHECKOUT_CSRF_SECRET ?? (await this.secrets.get('checkout-csrf')),
      secure: this.config.publicUrl.startsWith('https:'),
    };
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
    const t = this.renderer.texts(page);
    const form = (req.body ?? {}) as PageForm;
    const invoice = await this.find(page, id);
    if (!invoice) return;
    if (invoice.status !== 'pending' || invoice.paymentStatus === 'pending')
      return this.renderer.invoice(page, invoice, 409);
    const phoneInput = typeof form.phoneNumber === 'string' ? form.phoneNumber : '';
    const methodId = typeof form.paymentMethodId === 'string' ? form.paymentMethodId : '';
    const again = (status: number, error: string) =>
      this.renderer.form(page, invoice, status, { phoneNumber: phoneInput, methodId, error });

    if (!page.csrfValid(id, form._csrf)) return again(403, t.securityCheck);
    if (!isUUID(methodId)) return again(400, t.chooseMethodError);
    const phoneNumber = normalizePhone(phoneInput);
    if (!phoneNumber) return again(400, t.invalidPhone);
    const passCode = typeof form.passCode === 'string' ? form.passCode.trim() : '';
    // A form without a valid key (tampered with) pays without one.
    const idempotencyKey = validIdempotencyKey(form.idempotencyKey) ? form.idempotencyKey : undefined;

    let result;
    try {
      result = await this.service.pay(invoice, {
        paymentMethodId: methodId,
        phoneNumber,
        passCode,
        ...(idempotencyKey === undefined ? {} : { idempotencyKey }),
      });
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      // Paid or voided meanwhile, or a payment already with the bank: show what it is now.
      if (AppError.is(err, PaymentRequestError.AlreadyPaid, PaymentError.InProgress, InvoiceError.NotPending))
        return this.renderer.invoice(page, await this.service.forPage(id), 409);
      for (const [name, value] of Object.entries(err.headers)) void reply.header(name, value);
      const text = FORM_ERRORS[err.code];
      return again(err.status, text ? t[text] : err.message);
    }
    switch (result.status) {
      case 'completed':
        return page.redirect(invoicePagePath(id));
      case 'pending':
        return this.renderer.pending(page, invoice, 200);
      case 'failed':
        return again(502, t.bankFailure);
    }
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
