import { applyDecorators, Controller, UseFilters, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { isUUID } from 'class-validator';
import { Public } from '../auth/decorators';
import { DashboardError, dashboardError } from './dashboard.errors';
import { DashboardErrorFilter } from './dashboard.filter';
import { DashboardGuard } from './dashboard.guard';

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
  );

/** The id of a path, or the 404 page (an id that is not a UUID names nothing). */
export function idOr404(id: string): string {
  if (!isUUID(id)) throw dashboardError(DashboardError.NotFound);
  return id;
}
