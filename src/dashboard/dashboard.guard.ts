import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppConfig } from '../config/config';
import { READ_LEADER_COOKIE } from '../database/reads-replica';
import { DashboardError, dashboardError } from './dashboard.errors';
import { Access, ACCESS_METADATA } from './dashboard-request';
import { DashboardSurface } from './dashboard-surface';
import { DashboardSessions, SESSION_COOKIE } from './sessions.service';

/**
 * Every dashboard route: the session (none: to the sign-in page), then, on a POST, the CSRF token
 * (403) and the role (403), in that order, before the handler runs. See `Access`. With a read
 * replica, a POST that passes makes the user's next pages read the leader (`READ_LEADER_COOKIE`).
 */
@Injectable()
export class DashboardGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly surface: DashboardSurface,
    private readonly sessions: DashboardSessions,
    private readonly config: AppConfig,
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
      // A write: the pages that follow read the leader until the replica has caught up.
      if (this.config.DATABASE_READ_URL)
        d.page.setCookie(READ_LEADER_COOKIE, '1', {
          httpOnly: true,
          sameSite: 'lax',
          maxAge: Math.ceil(this.config.DATABASE_READ_MAX_LAG_MS / 1000),
        });
    }
    return true;
  }
}
