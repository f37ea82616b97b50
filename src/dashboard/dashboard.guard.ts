import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { DashboardError, dashboardError } from './dashboard.errors';
import { Access, ACCESS_METADATA } from './dashboard-request';
import { DashboardSurface } from './dashboard-surface';
import { DashboardSessions, SESSION_COOKIE } from './sessions.service';

/**
 * Every dashboard route: the session (none: to the sign-in page), then, on a POST, the CSRF token
 * (403) and the role (403), in that order, before the handler runs. See `Access`.
 */
@Injectable()
export class DashboardGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly surface: DashboardSurface,
    private readonly sessions: DashboardSessions,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const http = context.switchToHttp();
    const req = http.getRequest<FastifyRequest>();
    const d = this.surface.request(req, http.getResponse<FastifyReply>());
    const post = req.method === 'POST';
    const access =
      this.reflector.getAllAndOverride<Access | undefined>(ACCESS_METADATA, [
        context.getHandler(),
        context.getClass(),
      ]) ?? (post ? 'editor' : 'member');

    if (access !== 'anonymous') {
      d.user = await this.sessions.find(d.page.cookies[SESSION_COOKIE]);
      if (!d.user) throw dashboardError(DashboardError.SignInRequired);
    }
    if (post) {
      if (!d.page.csrfValid(d.csrfScope, (req.body as Record<string, unknown> | undefined)?._csrf))
        throw dashboardError(DashboardError.SecurityCheck);
      if (access === 'editor' && d.user?.role === 'viewer') throw dashboardError(DashboardError.Forbidden);
      if (access === 'owner' && d.user?.role !== 'owner') throw dashboardError(DashboardError.Forbidden);
    }
    return true;
  }
}
