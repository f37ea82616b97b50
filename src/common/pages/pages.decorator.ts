import {
  applyDecorators,
  Controller,
  createParamDecorator,
  ExecutionContext,
  Res,
  SetMetadata,
  Type,
  UseFilters,
  UseGuards,
} from '@nestjs/common';
import { PATH_METADATA, ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { ApiExcludeController } from '@nestjs/swagger';
import { isUUID } from 'class-validator';
import type { FastifyRequest } from 'fastify';
import { pageErrorFilterFor } from './page.filter';
import { PAGE_ACCESS_METADATA, PAGE_SURFACE_METADATA, PageGuard } from './page.guard';
import { PageError, pageError } from './page.errors';

/**
 * Every route of the class writes its own response (the page, through PageRequest), so Nest must not
 * send the handler's return value after it: as if each handler took `@Res()`, here as one argument
 * more than it declares, which it ignores.
 */
const WritesItsOwnResponse = (): ClassDecorator => (target) => {
  const prototype = target.prototype as Record<string, unknown>;
  for (const name of Object.getOwnPropertyNames(prototype)) {
    const handler = prototype[name];
    if (name === 'constructor' || typeof handler !== 'function') continue;
    if (Reflect.getMetadata(PATH_METADATA, handler) === undefined) continue;
    const args = (Reflect.getMetadata(ROUTE_ARGS_METADATA, target, name) ?? {}) as Record<
      string,
      { index: number }
    >;
    const next = Object.values(args).reduce((max, a) => Math.max(max, a.index + 1), 0);
    Res()(prototype, name, next);
  }
};

/**
 * A controller of a surface's pages under `path`: its session and CSRF checked by PageGuard, errors
 * as its pages (PageErrorFilter), out of the API's OpenAPI document. The surface's own decorator
 * adds what the API's guard needs to leave it alone (`Public()`).
 */
export const Pages = (surface: Type, path: string) =>
  applyDecorators(
    ApiExcludeController(),
    SetMetadata(PAGE_SURFACE_METADATA, surface),
    Controller(path),
    UseGuards(PageGuard),
    UseFilters(pageErrorFilterFor(surface)),
    WritesItsOwnResponse(),
  );

/** Who may use a route (the surface's own words: `anonymous`, `owner`, …); see its `loadSession`. */
export const PageAccess = (access: string) => SetMetadata(PAGE_ACCESS_METADATA, access);

/** The request's context (made by PageGuard). */
export const PageCtx = createParamDecorator((_: unknown, ctx: ExecutionContext) => {
  const page = ctx.switchToHttp().getRequest<FastifyRequest>().pageContext;
  if (!page) throw new Error('a page context used on a route without PageGuard');
  return page;
});

/** The id of a path, or the 404 page (an id that is not a UUID names nothing). */
export function idOr404(id: string): string {
  if (!isUUID(id)) throw pageError(PageError.NotFound);
  return id;
}
