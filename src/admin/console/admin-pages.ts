import { applyDecorators } from '@nestjs/common';
import { Public } from '../../auth/decorators';
import { Pages } from '../../common/pages/pages.decorator';
import { AdminSurface } from './admin-surface';

export { idOr404 } from '../../common/pages/pages.decorator';

/**
 * A controller of the operators' console under /admin: no API key and no dashboard session (the
 * operator's own session instead, checked with the console's CSRF by the page kit's guard), errors
 * as pages, out of the API's OpenAPI document.
 */
export const AdminPages = (path = '') =>
  applyDecorators(Public(), Pages(AdminSurface, path ? `admin/${path}` : 'admin'));
