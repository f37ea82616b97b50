import { Injectable } from '@nestjs/common';
import { PageRequest } from '../common/http/pages';
import { Views } from '../common/http/views';
import { direction, formatDate, formatMru, LANGUAGES } from '../common/i18n/languages';
import { PORTAL_TEXTS, PortalTexts } from '../common/i18n/portal-texts';
import { invoicePagePath } from '../invoices/invoice';
import type { EnvironmentKind } from '../organizations/tenant';
import { toSubscriptionJson } from '../subscriptions/subscription';
import type { PortalOverview, PortalMerchant } from './portal.service';
import type { PortalSession } from './portal.repository';

export const portalTexts = (page: PageRequest): PortalTexts => PORTAL_TEXTS[page.lang];

/** The portal's home: `/portal/<organizationId>`, with `?environment=sandbox` for Sandbox's sign-in. */
export function portalPath(organizationId: string, environment: EnvironmentKind = 'production'): string {
  return `/portal/${organizationId}${environment === 'sandbox' ? '?environment=sandbox' : ''}`;
}

/** What the customer typed on a sign-in form, and what went wrong. */
export interface SignInForm {
  phone?: string;
  codeId?: string;
  sandboxCode?: string;
  error?: string;
}

/** Subscriptions still running whose period has not ended may be cancelled at its end. */
const CANCELLABLE = new Set(['trialing', 'active', 'paused']);

/**
 * Renders the customer portal's pages (views/portal/ in layouts/portal): the phone form, the code
 * form, the customer's subscriptions and invoices, and the not-found and expired-link states. No
 * script: every action is a form post with its CSRF token.
 */
@Injectable()
export class PortalRenderer {
  constructor(private readonly views: Views) {}

  phoneForm(
    page: PageRequest,
    merchant: PortalMerchant,
    environment: EnvironmentKind,
    status: number,
    form: SignInForm,
  ): void {
    const t = portalTexts(page);
    this.render(page, 'portal/phone', status, portalPath(merchant.organizationId, environment), {
      pageTitle: `${t.signInTitle} · ${merchant.name}`,
      merchantName: merchant.name,
      testMode: environment === 'sandbox',
      environment,
      action: `/portal/${merchant.organizationId}/code`,
      csrf: page.csrfToken(signInScope(merchant.organizationId)),
      phone: form.phone ?? '',
      error: form.error,
    });
  }

  codeForm(
    page: PageRequest,
    merchant: PortalMerchant,
    environment: EnvironmentKind,
    status: number,
    form: SignInForm,
  ): void {
    const t = portalTexts(page);
    this.render(page, 'portal/code', status, portalPath(merchant.organizationId, environment), {
      pageTitle: `${t.codeTitle} · ${merchant.name}`,
      merchantName: merchant.name,
      testMode: environment === 'sandbox',
      environment,
      action: `/portal/${merchant.organizationId}/sign-in`,
      csrf: page.csrfToken(signInScope(merchant.organizationId)),
      codeId: form.codeId,
      sandboxCode: form.sandboxCode && t.sandboxCode.replace('{code}', form.sandboxCode),
      code: form.sandboxCode,
      error: form.error,
      newCodeHref: portalPath(merchant.organizationId, environment),
    });
  }

  overview(
    page: PageRequest,
    merchant: PortalMerchant,
    session: PortalSession,
    overview: PortalOverview,
    status: number,
    message?: { text: string; ok: boolean },
  ): void {
    const t = portalTexts(page);
    const lang = page.lang;
    const now = new Date();
    const base = `/portal/${merchant.organizationId}`;
    this.render(page, 'portal/overview', status, base, {
      pageTitle: `${t.title} · ${merchant.name}`,
      merchantName: merchant.name,
      testMode: session.environment === 'sandbox',
      message,
      returnUrl: session.returnUrl,
      csrf: page.csrfToken(sessionScope(session)),
      signOutAction: `${base}/sign-out`,
      subscriptions: overview.subscriptions.map((s) => {
        const shown = toSubscriptionJson(s, s.overdue).status;
        return {
          id: s.id,
          productName: s.productName,
          priceText: `${formatMru(s.priceAmount, lang)} ${t[s.priceInterval]}${s.quantity > 1 ? ` × ${s.quantity}` : ''}`,
          status: shown,
          statusText: t.statuses[shown],
          renews:
            s.status !== 'pending_cancellation' && s.nextBillingDate
              ? formatDate(s.nextBillingDate, lang)
              : undefined,
          endsText:
            s.status === 'pending_cancellation' && s.currentPeriodEnd
              ? t.endsOn.replace('{date}', formatDate(s.currentPeriodEnd, lang))
              : undefined,
          cancelAction:
            overview.allowCancel &&
            CANCELLABLE.has(s.status) &&
            s.currentPeriodEnd !== null &&
            s.currentPeriodEnd > now
              ? `${base}/subscriptions/${s.id}/cancel`
              : undefined,
        };
      }),
      invoices: overview.invoices.map((i) => ({
        id: i.id,
        productName: i.productName,
        number: i.number,
        amountText: formatMru(Number(i.amount), lang),
        status: i.status,
        statusText: t.invoiceStatuses[i.status],
        periodText: t.periodRange
          .replace('{start}', formatDate(i.periodStart, lang))
          .replace('{end}', formatDate(i.periodEnd, lang)),
        dueText: i.dueDate ? formatDate(i.dueDate, lang) : undefined,
        payHref: i.status === 'pending' ? `${invoicePagePath(i.id)}?lang=${lang}` : undefined,
      })),
    });
  }

  /** A page with a title and a sentence: not found, an expired link, signed out. */
  state(
    page: PageRequest,
    status: number,
    heading: keyof PortalTexts,
    body: keyof PortalTexts,
    back?: string,
  ): void {
    const t = portalTexts(page);
    this.render(page, 'portal/state', status, page.req.url.split('?')[0], {
      pageTitle: t[heading],
      heading: t[heading],
      message: t[body],
      back,
    });
  }

  private render(
    page: PageRequest,
    view: string,
    status: number,
    home: string,
    locals: Record<string, unknown>,
  ): void {
    const sep = home.includes('?') ? '&' : '?';
    const html = this.views.render(
      view,
      {
        ...locals,
        lang: page.lang,
        dir: direction(page.lang),
        t: portalTexts(page),
        nonce: page.nonce,
        languages: LANGUAGES.map((code) => ({
          code,
          name: PORTAL_TEXTS[code].languageName,
          href: `${home}${sep}lang=${code}`,
          current: code === page.lang,
        })),
      },
      'layouts/portal',
    );
    page.send(status, html);
  }
}

/** The CSRF scopes: the sign-in forms of a merchant's portal, and a signed-in session's forms. */
export const signInScope = (organizationId: string) => `portal-sign-in:${organizationId}`;
export const sessionScope = (session: PortalSession) => `portal:${session.id}`;
