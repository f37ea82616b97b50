import { Controller, Get, OnModuleInit, Param, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { isUUID } from 'class-validator';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Public } from '../auth/decorators';
import { AppError } from '../common/errors/app-error';
import { PageRequest, PageSurface } from '../common/http/pages';
import { Post } from '../common/http/routes';
import { PaymentError } from '../payments/payments.errors';
import { CheckoutError } from './checkout.errors';
import { CheckoutPayments } from './checkout-payments';
import { checkoutPageUrl, CheckoutPageRenderer } from './checkout-page.renderer';
import {
  cancelRedirect,
  CheckoutSessionsService,
  PageSession,
  successRedirect,
} from './checkout-sessions.service';
import { CheckoutSurface, checkoutTexts } from './hosted-page';
import { payFromHostedPage } from './hosted-pay-flow';

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
    private readonly checkoutSurface: CheckoutSurface,
  ) {}

  /** The CSRF key: the operator's, or the one every instance shares through the database. */
  async onModuleInit(): Promise<void> {
    this.surface = await this.checkoutSurface.make();
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
    const session = await this.find(page, id);
    if (!session) return;
    return payFromHostedPage(page, {
      id,
      knownPhone: session.phoneNumber,
      payable: session.status === 'open' && session.paymentStatus !== 'pending',
      closedCode: CheckoutError.NotOpen,
      show: async (status, reload) =>
        this.renderer.session(page, reload ? await this.sessions.forPage(id) : session, status),
      showForm: (status, form) => this.renderer.form(page, session, status, form),
      pay: (input) => this.payments.pay(session, input),
      completed: () => page.redirect(successRedirect(session) ?? checkoutPageUrl(id)),
      pending: () => this.renderer.pending(page, session, 200),
    });
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
    if (!page.csrfValid(id, (req.body as { _csrf?: unknown } | undefined)?._csrf)) {
      return this.renderer.form(page, session, 403, {
        phoneNumber: '',
        error: checkoutTexts(page).securityCheck,
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
    page.redirect(cancelRedirect(cancelled) ?? checkoutPageUrl(id));
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
