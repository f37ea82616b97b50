import { applyDecorators } from '@nestjs/common';
import { Public } from '../auth/decorators';
import { Pages } from '../common/pages/pages.decorator';
import { DashboardSurface } from './dashboard-surface';

export { idOr404 } from '../common/pages/pages.decorator';

/**
 * A controller of dashboard pages under /dashboard: no API key (its own session instead, checked
 * with CSRF and role by the page kit's guard), errors as pages, out of the API's OpenAPI document.
 */
export const DashboardPages = (path = '') =>
  applyDecorators(Public(), Pages(DashboardSurface, path ? `dashboard/${path}` : 'dashboard'));
