import { Injectable } from '@nestjs/common';
import { isUUID } from 'class-validator';
import { PageRequest } from '../common/http/pages';
import { Views } from '../common/http/views';
import { LANGUAGES } from '../common/i18n/languages';
import { PORTAL_TEXTS, PortalTexts } from '../common/i18n/portal-texts';
import { PageContext } from '../common/pages/page-context';
import { PageError, pageError } from '../common/pages/page.errors';
import { PageAccess, PageCtx } from '../common/pages/pages.decorator';
import { Surface } from '../common/pages/surface';
import { AppConfig } from '../config/config';
import { customerPortalPath } from '../invoices/invoice';
import type { PortalSession } from './portal.repository';
import { PortalMerchant, PortalService } from './portal.service';

/** The cookie of a signed-in customer: a session's token, on /portal. */
export const PORTAL_COOKIE = 'khoums_portal';

/**
 * Who may use a portal route. `link`: anyone (a merchant's link, no merchant in the path);
 * `sign-in`: the sign-in forms of the merchant's portal (their token is bound to the merchant);
 * `customer`: a customer signed in to this merchant's portal (none: back to its sign-in). Unmarked:
 * anyone, signed in or not (the home page).
 */
export type PortalAccess = 'link' | 'sign-in' | 'customer';
export const PortalAccessIs = (access: PortalAccess) => PageAccess(access);

/** One request to a portal page: the merchant of its path, and its customer's session for that merchant. */
export class PortalRequest extends PageContext<PortalSession, PortalTexts> {
  /** Unset on a link's page and the 404 page. */
  merchant!: PortalMerchant;
  access?: PortalAccess;
}

/** The request's PortalRequest (made by the page kit's guard). */
export const Portal = PageCtx;

/**
 * The customer portal as a page surface (docs/billing.md "Customer portal"): its own cookies on
 * /portal, every language, the merchant of the path (404 page when there is none), the customer's
 * session of that merchant, and its CSRF key kept in PostgreSQL. Its forms show their own errors:
 * only a failed CSRF check and a page not found are its error pages.
 */
@Injectable()
export class PortalSurface extends Surface<PortalRequest, PortalTexts> {
  constructor(
    views: Views,
    config: AppConfig,
    private readonly service: PortalService,
  ) {
    super(
      {
        name: 'Portal',
        path: '/portal',
        views: 'portal',
        layout: 'layouts/portal',
        languages: LANGUAGES,
        languageCookie: 'khoums_portal_lang',
        signInPath: '/portal',
        dictionary: PORTAL_TEXTS,
        errorPages: (t) => ({
          security: { title: t.title, body: t.securityCheck },
          notFound: { title: t.notFoundTitle, body: t.notFoundBody },
        }),
      },
      views,
      config.publicUrl.startsWith('https:'),
      () => service.csrfSecret(),
    );
  }

  protected context(page: PageRequest): PortalRequest {
    return new PortalRequest(this, page);
  }

  async loadSession(p: PortalRequest, access: string | undefined): Promise<void> {
    p.access = access as PortalAccess | undefined;
    if (access === 'link') return;
    const organizationId = (p.page.req.params as Record<string, string>).organizationId;
    const merchant = isUUID(organizationId) ? await this.service.merchant(organizationId) : undefined;
    if (!merchant) throw pageError(PageError.NotFound);
    p.merchant = merchant;
    const session = await this.service.session(p.page.cookies[PORTAL_COOKIE]);
    p.user = session?.organizationId === merchant.organizationId ? session : null;
    if (access === 'customer' && !p.user) throw pageError(PageError.SignInRequired);
  }

  /** The merchant's portal (its sign-in). */
  override signInPath(p: PortalRequest): string {
    return customerPortalPath(p.merchant.organizationId);
  }

  /** A signed-in session's forms, else the sign-in forms of the merchant's portal. */
  csrfScope(p: PortalRequest): string {
    if (p.user && p.access !== 'sign-in') return `portal:${p.user.id}`;
    // A page of no merchant (a link's, a 404) has no form: its token signs nothing.
    return p.merchant ? `portal-sign-in:${p.merchant.organizationId}` : 'portal-no-form';
  }

  layoutLocals(): Record<string, unknown> {
    return {};
  }
}
