import { applyDecorators, Controller, Res, UseFilters, UseGuards } from '@nestjs/common';
import { PATH_METADATA, ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { ApiExcludeController } from '@nestjs/swagger';
import { isUUID } from 'class-validator';
import { Public } from '../auth/decorators';
import { DashboardError, dashboardError } from './dashboard.errors';
import { DashboardErrorFilter } from './dashboard.filter';
import { DashboardGuard } from './dashboard.guard';

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
 * A controller of dashboard pages under /dashboard: no API key (its own session instead, checked
 * with CSRF and role by DashboardGuard), errors as pages, out of the API's OpenAPI document.
 */
export const DashboardPages = (path = '') =>
  applyDecorators(
    ApiExcludeController(),
    Public(),
    Controller(path ? `dashboard/${path}` : 'dashboard'),
    UseGuards(DashboardGuard),
    UseFilters(DashboardErrorFilter),
    WritesItsOwnResponse(),
  );

/** The id of a path, or the 404 page (an id that is not a UUID names nothing). */
export function idOr404(id: string): string {
  if (!isUUID(id)) throw dashboardError(DashboardError.NotFound);
  return id;
}
