import { Injectable } from '@nestjs/common';
import { Views } from '../common/http/views';
import { AppConfig } from '../config/config';
import { formatDate, formatMru } from '../common/i18n/languages';
import type { PortalTexts } from '../common/i18n/portal-texts';
import { PageRenderer } from '../common/pages/page.renderer';
import { customerPortalPath, invoicePagePath } from '../invoices/invoice';
import type { EnvironmentKind } from '../organizations/tenant';
import { toSubscriptionJson } from '../subscriptions/subscription';
import type { PortalOverview } from './portal.service';
import { PortalRequest, PortalSurface } from './portal-surface';

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
 * Renders the customer portal's pages (views/portal/ in layouts/portal) with the page kit's
 * renderer: the phone form, the code form, the customer's subscriptions and invoices, and the
 * not-found and expired-link states. No script: every action is a form post with its CSRF token.
 * The language links lead to the portal's home (a form's action is no page).
 */
@Injectable()
export class PortalRenderer extends PageRenderer<PortalRequest> {
  constructor(
    views: Views,
    surface: PortalSurface,
    private readonly config: AppConfig,
  ) {
    super(views, surface);
  }

  /** Production's codes go by SMS: without a gateway none can arrive, and the pages say so. */
  private get smsGateway(): boolean {
    return this.config.SMS_GATEWAY_URL !== undefined;
  }

  phoneForm(p: PortalRequest, environment: EnvironmentKind, status: number, form: SignInForm): void {
    const { t, merchant } = p;
    this.page(p, 'phone', status, customerPortalPath(merchant.organizationId, environment), {
      pageTitle: `${t.signInTitle} · ${merchant.name}`,
      merchantName: merchant.name,
      testMode: environment === 'sandbox',
      environment,
      action: `/portal/${merchant.organizationId}/code`,
      noSmsGateway: environment === 'production' && !this.smsGateway,
      // Production's form says where Sandbox's customers sign in (the same page, ?environment=sandbox).
      sandboxHref: environment === 'production' && customerPortalPath(merchant.organizationId, 'sandbox'),
      phone: form.phone ?? '',
      error: form.error,
    });
  }

  codeForm(p: PortalRequest, environment: EnvironmentKind, status: number, form: SignInForm): void {
    const { t, merchant } = p;
    this.page(p, 'code', status, customerPortalPath(merchant.organizationId, environment), {
      pageTitle: `${t.codeTitle} · ${merchant.name}`,
      merchantName: merchant.name,
      testMode: environment === 'sandbox',
      environment,
      action: `/portal/${merchant.organizationId}/sign-in`,
      codeId: form.codeId,
      sandboxCode: form.sandboxCode && t.sandboxCode.replace('{code}', form.sandboxCode),
      noSmsGateway: environment === 'production' && !this.smsGateway,
      code: form.sandboxCode,
      error: form.error,
      newCodeHref: customerPortalPath(merchant.organizationId, environment),
    });
  }

  overview(
    p: PortalRequest,
    overview: PortalOverview,
    status: number,
    message?: { text: string; ok: boolean },
  ): void {
    const { t, merchant, lang } = p;
    const session = p.signedIn;
    const now = new Date();
    const base = `/portal/${merchant.organizationId}`;
    this.page(p, 'overview', status, base, {
      pageTitle: `${t.title} · ${merchant.name}`,
      merchantName: merchant.name,
      testMode: session.environment === 'sandbox',
      message,
      returnUrl: session.returnUrl,
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
        // What the coupon and the customer's credit took off, shown only when they took something.
        discountText: Number(i.discount) > 0 ? `−${formatMru(Number(i.discount), lang)}` : undefined,
        creditText: Number(i.creditApplied) > 0 ? `−${formatMru(Number(i.creditApplied), lang)}` : undefined,
        status: i.status,
        statusText: t.invoiceStatuses[i.status],
        periodText: t.periodRange
          .replace('{start}', formatDate(i.periodStart, lang))
          .replace('{end}', formatDate(i.periodEnd, lang)),
        dueText: i.dueDate ? formatDate(i.dueDate, lang) : undefined,
        payHref: i.status === 'pending' ? `${invoicePagePath(i.id)}?lang=${lang}` : undefined,
        // The invoice page's public PDF, in the portal's language, whatever the invoice's status.
        pdfHref: `${invoicePagePath(i.id)}/pdf?lang=${lang}`,
      })),
    });
  }

  /** A page with a title and a sentence: not found, an expired link, signed out. */
  state(
    p: PortalRequest,
    status: number,
    heading: keyof PortalTexts,
    body: keyof PortalTexts,
    back?: string,
  ): void {
    const { t } = p;
    this.page(p, 'state', status, p.path, {
      pageTitle: t[heading],
      heading: t[heading],
      message: t[body],
      back,
    });
  }

  private page(
    p: PortalRequest,
    view: string,
    status: number,
    home: string,
    locals: Record<string, unknown>,
  ): void {
    p.languageBase = home;
    this.render(p, view, String(locals.pageTitle), locals, status);
  }
}
