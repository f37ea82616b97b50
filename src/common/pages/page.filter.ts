import {
  ArgumentsHost,
  Catch,
  ExceptionFilter,
  HttpException,
  Inject,
  Injectable,
  Logger,
  Type,
} from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../errors/app-error';
import { CommonError } from '../errors/common-errors';
import { isDatabaseUnavailable, serviceUnavailable } from '../errors/database-unavailable';
import { ErrorFilter, sendAppError } from '../http/error.filter';
import { PageError } from './page.errors';
import type { ErrorText, PageTexts, Surface } from './surface';
import type { PageContext } from './page-context';

type AnySurface = Surface<PageContext<unknown, PageTexts>, PageTexts>;

/**
 * Errors on a page surface are its pages, in the visitor's language: no session → 303 to its
 * sign-in page (a password an operator owes → its page); a failed CSRF check or a role that may not
 * act → 403; anything not found (also another organization's id) → 404; too many sign-in attempts,
 * or requests from one address → 429 (with Retry-After); another rule refused → its status and the
 * API's words (English, marked as such); the rest → 500, its cause logged with the request id. While
 * PostgreSQL is unreachable, the same 503 `Service unavailable` as every other route.
 */
export abstract class PageErrorFilter implements ExceptionFilter {
  private surfaceInstance?: AnySurface;

  protected constructor(
    private readonly moduleRef: ModuleRef,
    private readonly surfaceType: Type<AnySurface>,
  ) {}

  catch(error: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const req = http.getRequest<FastifyRequest>();
    const reply = http.getResponse<FastifyReply>();
    // Made by the kit's guard, or here when a guard before it refused (the per-address rate limit).
    const surface = (this.surfaceInstance ??= this.moduleRef.get(this.surfaceType, { strict: false }));
    const { definition, renderer } = surface;
    const logger = new Logger(`${definition.name}ErrorFilter`);
    if (reply.sent) {
      logger.error({ err: error, requestId: req.id }, 'error after the response was sent');
      return;
    }
    const ctx = req.pageContext ?? surface.request(req, reply);
    if (isDatabaseUnavailable(error)) return sendAppError(reply, serviceUnavailable());
    const pages = definition.errorPages(ctx.t);
    const page = (status: number, text: ErrorText | undefined) => {
      if (!text) return new ErrorFilter().catch(error, host);
      renderer.error(ctx, status, text.title, text.body);
    };
    if (AppError.is(error, PageError.SignInRequired)) {
      const cookie = definition.sessionCookie;
      if (cookie && ctx.page.cookies[cookie]) ctx.page.clearCookie(cookie);
      return ctx.page.redirect(surface.signInPath(ctx));
    }
    if (AppError.is(error, PageError.PasswordChangeRequired) && definition.passwordChangePath)
      return ctx.page.redirect(definition.passwordChangePath);
    if (AppError.is(error, PageError.SecurityCheck)) {
      const show = surface.refusedTokenPage(ctx);
      if (show) return void show(ctx).catch((err: unknown) => this.catch(err, host));
      return page(403, pages.security);
    }
    if (AppError.is(error, PageError.Forbidden)) return page(403, pages.forbidden);
    if (AppError.is(error, PageError.TooManyAttempts)) return page(429, pages.tooMany);
    // The per-address rate limit (RATE_LIMIT_PER_IP), with its Retry-After.
    if (AppError.is(error, CommonError.TooManyRequests)) {
      if (!pages.rateLimited) return new ErrorFilter().catch(error, host);
      for (const [name, value] of Object.entries(error.headers)) void reply.header(name, value);
      return page(429, pages.rateLimited);
    }
    const status =
      error instanceof AppError ? error.status : error instanceof HttpException ? error.getStatus() : 500;
    if (status === 404) return page(404, pages.notFound);
    // A rule of a domain the page did not turn into a form message: its status and its text in the
    // page's language; a rule the surface's texts do not name yet, the API's words (marked as English).
    if (error instanceof AppError && status < 500) {
      if (!pages.refusedTitle) return new ErrorFilter().catch(error, host);
      const text = surface.ruleText(ctx, error.code);
      if (text) return renderer.error(ctx, status, pages.refusedTitle, text);
      return renderer.error(ctx, status, pages.refusedTitle, error.message, 'en');
    }
    if (!pages.serverError) return new ErrorFilter().catch(error, host);
    logger.error({ err: error, requestId: req.id }, `${definition.name.toLowerCase()} page error`);
    page(500, pages.serverError);
  }
}

const filters = new Map<Type, Type<PageErrorFilter>>();

/** The kit's filter for the pages of `surface` (one class per surface, so it knows whose pages to draw). */
export function pageErrorFilterFor(surface: Type): Type<PageErrorFilter> {
  const known = filters.get(surface);
  if (known) return known;
  @Injectable()
  @Catch()
  class SurfaceErrorFilter extends PageErrorFilter {
    constructor(@Inject(ModuleRef) moduleRef: ModuleRef) {
      super(moduleRef, surface);
    }
  }
  Object.defineProperty(SurfaceErrorFilter, 'name', { value: `${surface.name}ErrorFilter` });
  filters.set(surface, SurfaceErrorFilter);
  return SurfaceErrorFilter;
}
