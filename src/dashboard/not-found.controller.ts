import { All } from '@nestjs/common';
import { DashboardError, dashboardError } from './dashboard.errors';
import { DashboardPages } from './dashboard-pages';
import { DashboardAccess } from './dashboard-request';

/** Any other path under /dashboard: the 404 page (signed in), else the sign-in page. Registered last. */
@DashboardPages()
export class DashboardNotFoundController {
  @All('*')
  @DashboardAccess('member')
  notFound(): never {
    throw dashboardError(DashboardError.NotFound);
  }
}
