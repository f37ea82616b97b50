import { Injectable } from '@nestjs/common';
import { Views } from '../common/http/views';
import { PageRenderer } from '../common/pages/page.renderer';
import type { DashboardRequest } from './dashboard-request';
import { DashboardSurface } from './dashboard-surface';

export { roleLabel } from './dashboard-surface';

/** Renders dashboard views (views/dashboard/*) inside layouts/dashboard: the page kit's renderer. */
@Injectable()
export class DashboardRenderer extends PageRenderer<DashboardRequest> {
  constructor(views: Views, surface: DashboardSurface) {
    super(views, surface);
  }
}
