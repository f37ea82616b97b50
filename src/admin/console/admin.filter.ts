import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Injectable, Logger } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../common/errors/app-error';
import { CommonError } from '../../common/errors/common-errors';
import { isDatabaseUnavailable, serviceUnavailable } from '../../common/errors/database-unavailable';
import { sendAppError } from '../../common/http/error.filter';
import { AdminError } from '../admin.errors';
import { OPERATOR_SESSION_COOKIE } from '../operator-sessions.service';
import { AdminRenderer } from './admin.renderer';
import { AdminSurface } from './admin-surface';

/**
 * Errors in the console are pages in the operator's language: no session → 303 to its sign-in
 * page; a failed CSRF check → 403; anything not found → 404; too many sign-in attempts or requests
 * → 429; another rule refused → its status and the API's words (English); the rest → 500, the cause
 * logged with the request id. PostgreSQL unreachable → 503 `Service unavailable`, as everywhere.
 */
@Injectable()
@Catch()
export class AdminErrorFilter implements ExceptionFilter {
  private readonly logger = new Logger('AdminErrorFilter');

  constructor(
    private readonly surface: AdminSurface,
    private readonly renderer: AdminRenderer,
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
    const a = this.surface.request(req, reply);
    const { t } = a;
    if (AppError.is(error, AdminError.SignInRequired)) {
      if (a.page.cookies[OPERATOR_SESSION_COOKIE]) a.page.clearCookie(OPERATOR_SESSION_COOKIE);
      return a.page.redirect('/admin/login');
    }
    // The one-time password is changed before anything else.
    if (AppError.is(error, AdminError.PasswordChangeRequired)) return a.page.redirect('/admin/password');
    if (AppError.is(error, AdminError.SecurityCheck))
      return this.renderer.error(a, 403, t.securityTitle, t.securityBody);
    if (AppError.is(error, AdminError.TooManyAttempts))
      return this.renderer.error(a, 429, t.tooManyTitle, t.tooManyBody);
    if (AppError.is(error, CommonError.TooManyRequests)) {
      for (const [name, value] of Object.entries(error.headers)) void reply.header(name, value);
      return this.renderer.error(a, 429, t.rateLimitedTitle, t.rateLimitedBody);
    }
    const status =
      error instanceof AppError ? error.status : error instanceof HttpException ? error.getStatus() : 500;
    if (status === 404) return this.renderer.error(a, 404, t.notFoundTitle, t.notFoundBody);
    if (error instanceof AppError && status < 500)
      return this.renderer.error(a, status, t.conflictTitle, error.message, 'en');
    this.logger.error({ err: error, requestId: req.id }, 'admin console error');
    this.renderer.error(a, 500, t.serverErrorTitle, t.serverErrorBody);
  }
}
