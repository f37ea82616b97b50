import { Controller, Get, OnModuleInit, Param, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { isUUID } from 'class-validator';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Public } from '../auth/decorators';
import { AppError } from '../common/errors/app-error';
import { CommonError } from '../common/errors/common-errors';
import { PageRequest, PageSurface } from '../common/http/pages';
import { Post } from '../common/http/routes';
import { CheckoutTexts } from '../common/i18n/checkout-texts';
import { LANGUAGES } from '../common/i18n/languages';
import { normalizePhone } from '../common/validation/rules';
import { AppConfig } from '../config/config';
import { ServerSecrets } from '../database/server-secrets.repository';
import { validIdempotencyKey } from '../idempotency/request-key';
import { PaymentRequestError } from '../payment-requests/payment-requests.errors';
import { PaymentError } from '../payments/payments.errors';
import { CheckoutError } from './checkout.errors';
import { CheckoutPayments } from './checkout-payments';
import { checkoutPageUrl, CheckoutPageRenderer } from './checkout-page.renderer';
import { CheckoutSessionsService, PageSession, successRedirect } from './checkout-sessions.service';

interface PageForm {
  paymentMethodId?: unknown;
  phoneNumber?: unknown;
  passCode?: unknown;
  _csrf?: unknown;
  /** The rendered form's own key (a hidden field): a resubmission is the same attempt. */
  idempotencyKey?: unknown;
}

/** The form errors the page shows in the customer's language, by the error's code. */
const FORM_ERRORS: Partial<Record<string, keyof CheckoutTexts>> = {
  [PaymentError.BankFailure]: 'bankFailure',
  [PaymentError.PassCodeRequired]: 'passCodeRequired',
  [PaymentError.MethodNotFound]: 'chooseMethodError',
  [PaymentError.TooManyAttempts]: 'tooManyAttempts',
  [CommonError.InvalidPhoneNumber]: 'invalidPhone',
};

/**
 * The hosted payment page at {checkout_url}: server-rendered, usable without JavaScript (plain
 * form posts with a CSRF token), in French, Arabic or English. Errors here are pages, not the
 * API's plain-text bodies.
 */
@ApiExcludeController()
@Public()
@Controller('checkout')
export class CheckoutPageController implements OnModuleInit {
  private surface!: PageSurface;

  constructor(
    private readonly sessions: CheckoutSessionsService,
    private readonly payments: CheckoutPayments,
    private readonly renderer: CheckoutPageRenderer,
    private readonly config: AppConfig,
    private readonly secrets: ServerSecrets,
  ) {}

  /** The CSRF key: the operator's, or the one every instance shares through the database. */
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
    const session = await this.find(page, id);
    if (session) await this.renderer.session(page, session, 200);
  }

  @Post(':id/pay')
  async pay(@Param('id') id: string, @Req() req: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const page = new PageRequest(this.surface, req, reply);
    const t = this.renderer.texts(page);
    const form = (req.body ?? {}) as PageForm;
    const session = await this.find(page, id);
    if (!session) return;
    if (session.status !== 'open' || session.paymentStatus === 'pending')
      return this.renderer.session(page, session, 409);
    const phoneInput = typeof form.phoneNumber === 'string' ? form.phoneNumber : '';
    const methodId = typeof form.paymentMethodId === 'string' ? form.paymentMethodId : '';
    const again = (status: number, error: string) =>
      this.renderer.form(page, session, status, { phoneNumber: phoneInput, methodId, error });

    if (!page.csrfValid(id, form._csrf)) return again(403, t.securityCheck);
    if (!isUUID(methodId)) return again(400, t.chooseMethodError);
    const phoneNumber = normalizePhone(phoneInput);
    if (!phoneNumber) return again(400, t.invalidPhone);
    const passCode = typeof form.passCode === 'string' ? form.passCode.trim() : '';
    // A form without a valid key (rendered before keys existed, or tampered with) pays without one.
    const idempotencyKey = validIdempotencyKey(form.idempotencyKey) ? form.idempotencyKey : undefined;

    let result;
    try {
      result = await this.payments.pay(session, {
        paymentMethodId: methodId,
        phoneNumber,
        passCode,
        ...(idempotencyKey === undefined ? {} : { idempotencyKey }),
      });
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      // Paid, expired or cancelled meanwhile, or a payment already with the bank: show what it is now.
      if (AppError.is(err, PaymentRequestError.AlreadyPaid, PaymentError.InProgress, CheckoutError.NotOpen))
        return this.renderer.session(page, await this.sessions.forPage(id), 409);
      for (const [name, value] of Object.entries(err.headers)) void reply.header(name, value);
      const text = FORM_ERRORS[err.code];
      return again(err.status, text ? t[text] : err.message);
    }
    switch (result.status) {
      case 'completed':
        return page.redirect(successRedirect(session) ?? checkoutPageUrl(id));
      case 'pending':
        return this.renderer.pending(page, session, 200);
      case 'failed':
        return again(502, t.bankFailure);
    }
  }

  @Post(':id/cancel')
  async cancel(
    @Param('id') id: string,
    @Req() req: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const page = new PageRequest(this.surface, req, reply);
    const session = await this.find(page, id);
    if (!session) return;
    if (session.status !== 'open' || session.paymentStatus === 'pending')
      return this.renderer.session(page, session, 409);
    if (!page.csrfValid(id, (req.body as PageForm | undefined)?._csrf)) {
      return this.renderer.form(page, session, 403, {
        phoneNumber: session.phoneNumber ?? '',
        error: this.renderer.texts(page).securityCheck,
      });
    }
    let cancelled: PageSession;
    try {
      cancelled = await this.sessions.cancel(id);
    } catch (err) {
      if (AppError.is(err, CheckoutError.NotOpen, PaymentError.InProgress))
        return this.renderer.session(page, await this.sessions.forPage(id), 409);
      throw err;
    }
    page.redirect(cancelled.cancelUrl ?? checkoutPageUrl(id));
  }

  /** The session, or a rendered 404 page (also for ids that are not UUIDs). */
  private async find(page: PageRequest, id: string): Promise<PageSession | undefined> {
    if (isUUID(id)) {
      try {
        return await this.sessions.forPage(id);
      } catch (err) {
        if (!AppError.is(err, CheckoutError.NotFound)) throw err;
      }
    }
    this.renderer.notFound(page);
    return undefined;
  }
}
