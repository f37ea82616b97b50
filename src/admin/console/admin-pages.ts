import { applyDecorators, Controller, Res, UseFilters, UseGuards } from '@nestjs/common';
import { PATH_METADATA, ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { ApiExcludeController } from '@nestjs/swagger';
import { isUUID } from 'class-validator';
import { Public } from '../../auth/decorators';
import { AdminError, adminError } from '../admin.errors';
import { AdminErrorFilter } from './admin.filter';
import { AdminGuard } from './admin.guard';

/** Every route of the class writes its own response (the page): Nest must not send a return value after it. */
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
 * A controller of the operators' console under /admin: no API key and no dashboard session (the
 * operator's own session instead, checked with the console's CSRF by AdminGuard), errors as pages,
 * out of the API's OpenAPI document.
 */
export const AdminPages = (path = '') =>
  applyDecorators(
    ApiExcludeController(),
    Public(),
    Controller(path ? `admin/${path}` : 'admin'),
    UseGuards(AdminGuard),
    UseFilters(AdminErrorFilter),
    WritesItsOwnResponse(),
  );

/** The id of a path, or the 404 page. */
export function idOr404(id: string): string {
  if (!isUUID(id)) throw adminError(AdminError.NotFound);
  return id;
}
