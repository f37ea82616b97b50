import { Injectable } from '@nestjs/common';
import { Views } from '../../common/http/views';
import { PageRenderer } from '../../common/pages/page.renderer';
import type { AdminRequest } from './admin-request';
import { AdminSurface } from './admin-surface';

export { CONSOLE_FORM_LIMITS } from './admin-surface';

/** Renders console views (views/admin/*) inside layouts/admin: the page kit's renderer. */
@Injectable()
export class AdminRenderer extends PageRenderer<AdminRequest> {
  constructor(views: Views, surface: AdminSurface) {
    super(views, surface);
  }
}
