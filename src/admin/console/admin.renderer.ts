import { Injectable } from '@nestjs/common';
import { Views } from '../../common/http/views';
import { ADMIN_TEXTS, AdminNotice, AdminTexts } from '../../common/i18n/admin-texts';
import { direction, Language } from '../../common/i18n/languages';
import { fill } from '../../dashboard/format';
import { REJECTION_REASON_MAX } from '../operator-actions.service';
import type { AdminRequest } from './admin-request';
import { ADMIN_LANGUAGES } from './admin-surface';

/** The limits the console's fields carry (`maxlength="{{@root.limits.…}}"`), as its actions check them. */
export const CONSOLE_FORM_LIMITS = { rejectionReason: REJECTION_REASON_MAX } as const;

/** The menu: [path, text]; the longest matching path is the current entry. */
const NAV: [string, keyof AdminTexts][] = [
  ['/admin', 'navQueue'],
  ['/admin/organizations', 'navOrganizations'],
  ['/admin/audit', 'navAudit'],
  ['/admin/password', 'navPassword'],
];

/**
 * Renders console views (views/admin/*) inside layouts/admin, which shares the dashboard's styles:
 * the header with the operator and sign-out, the menu, the language links and the CSRF token.
 */
@Injectable()
export class AdminRenderer {
  constructor(private readonly views: Views) {}

  render(
    a: AdminRequest,
    view: string,
    title: string,
    locals: Record<string, unknown> = {},
    status = 200,
  ): void {
    const html = this.views.render(`admin/${view}`, { ...this.layout(a, title), ...locals }, 'layouts/admin');
    a.page.send(status, html);
  }

  /** An error page; `messageLang`: the message's language, when not the page's. */
  error(a: AdminRequest, status: number, title: string, message: string, messageLang?: Language): void {
    const other = messageLang && messageLang !== a.lang ? messageLang : undefined;
    this.render(
      a,
      'error',
      title,
      { heading: title, message, messageLang: other, messageDir: other && direction(other) },
      status,
    );
  }

  private layout(a: AdminRequest, title: string): Record<string, unknown> {
    const { t, operator } = a;
    const path = a.path;
    const current = NAV.filter(([href]) => path === href || path.startsWith(`${href}/`)).sort(
      (x, y) => y[0].length - x[0].length,
    )[0]?.[0];
    const notice = a.query('notice') as AdminNotice | undefined;
    const query = new URLSearchParams(a.page.req.url.split('?')[1] ?? '');
    query.delete('notice');
    return {
      pageTitle: title,
      lang: a.page.lang,
      dir: direction(a.page.lang),
      nonce: a.page.nonce,
      t,
      csrf: a.csrf(),
      limits: CONSOLE_FORM_LIMITS,
      notice: notice && Object.hasOwn(t.notices, notice) ? t.notices[notice] : undefined,
      languages: ADMIN_LANGUAGES.map((code) => {
        query.set('lang', code);
        return {
          code,
          name: ADMIN_TEXTS[code].languageName,
          href: `${path}?${query.toString()}`,
          current: code === a.page.lang,
        };
      }),
      ...(operator && {
        operator: { signedInAs: fill(t.signedInAs, { email: operator.email }) },
        nav: operator.mustChangePassword
          ? []
          : NAV.map(([href, label]) => ({ href, label: t[label], current: href === current })),
      }),
    };
  }
}
