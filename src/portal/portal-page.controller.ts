import { Controller, Get, OnModuleInit, Param, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { isUUID } from 'class-validator';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Public } from '../auth/decorators';
import { PageRequest, PageSurface } from '../common/http/pages';
import { Post } from '../common/http/routes';
import { LANGUAGES } from '../common/i18n/languages';
import { normalizePhone } from '../common/validation/rules';
import { AppConfig } from '../config/config';
import type { EnvironmentKind } from '../organizations/tenant';
import type { PortalSession } from './portal.repository';
import { portalPath, PortalRenderer, portalTexts, sessionScope, signInScope } from './portal.renderer';
import { PortalMerchant, PortalService } from './portal.service';

/** The cookie of a signed-in customer: a session's token, on /portal. */
export const PORTAL_COOKIE = 'khoums_portal';

type Form = Record<string, unknown>;
const field = (form: Form, name: string): string => (typeof form[name] === 'string' ? form[name] : '');
const environmentOf = (value: unknown): EnvironmentKind => (value === 'sandbox' ? 'sandbox' : 'production');

/**
 * The customer portal's pages (docs/billing.md "Customer portal"): `/portal/link/<token>` signs a
 * customer in from a merchant's link; `/portal/<organizationId>` asks for a phone and a code sent
 * by SMS (Production; `?environment=sandbox` for Sandbox), then lists the customer's subscriptions
 * and invoices of the session's environment. Its own cookies on /portal; CSRF on every form.
 */
@ApiExcludeController()
@Public()
@Controller('portal')
export class PortalPageController implements OnModuleInit {
  private surface!: PageSurface;

  constructor(
    private readonly service: PortalService,
    private readonly renderer: PortalRenderer,
    private readonly config: AppConfig,
  ) {}

  async onModuleInit(): Promise<void> {
    this.surface = {
      path: '/portal',
      languages: LANGUAGES,
      languageCookie: 'khoums_portal_lang',
      csrfSecret: await this.service.csrfSecret(),
      secure: this.config.publicUrl.startsWith('https:'),
    };
  }

  /** A merchant's link: signs its customer in (its session's token becomes the cookie), then home. */
  @Get('link/:token')
  async link(
    @Param('token') token: string,
    @Req() req: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const page = new PageRequest(this.surface, req, reply);
    const session = await this.service.session(token);
    if (!session) return this.renderer.state(page, 410, 'linkExpiredTitle', 'linkExpiredBody');
    this.signIn(page, token, session);
    page.redirect(`/portal/${session.organizationId}`);
  }

  @Get(':organizationId')
  async home(
    @Param('organizationId') organizationId: string,
    @Req() req: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const page = new PageRequest(this.surface, req, reply);
    const merchant = await this.merchant(page, organizationId);
    if (!merchant) return;
    const query = (req.query ?? {}) as Form;
    const session = await this.signedIn(page, merchant);
    if (!session) {
      if (query.notice === 'signed-out')
        return this.renderer.state(page, 200, 'title', 'signedOut', portalPath(merchant.organizationId));
      return this.renderer.phoneForm(page, merchant, environmentOf(query.environment), 200, {});
    }
    const t = portalTexts(page);
    const message = query.notice === 'cancelled' ? { text: t.cancelled, ok: true } : undefined;
    this.renderer.overview(page, merchant, session, await this.service.overview(session), 200, message);
  }

  /** The phone form: a code for the phone (sent by SMS, or shown in Sandbox), then the code form. */
  @Post(':organizationId/code')
  async requestCode(
    @Param('organizationId') organizationId: string,
    @Req() req: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const opened = await this.open(organizationId, req, reply);
    if (!opened) return;
    const { page, merchant, form } = opened;
    const t = portalTexts(page);
    const environment = environmentOf(form.environment);
    const typed = field(form, 'phone');
    const showPhoneForm = (status: number, error: string) =>
      this.renderer.phoneForm(page, merchant, environment, status, { phone: typed, error });
    if (!page.csrfValid(signInScope(organizationId), form._csrf)) return showPhoneForm(403, t.securityCheck);
    const phone = normalizePhone(typed);
    if (!phone) return showPhoneForm(400, t.invalidPhone);
    const sms = (code: string) => t.smsText.replace('{merchant}', merchant.name).replace('{code}', code);
    const result = await this.service.requestCode(merchant, environment, phone, sms);
    switch (result.kind) {
      case 'too-many':
        return showPhoneForm(429, t.tooManyCodes);
      case 'sent':
        return this.renderer.codeForm(page, merchant, environment, 200, {
          codeId: result.codeId,
          sandboxCode: result.sandboxCode,
        });
    }
  }

  /** The code form: a right code signs in; each try counts. */
  @Post(':organizationId/sign-in')
  async checkCode(
    @Param('organizationId') organizationId: string,
    @Req() req: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const opened = await this.open(organizationId, req, reply);
    if (!opened) return;
    const { page, merchant, form } = opened;
    const t = portalTexts(page);
    const environment = environmentOf(form.environment);
    const codeId = field(form, 'codeId');
    const showCodeForm = (status: number, error: string) =>
      this.renderer.codeForm(page, merchant, environment, status, { codeId, error });
    if (!page.csrfValid(signInScope(organizationId), form._csrf)) return showCodeForm(403, t.securityCheck);
    const code = field(form, 'code').trim();
    if (!/^\d{6}$/.test(code)) return showCodeForm(400, t.invalidCode);
    if (!isUUID(codeId)) return showCodeForm(400, t.deadCode);
    const result = await this.service.checkCode(merchant, codeId, code);
    switch (result.kind) {
      case 'wrong':
        return showCodeForm(400, t.wrongCode);
      case 'dead':
        return showCodeForm(400, t.deadCode);
      case 'signed-in':
        this.signIn(page, result.token, result.session);
        return page.redirect(`/portal/${organizationId}`);
    }
  }

  /** Cancels one of the customer's subscriptions at period end, when the merchant allows it. */
  @Post(':organizationId/subscriptions/:id/cancel')
  async cancel(
    @Param('organizationId') organizationId: string,
    @Param('id') id: string,
    @Req() req: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const opened = await this.open(organizationId, req, reply);
    if (!opened) return;
    const { page, merchant, form } = opened;
    const session = await this.signedIn(page, merchant);
    if (!session) return page.redirect(portalPath(organizationId));
    const t = portalTexts(page);
    const showOverview = async (status: number, text: string) =>
      this.renderer.overview(page, merchant, session, await this.service.overview(session), status, {
        text,
        ok: false,
      });
    if (!page.csrfValid(sessionScope(session), form._csrf)) return showOverview(403, t.securityCheck);
    const result = isUUID(id) ? await this.service.cancelAtPeriodEnd(session, id) : 'not-found';
    switch (result) {
      case 'not-found':
        return this.renderer.state(page, 404, 'notFoundTitle', 'notFoundBody', portalPath(organizationId));
      case 'not-allowed':
        return showOverview(403, t.cancelNotAllowed);
      case 'cancelled':
        return page.redirect(`/portal/${organizationId}?notice=cancelled`);
    }
  }

  @Post(':organizationId/sign-out')
  async signOut(
    @Param('organizationId') organizationId: string,
    @Req() req: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const opened = await this.open(organizationId, req, reply);
    if (!opened) return;
    const { page, merchant, form } = opened;
    const session = await this.signedIn(page, merchant);
    if (!session) return page.redirect(portalPath(organizationId));
    if (!page.csrfValid(sessionScope(session), form._csrf)) {
      return this.renderer.overview(page, merchant, session, await this.service.overview(session), 403, {
        text: portalTexts(page).securityCheck,
        ok: false,
      });
    }
    await this.service.signOut(session);
    page.clearCookie(PORTAL_COOKIE);
    page.redirect(`/portal/${organizationId}?notice=signed-out`);
  }

  /** The session's token in the cookie until the session ends. */
  private signIn(page: PageRequest, token: string, session: PortalSession): void {
    page.setCookie(PORTAL_COOKIE, token, {
      maxAge: (session.expiresAt.getTime() - Date.now()) / 1000,
      httpOnly: true,
      sameSite: 'lax',
    });
  }

  /** The cookie's session, when it is of this merchant's portal. */
  private async signedIn(page: PageRequest, merchant: PortalMerchant): Promise<PortalSession | undefined> {
    const session = await this.service.session(page.cookies[PORTAL_COOKIE]);
    return session?.organizationId === merchant.organizationId ? session : undefined;
  }

  /** A portal request of the merchant `organizationId` with its form, or undefined once its 404 page is rendered. */
  private async open(
    organizationId: string,
    req: FastifyRequest,
    reply: FastifyReply,
  ): Promise<{ page: PageRequest; merchant: PortalMerchant; form: Form } | undefined> {
    const page = new PageRequest(this.surface, req, reply);
    const merchant = await this.merchant(page, organizationId);
    return merchant && { page, merchant, form: (req.body ?? {}) as Form };
  }

  /** The organization, or a rendered 404 page (also for ids that are not UUIDs). */
  private async merchant(page: PageRequest, organizationId: string): Promise<PortalMerchant | undefined> {
    const merchant = isUUID(organizationId) ? await this.service.merchant(organizationId) : undefined;
    if (!merchant) this.renderer.state(page, 404, 'notFoundTitle', 'notFoundBody');
    return merchant;
  }
}
