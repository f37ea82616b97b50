import { All } from '@nestjs/common';
import { PageError, pageError } from '../../common/pages/page.errors';
import { AdminPages } from './admin-pages';

/** Any other path under /admin: the 404 page (signed in), else the sign-in page. Registered last. */
@AdminPages()
export class AdminNotFoundController {
  @All('*')
  notFound(): never {
    throw pageError(PageError.NotFound);
  }
}
