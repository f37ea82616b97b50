import { Injectable } from '@nestjs/common';
import { PageRequest } from '../common/http/pages';
import { Views } from '../common/http/views';
import { DASHBOARD_TEXTS, DashboardTexts } from '../common/i18n/dashboard-texts';
import { PageError, pageError } from '../common/pages/page.errors';
import { Surface } from '../common/pages/surface';
import { AppConfig } from '../config/config';
import { ServerSecrets } from '../database/server-secrets.repository';
import type { Role } from '../organizations/users';
import { Access, DashboardRequest } from './dashboard-request';
import { fill } from './format';
import { READ_LEADER_COOKIE } from '../database/reads-replica';
import { apiRuleText, FORM_LIMITS } from './forms';
import { DashboardSessions, SESSION_COOKIE } from './sessions.service';

export const DASHBOARD_LANGUAGES = ['fr', 'ar', 'en'] as const;

export const roleLabel = (t: DashboardTexts, role: Role): string =>
  ({ owner: t.roleOwner, developer: t.roleDeveloper, viewer: t.roleViewer })[role];

/** The section of Sandbox only (test clocks): out of Production's menu; its pages answer 404 there. */
export const TEST_CLOCKS_PATH = '/dashboard/test-clocks';

/** Whether a dashboard path is in a section of Sandbox only. */
export const isSandboxOnly = (path: string): boolean =>
  path === TEST_CLOCKS_PATH ||
  path.startsWith(`${TEST_CLOCKS_PATH}/`) ||
  path.startsWith(`${TEST_CLOCKS_PATH}?`);

/** The menu: [path, text]; the longest matching path is the current entry. */
const NAV: [string, keyof DashboardTexts][] = [
  ['/dashboard', 'navHome'],
  ['/dashboard/payment-requests', 'navPaymentRequests'],
  ['/dashboard/payments', 'navPayments'],
  ['/dashboard/payment-links', 'navPaymentLinks'],
  ['/dashboard/transfers', 'navTransfers'],
  ['/dashboard/payouts', 'navPayouts'],
  ['/dashboard/reports/settlement', 'navSettlement'],
  ['/dashboard/keys', 'navKeys'],
  ['/dashboard/webhooks', 'navWebhooks'],
  ['/dashboard/webhooks/deliveries', 'navDeliveries'],
  ['/dashboard/payment-methods', 'navPaymentMethods'],
  ['/dashboard/products', 'navProducts'],
  ['/dashboard/customers', 'navCustomers'],
  ['/dashboard/subscriptions', 'navSubscriptions'],
  ['/dashboard/invoices', 'navInvoices'],
  [TEST_CLOCKS_PATH, 'navTestClocks'],
  ['/dashboard/team', 'navTeam'],
  ['/dashboard/account', 'navAccount'],
];
/** Owners only: the application holds the representative's personal data. */
const OWNER_NAV: [string, keyof DashboardTexts][] = [['/dashboard/go-live', 'navGoLive']];

/**
 * The dashboard as a page surface: pages and cookies under /dashboard, its three languages (English
 * when the browser asks for none: the language of the API and of its messages), a user's session
 * (`Access` says which routes need one and which role may post), the CSRF key kept in PostgreSQL,
 * and its layout's header: the organization, the environment switch and banner, the menu.
 */
@Injectable()
export class DashboardSurface extends Surface<DashboardRequest, DashboardTexts> {
  /** With a read replica: how long a write makes the user's pages read the leader (s); 0: none. */
  private readonly readLeaderSeconds: number;

  constructor(
    views: Views,
    secrets: ServerSecrets,
    config: AppConfig,
    private readonly sessions: DashboardSessions,
  ) {
    super(
      {
        name: 'Dashboard',
        path: '/dashboard',
        views: 'dashboard',
        layout: 'layouts/dashboard',
        languages: DASHBOARD_LANGUAGES,
        defaultLanguage: 'en',
        languageCookie: 'khoums_dashboard_lang',
        sessionCookie: SESSION_COOKIE,
        signInPath: '/dashboard/login',
        dictionary: DASHBOARD_TEXTS,
        errorPages: (t) => ({
          security: { title: t.securityTitle, body: t.securityBody },
          notFound: { title: t.notFoundTitle, body: t.notFoundBody },
          forbidden: { title: t.forbiddenTitle, body: t.forbiddenBody },
          tooMany: { title: t.tooManyTitle, body: t.tooManyBody },
          rateLimited: { title: t.rateLimitedTitle, body: t.rateLimitedBody },
          serverError: { title: t.serverErrorTitle, body: t.serverErrorBody },
          refusedTitle: t.serverErrorTitle,
        }),
        limits: FORM_LIMITS,
      },
      views,
      config.publicUrl.startsWith('https:'),
      () => secrets.get('dashboard-csrf'),
    );
    this.readLeaderSeconds = config.DATABASE_READ_URL ? Math.ceil(config.DATABASE_READ_MAX_LAG_MS / 1000) : 0;
  }

  protected context(page: PageRequest): DashboardRequest {
    return new DashboardRequest(this, page);
  }

  /** Unmarked, a GET is `member` and a POST `editor`. */
  async loadSession(d: DashboardRequest, access: string | undefined): Promise<void> {
    if (access === 'anonymous') return;
    d.user = await this.sessions.find(d.page.cookies[SESSION_COOKIE]);
    if (!d.user) throw pageError(PageError.SignInRequired);
  }

  override mayAct(d: DashboardRequest, marked: string | undefined): void {
    const access = (marked ?? 'editor') as Access;
    if (access === 'editor' && d.user?.role === 'viewer') throw pageError(PageError.Forbidden);
    if (access === 'owner' && d.user?.role !== 'owner') throw pageError(PageError.Forbidden);
    // A write: the pages that follow read the leader until the replica has caught up.
    if (this.readLeaderSeconds > 0)
      d.page.setCookie(READ_LEADER_COOKIE, '1', {
        httpOnly: true,
        sameSite: 'lax',
        maxAge: this.readLeaderSeconds,
      });
  }

  override ruleText(d: DashboardRequest, code: string): string | undefined {
    return apiRuleText(d.lang, code);
  }

  csrfScope(d: DashboardRequest): string {
    return d.user ? `session:${d.user.sessionId}` : 'anonymous';
  }

  layoutLocals(d: DashboardRequest): Record<string, unknown> {
    const { t, user } = d;
    const path = d.path;
    const nav = (user?.role === 'owner' ? [...NAV, ...OWNER_NAV] : NAV).filter(
      ([href]) => user?.environment === 'sandbox' || !isSandboxOnly(href),
    );
    const current = nav
      .filter(([href]) => path === href || path.startsWith(`${href}/`))
      .sort((a, b) => b[0].length - a[0].length)[0]?.[0];
    return {
      canEdit: d.canEdit,
      isOwner: d.isOwner,
      ...(user && {
        user: {
          email: user.email,
          organizationName: user.organizationName,
          signedInAs: fill(t.signedInAs, { email: user.email, role: roleLabel(t, user.role) }),
        },
        environment: {
          kind: user.environment,
          production: user.environment === 'production',
          name: user.environment === 'production' ? t.production : t.sandbox,
          banner: user.environment === 'production' ? t.productionBanner : t.sandboxBanner,
        },
        // After the switch, the same section (an id of one environment means nothing in the other).
        returnPath: current ?? '/dashboard',
        nav: nav.map(([href, label]) => ({ href, label: t[label], current: href === current })),
        verification: {
          status: user.verificationStatus,
          text: t[`verification_${user.verificationStatus}`],
          href: user.role === 'owner' ? '/dashboard/go-live' : undefined,
        },
      }),
    };
  }
}
