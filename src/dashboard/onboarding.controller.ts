import { Get, Param } from '@nestjs/common';
import { ONBOARDING_TEXTS } from '../common/i18n/onboarding-texts';
import { Post } from '../common/http/routes';
import type { OnboardingLink } from '../organizations/connected-accounts.repository';
import { ConnectedAccountsService } from '../organizations/connected-accounts.service';
import { passwordProblem } from '../organizations/users';
import { passwordProblemText } from './auth.controller';
import { DashboardError, dashboardError } from './dashboard.errors';
import { DashboardRenderer } from './dashboard.renderer';
import { DashboardPages } from './dashboard-pages';
import { Dash, DashboardAccess, DashboardRequest } from './dashboard-request';
import { fill } from './format';
import { DashboardSessions, SESSION_COOKIE, SESSION_MAX_SECONDS } from './sessions.service';

/** Remembers, for the go-live form, which onboarding link the merchant came by (its id, not its token). */
export const ONBOARDING_COOKIE = 'khoums_onboarding';

/**
 * The page a platform's onboarding link opens (docs/platforms.md): the merchant of a connected
 * account sets their password (the link works once, for an hour), is signed in and sent to the
 * go-live page; once they applied there, they land on the platform's `returnUrl`. A used or expired
 * link sends them to its `refreshUrl`; a link for an account whose owner has a password says the
 * account is set up and changes nothing.
 */
@DashboardPages('onboarding')
export class OnboardingController {
  constructor(
    private readonly renderer: DashboardRenderer,
    private readonly sessions: DashboardSessions,
    private readonly accounts: ConnectedAccountsService,
  ) {}

  @Get(':token')
  @DashboardAccess('anonymous')
  async page(@Dash() d: DashboardRequest, @Param('token') token: string): Promise<void> {
    const link = await this.usableLink(d, token);
    if (link) this.show(d, token, link);
  }

  @Post(':token')
  @DashboardAccess('anonymous')
  async setPassword(@Dash() d: DashboardRequest, @Param('token') token: string): Promise<void> {
    const password = d.field('password');
    const link = await this.usableLink(d, token);
    if (!link) return;
    const problem = passwordProblem(password);
    if (problem) return this.show(d, token, link, passwordProblemText(d.t, problem));
    // Hashing the password is the expensive step: within the sign-in limits.
    const attempt = await this.sessions.reserveAttempt(link.email, d.ip);
    if (!attempt) throw dashboardError(DashboardError.TooManyAttempts);
    const owner = await this.accounts.completeOnboarding(link, password);
    await this.sessions.attemptSucceeded(attempt);
    // Used (or expired), or the account set up, by another request meanwhile: as if on arrival.
    if (owner === 'spent') return d.page.redirect(link.refreshUrl);
    if (owner === 'set-up') return this.showSetUp(d, link);
    const session = await this.sessions.start(owner.userId);
    d.page.setCookie(SESSION_COOKIE, session, {
      httpOnly: true,
      sameSite: 'lax',
      maxAge: SESSION_MAX_SECONDS,
    });
    d.page.setCookie(ONBOARDING_COOKIE, link.id, {
      httpOnly: true,
      sameSite: 'lax',
      maxAge: SESSION_MAX_SECONDS,
    });
    d.page.redirect('/dashboard/go-live');
  }

  /** The link when it can still be used; otherwise the answer is sent (its refreshUrl, or 404). */
  private async usableLink(d: DashboardRequest, token: string): Promise<OnboardingLink | undefined> {
    const link = token.length <= 100 ? await this.accounts.onboardingLink(token) : undefined;
    if (!link) {
      const t = ONBOARDING_TEXTS[d.lang];
      this.renderer.error(d, 404, t.invalidTitle, t.invalidBody);
      return undefined;
    }
    if (link.spent) {
      d.page.redirect(link.refreshUrl);
      return undefined;
    }
    if (link.passwordSet) {
      this.showSetUp(d, link);
      return undefined;
    }
    return link;
  }

  /**
   * The account's owner has a password already: a link never replaces it (whoever holds the link
   * is not necessarily the owner). The page says so and links to sign-in; nothing changes, the
   * link included.
   */
  private showSetUp(d: DashboardRequest, link: OnboardingLink): void {
    const t = ONBOARDING_TEXTS[d.lang];
    this.renderer.render(d, 'onboarding', t.setUpTitle, {
      heading: t.setUpTitle,
      setUp: fill(t.setUpBody, { organization: link.organizationName }),
      signIn: t.signIn,
    });
  }

  private show(d: DashboardRequest, token: string, link: OnboardingLink, error?: string): void {
    const t = ONBOARDING_TEXTS[d.lang];
    this.renderer.render(d, 'onboarding', t.title, {
      heading: t.title,
      intro: fill(t.intro, { platform: link.platformName ?? 'Khoums', organization: link.organizationName }),
      email: link.email,
      submit: t.submit,
      action: `/dashboard/onboarding/${encodeURIComponent(token)}`,
      error,
    });
  }
}
