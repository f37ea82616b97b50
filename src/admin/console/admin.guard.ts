import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AdminError, adminError } from '../admin.errors';
import { OPERATOR_SESSION_COOKIE, OperatorSessions } from '../operator-sessions.service';
import { AdminAccess, ADMIN_ACCESS_METADATA } from './admin-request';
import { AdminSurface } from './admin-surface';

/**
 * Every console route: the operator's session (its own cookie and table: none → the sign-in page),
 * the password change an operator owes before anything else, then, on a POST, the console's CSRF
 * token (403), before the handler runs.
 */
@Injectable()
export class AdminGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly surface: AdminSurface,
    private readonly sessions: OperatorSessions,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const http = context.switchToHttp();
    const req = http.getRequest<FastifyRequest>();
    const a = this.surface.request(req, http.getResponse<FastifyReply>());
    const access =
      this.reflector.getAllAndOverride<AdminAccess | undefined>(ADMIN_ACCESS_METADATA, [
        context.getHandler(),
        context.getClass(),
      ]) ?? 'operator';

    if (access !== 'anonymous') {
      a.operator = await this.sessions.find(a.page.cookies[OPERATOR_SESSION_COOKIE]);
      if (!a.operator) throw adminError(AdminError.SignInRequired);
      if (access === 'operator' && a.operator.mustChangePassword)
        throw adminError(AdminError.PasswordChangeRequired);
    }
    if (req.method === 'POST') {
      if (!a.page.csrfValid(a.csrfScope, (req.body as Record<string, unknown> | undefined)?._csrf))
        throw adminError(AdminError.SecurityCheck);
    }
    return true;
  }
}
