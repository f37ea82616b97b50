import { Injectable } from '@nestjs/common';
import { PageRequest } from '../../common/http/pages';
import { Views } from '../../common/http/views';
import { ADMIN_TEXTS, AdminTexts } from '../../common/i18n/admin-texts';
import { PageError, pageError } from '../../common/pages/page.errors';
import { Surface } from '../../common/pages/surface';
import { AppConfig } from '../../config/config';
import { ServerSecrets } from '../../database/server-secrets.repository';
import { fill } from '../../dashboard/format';
import { REJECTION_REASON_MAX } from '../operator-actions.service';
import { OPERATOR_SESSION_COOKIE, OperatorSessions } from '../operator-sessions.service';
import { AdminRequest } from './admin-request';

export const ADMIN_LANGUAGES = ['fr', 'ar', 'en'] as const;

/** The limits the console's fields carry (`maxlength="{{@root.limits.…}}"`), as its actions check them. */
export const CONSOLE_FORM_LIMITS = { rejectionReason: REJECTION_REASON_MAX } as const;

/** The menu: [path, text]; the longest matching path is the current entry. */
const NAV: [string, keyof AdminTexts][] = [
  ['/admin', 'navQueue'],
  ['/admin/organizations', 'navOrganizations'],
  ['/admin/audit', 'navAudit'],
  ['/admin/gimtel-apps', 'navGimtelApps'],
  ['/admin/password', 'navPassword'],
];

/**
 * The operators' console as a page surface of its own: cookies on the path /admin only (its
 * session, its language, its CSRF cookie), and a CSRF key of its own kept in PostgreSQL, so no
 * token of the dashboard's forms is valid here, nor one of here on the dashboard. The one-time
 * password is changed before anything else. Its layout shares the dashboard's styles.
 */
@Injectable()
export class AdminSurface extends Surface<AdminRequest, AdminTexts> {
  constructor(
    views: Views,
    secrets: ServerSecrets,
    config: AppConfig,
    private readonly sessions: OperatorSessions,
  ) {
    super(
      {
        name: 'Admin',
        path: '/admin',
        views: 'admin',
        layout: 'layouts/admin',
        languages: ADMIN_LANGUAGES,
        defaultLanguage: 'en',
        languageCookie: 'khoums_admin_lang',
        sessionCookie: OPERATOR_SESSION_COOKIE,
        signInPath: '/admin/login',
        passwordChangePath: '/admin/password',
        dictionary: ADMIN_TEXTS,
        errorPages: (t) => ({
          security: { title: t.securityTitle, body: t.securityBody },
          notFound: { title: t.notFoundTitle, body: t.notFoundBody },
          tooMany: { title: t.tooManyTitle, body: t.tooManyBody },
          rateLimited: { title: t.rateLimitedTitle, body: t.rateLimitedBody },
          serverError: { title: t.serverErrorTitle, body: t.serverErrorBody },
          refusedTitle: t.conflictTitle,
        }),
        limits: CONSOLE_FORM_LIMITS,
      },
      views,
      config.publicUrl.startsWith('https:'),
      () => secrets.get('admin-csrf'),
    );
  }

  protected context(page: PageRequest): AdminRequest {
    return new AdminRequest(this, page);
  }

  /** Unmarked: `operator`. */
  async loadSession(a: AdminRequest, access: string | undefined): Promise<void> {
    if (access === 'anonymous') return;
    a.user = await this.sessions.find(a.page.cookies[OPERATOR_SESSION_COOKIE]);
    if (!a.user) throw pageError(PageError.SignInRequired);
    if (access !== 'password' && a.user.mustChangePassword) throw pageError(PageError.PasswordChangeRequired);
  }

  csrfScope(a: AdminRequest): string {
    return a.user ? `operator-session:${a.user.sessionId}` : 'operator-anonymous';
  }

  layoutLocals(a: AdminRequest): Record<string, unknown> {
    const { t, operator } = a;
    const path = a.path;
    const current = NAV.filter(([href]) => path === href || path.startsWith(`${href}/`)).sort(
      (x, y) => y[0].length - x[0].length,
    )[0]?.[0];
    return operator
      ? {
          operator: { signedInAs: fill(t.signedInAs, { email: operator.email }) },
          nav: operator.mustChangePassword
            ? []
            : NAV.map(([href, label]) => ({ href, label: t[label], current: href === current })),
        }
      : {};
  }
}
