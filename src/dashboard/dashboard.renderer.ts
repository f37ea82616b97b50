import { Injectable } from '@nestjs/common';
import { Views } from '../common/http/views';
import { DASHBOARD_TEXTS, DashboardTexts, Notice } from '../common/i18n/dashboard-texts';
import { direction, Language } from '../common/i18n/languages';
import type { Role } from '../organizations/users';
import type { DashboardRequest } from './dashboard-request';
import { DASHBOARD_LANGUAGES } from './dashboard-surface';
import { fill } from './format';
import { FORM_LIMITS } from './forms';

export const roleLabel = (t: DashboardTexts, role: Role): string =>
  ({ owner: t.roleOwner, developer: t.roleDeveloper, viewer: t.roleViewer })[role];

/** The menu: [path, text]; the longest matching path is the current entry. */
const NAV: [string, keyof DashboardTexts][] = [
  ['/dashboard', 'navHome'],
  ['/dashboard/payment-requests', 'navPaymentRequests'],
  ['/dashboard/payments', 'navPayments'],
  ['/dashboard/payment-links', 'navPaymentLinks'],
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
  ['/dashboard/team', 'navTeam'],
  ['/dashboard/account', 'navAccount'],
];
/** Owners only: the application holds the representative's personal data. */
const OWNER_NAV: [string, keyof DashboardTexts][] = [['/dashboard/go-live', 'navGoLive']];

/**
 * Renders dashboard views (views/dashboard/*) inside layouts/dashboard: the header with the
 * organization, the environment switch and its banner, the menu, the language links and the
 * CSRF token every form of the page carries.
 */
@Injectable()
export class DashboardRenderer {
  constructor(private readonly views: Views) {}

  render(
    d: DashboardRequest,
    view: string,
    title: string,
    locals: Record<string, unknown> = {},
    status = 200,
  ): void {
    const html = this.views.render(
      `dashboard/${view}`,
      { ...this.layout(d, title), ...locals },
      'layouts/dashboard',
    );
    d.page.send(status, html);
  }

  /** An error page: signed in, inside the menu; else on its own. `messageLang`: the message's, when not the page's. */
  error(d: DashboardRequest, status: number, title: string, message: string, messageLang?: Language): void {
    const other = messageLang && messageLang !== d.lang ? messageLang : undefined;
    this.render(
      d,
      'error',
      title,
      { heading: title, message, status, messageLang: other, messageDir: other && direction(other) },
      status,
    );
  }

  private layout(d: DashboardRequest, title: string): Record<string, unknown> {
    const { t, user } = d;
    const path = d.path;
    const nav = user?.role === 'owner' ? [...NAV, ...OWNER_NAV] : NAV;
    const current = nav
      .filter(([href]) => path === href || path.startsWith(`${href}/`))
      .sort((a, b) => b[0].length - a[0].length)[0]?.[0];
    const notice = d.query('notice') as Notice | undefined;
    const query = new URLSearchParams(d.page.req.url.split('?')[1] ?? '');
    query.delete('notice');
    return {
      pageTitle: title,
      lang: d.page.lang,
      dir: direction(d.page.lang),
      nonce: d.page.nonce,
      t,
      csrf: d.csrf(),
      limits: FORM_LIMITS,
      canEdit: d.canEdit,
      isOwner: d.isOwner,
      notice: notice && Object.hasOwn(t.notices, notice) ? t.notices[notice] : undefined,
      languages: DASHBOARD_LANGUAGES.map((code) => {
        query.set('lang', code);
        return {
          code,
          name: DASHBOARD_TEXTS[code].languageName,
          href: `${path}?${query.toString()}`,
          current: code === d.page.lang,
        };
      }),
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
