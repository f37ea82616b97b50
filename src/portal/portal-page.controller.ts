import { applyDecorators, Get, Param } from '@nestjs/common';
import { isUUID } from 'class-validator';
import { Public } from '../auth/decorators';
import { Post } from '../common/http/routes';
import { Pages } from '../common/pages/pages.decorator';
import { normalizePhone } from '../common/validation/rules';
import { customerPortalPath } from '../invoices/invoice';
import type { EnvironmentKind } from '../organizations/tenant';
import type { PortalSession } from './portal.repository';
import { PortalRenderer } from './portal.renderer';
import { PortalService } from './portal.service';
import { Portal, PORTAL_COOKIE, PortalAccessIs, PortalRequest, PortalSurface } from './portal-surface';

export { PORTAL_COOKIE } from './portal-surface';

const environmentOf = (value: unknown): EnvironmentKind => (value === 'sandbox' ? 'sandbox' : 'production');

/** The portal's pages: no API key (the customer's own session instead), on the page kit. */
const PortalPages = () => applyDecorators(Public(), Pages(PortalSurface, 'portal'));

/**
 * The customer portal's pages (docs/billing.md "Customer portal"): `/portal/link/<token>` signs a
 * customer in from a merchant's link; `/portal/<organizationId>` asks for a phone and a code sent
 * by SMS (Production; `?environment=sandbox` for Sandbox), then lists the customer's subscriptions
 * and invoices of the session's environment. The kit's guard finds the merchant (404 page) and the
 * session, and checks the CSRF token of every form (403 page) before a handler runs.
 */
@PortalPages()
export class PortalPageController {
  constructor(
    private readonly service: PortalService,
    private readonly renderer: PortalRenderer,
  ) {}

  /** A merchant's link: signs its customer in (its session's token becomes the cookie), then home. */
  @Get('link/:token')
  @PortalAccessIs('link')
  async link(@Portal() p: PortalRequest, @Param('token') token: string): Promise<void> {
    const session = await this.service.session(token);
    if (!session) return this.renderer.state(p, 410, 'linkExpiredTitle', 'linkExpiredBody');
    this.signIn(p, token, session);
    p.page.redirect(`/portal/${session.organizationId}`);
  }

  @Get(':organizationId')
  async home(@Portal() p: PortalRequest): Promise<void> {
    const { merchant, t } = p;
    if (!p.user) {
      if (p.query('notice') === 'signed-out')
        return this.renderer.state(p, 200, 'title', 'signedOut', customerPortalPath(merchant.organizationId));
      return this.renderer.phoneForm(p, environmentOf(p.query('environment')), 200, {});
    }
    const message = p.query('notice') === 'cancelled' ? { text: t.cancelled, ok: true } : undefined;
    this.renderer.overview(p, await this.service.overview(p.user), 200, message);
  }

  /** The phone form: a code for the phone (sent by SMS, or shown in Sandbox), then the code form. */
  @Post(':organizationId/code')
  @PortalAccessIs('sign-in')
  async requestCode(@Portal() p: PortalRequest): Promise<void> {
    const { t, merchant } = p;
    const environment = environmentOf(p.field('environment'));
    const typed = p.field('phone');
    const showPhoneForm = (status: number, error: string) =>
      this.renderer.phoneForm(p, environment, status, { phone: typed, error });
    const phone = normalizePhone(typed);
    if (!phone) return showPhoneForm(400, t.invalidPhone);
    const sms = (code: string) => t.smsText.replace('{merchant}', merchant.name).replace('{code}', code);
    const result = await this.service.requestCode(merchant, environment, phone, sms);
    switch (result.kind) {
      case 'too-many':
        return showPhoneForm(429, t.tooManyCodes);
      case 'sent':
        return this.renderer.codeForm(p, environment, 200, {
          codeId: result.codeId,
          sandboxCode: result.sandboxCode,
        });
    }
  }

  /** The code form: a right code signs in; each try counts. */
  @Post(':organizationId/sign-in')
  @PortalAccessIs('sign-in')
  async checkCode(@Portal() p: PortalRequest): Promise<void> {
    const { t, merchant } = p;
    const environment = environmentOf(p.field('environment'));
    const codeId = p.field('codeId');
    const showCodeForm = (status: number, error: string) =>
      this.renderer.codeForm(p, environment, status, { codeId, error });
    const code = p.field('code').trim();
    if (!/^\d{6}$/.test(code)) return showCodeForm(400, t.invalidCode);
    if (!isUUID(codeId)) return showCodeForm(400, t.deadCode);
    const result = await this.service.checkCode(merchant, codeId, code);
    switch (result.kind) {
      case 'wrong':
        return showCodeForm(400, t.wrongCode);
      case 'dead':
        return showCodeForm(400, t.deadCode);
      case 'signed-in':
        this.signIn(p, result.token, result.session);
        return p.page.redirect(`/portal/${merchant.organizationId}`);
    }
  }

  /** Cancels one of the customer's subscriptions at period end, when the merchant allows it. */
  @Post(':organizationId/subscriptions/:id/cancel')
  @PortalAccessIs('customer')
  async cancel(@Portal() p: PortalRequest, @Param('id') id: string): Promise<void> {
    const session = p.signedIn;
    const organizationId = p.merchant.organizationId;
    const result = isUUID(id) ? await this.service.cancelAtPeriodEnd(session, id) : 'not-found';
    switch (result) {
      case 'not-found':
        return this.renderer.state(
          p,
          404,
          'notFoundTitle',
          'notFoundBody',
          customerPortalPath(organizationId),
        );
      case 'not-allowed':
        return this.renderer.overview(p, await this.service.overview(session), 403, {
          text: p.t.cancelNotAllowed,
          ok: false,
        });
      case 'cancelled':
        return p.page.redirect(`/portal/${organizationId}?notice=cancelled`);
    }
  }

  @Post(':organizationId/sign-out')
  @PortalAccessIs('customer')
  async signOut(@Portal() p: PortalRequest): Promise<void> {
    await this.service.signOut(p.signedIn);
    p.page.clearCookie(PORTAL_COOKIE);
    p.page.redirect(`/portal/${p.merchant.organizationId}?notice=signed-out`);
  }

  /** The session's token in the cookie until the session ends. */
  private signIn(p: PortalRequest, token: string, session: PortalSession): void {
    p.page.setCookie(PORTAL_COOKIE, token, {
      maxAge: (session.expiresAt.getTime() - Date.now()) / 1000,
      httpOnly: true,
      sameSite: 'lax',
    });
  }
}
