import { CanActivate, ExecutionContext, Injectable, Type } from '@nestjs/common';
import { ModuleRef, Reflector } from '@nestjs/core';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { PageError, pageError } from './page.errors';
import type { PageContext } from './page-context';
import type { PageTexts, Surface } from './surface';

export const PAGE_SURFACE_METADATA = 'khoums:page-surface';
export const PAGE_ACCESS_METADATA = 'khoums:page-access';

type AnySurface = Surface<PageContext<unknown, PageTexts>, PageTexts>;

/**
 * Every route of every page surface: the surface's session (none where one is needed: to its
 * sign-in page), then, on every POST, the CSRF token of the page's forms (403), then whether the
 * session may act (403), in that order, before the handler runs.
 */
@Injectable()
export class PageGuard implements CanActivate {
  private readonly surfaces = new Map<Type<AnySurface>, AnySurface>();

  constructor(
    private readonly reflector: Reflector,
    private readonly moduleRef: ModuleRef,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const http = context.switchToHttp();
    const req = http.getRequest<FastifyRequest>();
    const surface = this.surfaceOf(context.getClass());
    const ctx = await surface.open(req, http.getResponse<FastifyReply>());
    const post = req.method === 'POST';
    const access = this.reflector.getAllAndOverride<string | undefined>(PAGE_ACCESS_METADATA, [
      context.getHandler(),
      context.getClass(),
    ]);
    await surface.loadSession(ctx, access, post);
    if (post) {
      if (!ctx.csrfValid()) throw pageError(PageError.SecurityCheck);
      surface.mayAct(ctx, access);
    }
    return true;
  }

  private surfaceOf(controller: Type): AnySurface {
    const token = Reflect.getMetadata(PAGE_SURFACE_METADATA, controller) as Type<AnySurface> | undefined;
    if (!token) throw new Error(`${controller.name} uses PageGuard without @Pages(surface)`);
    const known = this.surfaces.get(token);
    if (known) return known;
    const surface = this.moduleRef.get(token, { strict: false });
    this.surfaces.set(token, surface);
    return surface;
  }
}
