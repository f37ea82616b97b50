import { Get, Param } from '@nestjs/common';
import { isUUID } from 'class-validator';
import { AppError } from '../common/errors/app-error';
import { PageRequest } from '../common/http/pages';
import { Post } from '../common/http/routes';
import { PageCtx } from '../common/pages/pages.decorator';
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
import { CheckoutSurface, checkoutTexts, HostedPageRequest, HostedPages, param } from './hosted-page';
import { payFromHostedPage } from './hosted-pay-flow';

/**
 * The hosted payment page at {checkout_url}: server-rendered, usable without JavaScript (plain
 * form posts with a CSRF token, checked by the page kit's guard), in French, Arabic or English.
 * Errors here are pages, not the API's plain-text bodies.
 */
@HostedPages('checkout')
export class CheckoutPageController {
  constructor(
    private readonly sessions: CheckoutSessionsService,
    private readonly payments: CheckoutPayments,
    private readonly renderer: CheckoutPageRenderer,
    surface: CheckoutSurface,
  ) {
    surface.whenTokenRefused('/checkout/:id/pay', (ctx) => this.payPage(ctx, param(ctx, 'id'), true));
    surface.whenTokenRefused('/checkout/:id/cancel', (ctx) => this.cancelPage(ctx, param(ctx, 'id'), true));
  }

  @Get(':id')
  async show(@PageCtx() ctx: HostedPageRequest, @Param('id') id: string): Promise<void> {
    const { page } = ctx;
    const session = await this.find(page, id);
    if (session) await this.renderer.session(page, session, 200);
  }

  @Post(':id/pay')
  pay(@PageCtx() ctx: HostedPageRequest, @Param('id') id: string): Promise<void> {
    return this.payPage(ctx, id, false);
  }

  /** The route's work; `tokenRefused`: the guard refused the form's token (its refusal drawn here). */
  private async payPage(ctx: HostedPageRequest, id: string, tokenRefused: boolean): Promise<void> {
    const { page } = ctx;
    const session = await this.find(page, id);
    if (!session) return;
    return payFromHostedPage(
      page,
      {
        knownPhone: session.phoneNumber,
        payable: session.status === 'open' && session.paymentStatus !== 'pending',
        closedCode: CheckoutError.NotOpen,
        show: async (status, reload) =>
          this.renderer.session(page, reload ? await this.sessions.forPage(id) : session, status),
        showForm: (status, form) => this.renderer.form(page, session, status, form),
        pay: (input) => this.payments.pay(session, input),
        completed: () => page.redirect(successRedirect(session) ?? checkoutPageUrl(id)),
        pending: () => this.renderer.pending(page, session, 200),
      },
      tokenRefused,
    );
  }

  @Post(':id/cancel')
  cancel(@PageCtx() ctx: HostedPageRequest, @Param('id') id: string): Promise<void> {
    return this.cancelPage(ctx, id, false);
  }

  /** The route's work; `tokenRefused`: the guard refused the form's token (its refusal drawn here). */
  private async cancelPage(ctx: HostedPageRequest, id: string, tokenRefused: boolean): Promise<void> {
    const { page } = ctx;
    const session = await this.find(page, id);
    if (!session) return;
    if (session.status !== 'open' || session.paymentStatus === 'pending')
      return this.renderer.session(page, session, 409);
    if (tokenRefused)
      return this.renderer.form(page, session, 403, {
        phoneNumber: '',
        error: checkoutTexts(page).securityCheck,
      });
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
