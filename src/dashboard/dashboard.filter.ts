import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Injectable, Logger } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../common/errors/app-error';
import { CommonError } from '../common/errors/common-errors';
import { isDatabaseUnavailable, serviceUnavailable } from '../common/errors/database-unavailable';
import { sendAppError } from '../common/http/error.filter';
import { DashboardError } from './dashboard.errors';
import { DashboardRenderer } from './dashboard.renderer';
import { apiRuleText } from './forms';
import { DashboardSurface } from './dashboard-surface';
import { SESSION_COOKIE } from './sessions.service';

/**
 * Errors on the dashboard are pages, in the user's language: no session → 303 to the sign-in page;
 * a failed CSRF check or a role that may not act → 403; anything not found (also another
 * organization's or environment's id) → 404; too many sign-in attempts, or requests from one
 * address → 429; the rest → 500, its cause logged with the request id. While PostgreSQL is
 * unreachable, the same 503 `Service unavailable` (text, with Retry-After) as every other route:
 * a page of the dashboard could not be built without it.
 */
@Injectable()
@Catch()
export class DashboardErrorFilter implements ExceptionFilter {
  private readonly logger = new Logger('DashboardErrorFilter');

  constructor(
    private readonly surface: DashboardSurface,
    private readonly renderer: DashboardRenderer,
  ) {}

  catch(error: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const req = http.getRequest<FastifyRequest>();
    const reply = http.getResponse<FastifyReply>();
    if (reply.sent) {
      this.logger.error({ err: error, requestId: req.id }, 'error after the response was sent');
      return;
    }
    if (isDatabaseUnavailable(error)) return sendAppError(reply, serviceUnavailable());
    const d = this.surface.request(req, reply);
    const { t } = d;
    if (AppError.is(error, DashboardError.SignInRequired)) {
      if (d.page.cookies[SESSION_COOKIE]) d.page.clearCookie(SESSION_COOKIE);
      return d.page.redirect('/dashboard/login');
    }
    if (AppError.is(error, DashboardError.SecurityCheck))
      return this.renderer.error(d, 403, t.securityTitle, t.securityBody);
    if (AppError.is(error, DashboardError.Forbidden))
      return this.renderer.error(d, 403, t.forbiddenTitle, t.forbiddenBody);
    if (AppError.is(error, DashboardError.TooManyAttempts))
      return this.renderer.error(d, 429, t.tooManyTitle, t.tooManyBody);
    // The per-address rate limit (RATE_LIMIT_PER_IP), with its Retry-After.
    if (AppError.is(error, CommonError.TooManyRequests)) {
      for (const [name, value] of Object.entries(error.headers)) void reply.header(name, value);
      return this.renderer.error(d, 429, t.rateLimitedTitle, t.rateLimitedBody);
    }
    const status =
      error instanceof AppError ? error.status : error instanceof HttpException ? error.getStatus() : 500;
    if (status === 404) return this.renderer.error(d, 404, t.notFoundTitle, t.notFoundBody);
    // A rule of a domain the page did not turn into a form message: its status and its text in the
    // page's language; a rule the texts do not name yet, the API's words (marked as English).
    if (error instanceof AppError && status < 500) {
      const text = apiRuleText(d.lang, error.code);
      if (text) return this.renderer.error(d, status, t.serverErrorTitle, text);
      return this.renderer.error(d, status, t.serverErrorTitle, error.message, 'en');
    }
    this.logger.error({ err: error, requestId: req.id }, 'dashboard error');
    this.renderer.error(d, 500, t.serverErrorTitle, t.serverErrorBody);
  }
}
