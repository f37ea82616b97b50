import { Controller, Get, Logger, Param, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { isUUID } from 'class-validator';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { randomBytes } from 'node:crypto';
import { Public } from '../auth/decorators';
import { AppError } from '../common/errors/app-error';
import { Messages } from '../common/errors/messages';
import { CookieOptions, parseCookies, serializeCookie } from '../common/http/cookies';
import { API, Post } from '../common/http/routes';
import { Views } from '../common/http/views';
import { normalizePhone } from '../common/validation/rules';
import { AppConfig } from '../config/config';
import { CheckoutPayments, PaymentMethodChoice } from './checkout-payments';
import { CheckoutSessionsService, PageSession, successRedirect } from './checkout-sessions.service';
import { CSRF_COOKIE, csrfToken, newCsrfCookieValue, validCsrfToken } from './csrf';
import { chooseLanguage, DICTIONARIES, Dictionary, direction, formatMru, Language, LANGUAGES } from './i18n';

const LANG_COOKIE = 'khoums_lang';
/** @fastify/cookie's maxAge is in seconds. */
const YEAR_S = 365 * 24 * 3600;

interface PageContext {
  req: FastifyRequest;
  reply: FastifyReply;
  cookies: Record<string, string>;
  lang: Language;
  t: Dictionary;
  nonce: string;
}

interface PayForm {
  paymentMethodId?: unknown;
  phoneNumber?: unknown;
  passCode?: unknown;
  _csrf?: unknown;
}

/**
 * The hosted payment page at {checkout_url}: server-rendered, usable without JavaScript (plain
 * form posts with a CSRF token), in French, Arabic or English. Errors here are pages, not the
 * API's plain-text bodies, so this controller renders them itself.
 */
@ApiExcludeController()
@Public()
@Controller('checkout')
export class CheckoutPageController {
  private readonly logger = new Logger(CheckoutPageController.name);
  private readonly csrfSecret: string;

  constructor(
    private readonly sessions: CheckoutSessionsService,
    private readonly payments: CheckoutPayments,
    private readonly config: AppConfig,
    private readonly views: Views,
  ) {
    this.csrfSecret = config.CHECKOUT_CSRF_SECRET ?? randomBytes(32).toString('hex');
  }

  @Get(':id')
  async show(@Param('id') id: string, @Req() req: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const ctx = this.context(req, reply);
    const session = await this.find(ctx, id);
    if (!session) return;
    return this.renderSession(ctx, session, 200);
  }

  @Post(':id/pay')
  async pay(@Param('id') id: string, @Req() req: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const ctx = this.context(req, reply);
    const form = (req.body ?? {}) as PayForm;
    const session = await this.find(ctx, id);
    if (!session) return;
    if (session.status !== 'open' || session.paymentStatus === 'pending')
      return this.renderSession(ctx, session, 409);
    const phoneInput = typeof form.phoneNumber === 'string' ? form.phoneNumber : '';
    const methodId = typeof form.paymentMethodId === 'string' ? form.paymentMethodId : '';
    const again = (status: number, error: string) =>
      this.renderForm(ctx, session, status, { phoneNumber: phoneInput, methodId, error });

    if (!this.csrfOk(ctx, id, form._csrf)) return again(403, ctx.t.securityCheck);
    if (!isUUID(methodId)) return again(400, ctx.t.chooseMethodError);
    const phoneNumber = normalizePhone(phoneInput);
    if (!phoneNumber) return again(400, ctx.t.invalidPhone);
    const passCode = typeof form.passCode === 'string' ? form.passCode.trim() : '';

    let result;
    try {
      result = await this.payments.pay(session, { paymentMethodId: methodId, phoneNumber, passCode });
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      // Paid, expired or cancelled meanwhile, or a payment already with the bank: show what it is now.
      if (err.status === 409) return this.renderSession(ctx, await this.sessions.forPage(id), 409);
      return again(err.status, this.translate(ctx.t, err.message));
    }
    switch (result.status) {
      case 'completed':
        return this.redirect(reply, successRedirect(session) ?? this.pageUrl(id));
      case 'pending':
        return this.renderPending(ctx, session, 200);
      case 'failed':
        return again(502, ctx.t.bankFailure);
    }
  }

  @Post(':id/cancel')
  async cancel(
    @Param('id') id: string,
    @Req() req: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const ctx = this.context(req, reply);
    const session = await this.find(ctx, id);
    if (!session) return;
    if (session.status !== 'open' || session.paymentStatus === 'pending')
      return this.renderSession(ctx, session, 409);
    if (!this.csrfOk(ctx, id, (req.body as PayForm | undefined)?._csrf)) {
      return this.renderForm(ctx, session, 403, {
        phoneNumber: session.phoneNumber ?? '',
        error: ctx.t.securityCheck,
      });
    }
    let cancelled: PageSession;
    try {
      cancelled = await this.sessions.cancel(id);
    } catch (err) {
      if (err instanceof AppError && err.status === 409)
        return this.renderSession(ctx, await this.sessions.forPage(id), 409);
      throw err;
    }
    this.redirect(reply, cancelled.cancelUrl ?? this.pageUrl(id));
  }

  /** The session, or a rendered 404 page (also for ids that are not UUIDs). */
  private async find(ctx: PageContext, id: string): Promise<PageSession | undefined> {
    if (isUUID(id)) {
      try {
        return await this.sessions.forPage(id);
      } catch (err) {
        if (!(err instanceof AppError && err.status === 404)) throw err;
      }
    }
    this.render(ctx, 'checkout/state', 404, {
      pageTitle: ctx.t.notFoundTitle,
      state: 'not-found',
      heading: ctx.t.notFoundTitle,
      message: ctx.t.notFoundBody,
    });
    return undefined;
  }

  /** Whatever the session is now: closed, waiting for the bank, or the form. */
  private async renderSession(ctx: PageContext, session: PageSession, status: number): Promise<void> {
    if (session.status !== 'open') return this.renderClosed(ctx, session, status);
    if (session.paymentStatus === 'pending') return this.renderPending(ctx, session, status);
    // The last attempt failed (e.g. a pending payment the bank then refused, seen after polling):
    // say so, and offer the form again to retry or choose another bank app.
    const error = session.paymentStatus === 'failed' ? ctx.t.bankFailure : undefined;
    return this.renderForm(ctx, session, status, { phoneNumber: session.phoneNumber ?? '', error });
  }

  /** The bank has the payment: no form, no cancel; the script polls the status route, the link reloads without it. */
  private renderPending(ctx: PageContext, session: PageSession, status: number): void {
    this.render(ctx, 'checkout/pending', status, {
      pageTitle: ctx.t.pendingTitle,
      merchantName: session.merchantName,
      amountText: formatMru(session.amount, ctx.lang),
      statusUrl: `/${API}/checkout-session/public/${session.id}/payment-status`,
      pageUrl: this.pageUrl(session.id),
    });
  }

  private async renderForm(
    ctx: PageContext,
    session: PageSession,
    status: number,
    input: { phoneNumber: string; methodId?: string; error?: string },
  ): Promise<void> {
    const methods = await this.methods(session);
    const amountText = formatMru(session.amount, ctx.lang);
    this.render(ctx, 'checkout/open', status, {
      pageTitle: `${ctx.t.title} · ${session.merchantName}`,
      merchantName: session.merchantName,
      amountText,
      transactionId: session.transactionId,
      testMode: session.environment === 'sandbox',
      methods: methods?.map((m, i) => ({
        ...m,
        checked: input.methodId ? m.id === input.methodId : i === 0,
      })),
      phoneNumber: input.phoneNumber,
      error: input.error,
      payLabel: ctx.t.pay.replace('{amount}', amountText),
      payAction: `/checkout/${session.id}/pay`,
      cancelAction: `/checkout/${session.id}/cancel`,
      csrf: this.csrfFor(ctx, session.id),
    });
  }

  private renderClosed(ctx: PageContext, session: PageSession, status: number): void {
    switch (session.status) {
      case 'completed':
        return this.render(ctx, 'checkout/receipt', status, {
          pageTitle: ctx.t.completedTitle,
          merchantName: session.merchantName,
          amountText: formatMru(session.amount, ctx.lang),
          transactionId: session.transactionId,
          merchantUrl: successRedirect(session),
        });
      case 'cancelled':
        return this.renderState(
          ctx,
          session,
          status,
          ctx.t.cancelledTitle,
          ctx.t.cancelledBody,
          session.cancelUrl,
        );
      case 'expired':
        return this.renderState(
          ctx,
          session,
          status,
          ctx.t.expiredTitle,
          ctx.t.expiredBody,
          session.cancelUrl,
        );
      case 'open':
        return this.renderState(ctx, session, status, ctx.t.title, ctx.t.notOpen, null);
    }
  }

  private renderState(
    ctx: PageContext,
    session: PageSession,
    status: number,
    heading: string,
    message: string,
    merchantUrl: string | null,
  ): void {
    this.render(ctx, 'checkout/state', status, {
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

  private context(req: FastifyRequest, reply: FastifyReply): PageContext {
    const query = (req.query as Record<string, unknown> | undefined)?.lang;
    const cookies = parseCookies(req.headers.cookie);
    const lang = chooseLanguage({
      query,
      cookie: cookies[LANG_COOKIE],
      acceptLanguage: req.headers['accept-language'],
    });
    if (query === lang) {
      this.setCookie(reply, LANG_COOKIE, lang, {
        path: '/checkout',
        maxAge: YEAR_S,
        sameSite: 'lax',
        httpOnly: true,
      });
    }
    return { req, reply, cookies, lang, t: DICTIONARIES[lang], nonce: randomBytes(16).toString('hex') };
  }

  private render(ctx: PageContext, view: string, status: number, locals: Record<string, unknown>): void {
    const { reply, nonce, lang } = ctx;
    const path = ctx.req.url.split('?')[0].replace(/\/(pay|cancel)\/?$/, '');
    const html = this.views.render(view, {
      ...locals,
      lang,
      dir: direction(lang),
      t: ctx.t,
      nonce,
      languages: LANGUAGES.map((code) => ({
        code,
        name: DICTIONARIES[code].languageName,
        href: `${path}?lang=${code}`,
        current: code === lang,
      })),
    });
    void reply
      .status(status)
      .headers({
        'content-type': 'text/html; charset=utf-8',
        'content-security-policy':
          `default-src 'self'; script-src 'nonce-${nonce}'; style-src 'nonce-${nonce}'; img-src 'self' data:; ` +
          `object-src 'none'; base-uri 'none'; frame-ancestors 'none'`,
        'cache-control': 'no-store',
        'referrer-policy': 'no-referrer',
        'x-content-type-options': 'nosniff',
        'x-frame-options': 'DENY',
        'content-language': lang,
        vary: 'accept-language, cookie',
      })
      .send(html);
  }

  /** 303 so the browser follows a form post with a GET. */
  private redirect(reply: FastifyReply, url: string): void {
    void reply.header('cache-control', 'no-store').redirect(url, 303);
  }

  private csrfFor(ctx: PageContext, sessionId: string): string {
    let cookie: string | undefined = ctx.cookies[CSRF_COOKIE];
    if (typeof cookie !== 'string' || cookie.length < 32) {
      cookie = newCsrfCookieValue();
      ctx.cookies[CSRF_COOKIE] = cookie;
      this.setCookie(ctx.reply, CSRF_COOKIE, cookie, { path: '/checkout', httpOnly: true, sameSite: 'lax' });
    }
    return csrfToken(this.csrfSecret, cookie, sessionId);
  }

  /** Secure whenever the public origin is https. Fastify keeps every `set-cookie` header it is given. */
  private setCookie(
    reply: FastifyReply,
    name: string,
    value: string,
    options: Omit<CookieOptions, 'secure'>,
  ): void {
    void reply.header('set-cookie', serializeCookie(name, value, { ...options, secure: this.secure }));
  }

  private csrfOk(ctx: PageContext, sessionId: string, token: unknown): boolean {
    return validCsrfToken(this.csrfSecret, ctx.cookies[CSRF_COOKIE], sessionId, token);
  }

  private translate(t: Dictionary, message: string): string {
    if (message === Messages.bankFailure) return t.bankFailure;
    if (message === Messages.passCodeRequiredForBankily) return t.passCodeRequired;
    if (message === Messages.invalidPhoneNumber) return t.invalidPhone;
    if (message === Messages.paymentMethodNotFound) return t.chooseMethodError;
    return message;
  }

  private pageUrl(id: string): string {
    return `/checkout/${id}`;
  }

  private get secure(): boolean {
    return this.config.publicUrl.startsWith('https:');
  }
}
