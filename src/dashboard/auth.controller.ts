import { Get, Param } from '@nestjs/common';
import { AppError } from '../common/errors/app-error';
import { Post } from '../common/http/routes';
import { OrganizationError } from '../organizations/organizations.errors';
import { ORGANIZATION_NAME_MAX } from '../platforms/dto/account.dto';
import { EmailTakenError, OrganizationsService } from '../organizations/organizations.service';
import type { EnvironmentKind } from '../organizations/tenant';
import { normalizeEmail, PasswordProblem, passwordProblem } from '../organizations/users';
import { UsersService } from '../organizations/users.service';
import { DashboardError, dashboardError } from './dashboard.errors';
import { DashboardRenderer, roleLabel } from './dashboard.renderer';
import { DashboardPages } from './dashboard-pages';
import { Dash, DashboardAccess, DashboardRequest } from './dashboard-request';
import type { DashboardTexts } from '../common/i18n/dashboard-texts';
import { fill, formatTime } from './format';
import { parseChoice, safeReturn } from './forms';
import { DashboardSessions, SESSION_COOKIE, SESSION_MAX_SECONDS } from './sessions.service';
import { isSandboxOnly } from './dashboard-surface';

export function passwordProblemText(t: DashboardTexts, problem: PasswordProblem): string {
  switch (problem) {
    case 'too-short':
      return t.passwordTooShort;
    case 'too-long':
      return t.passwordTooLong;
    case 'too-common':
      return t.passwordTooCommon;
  }
}

/** Signing up, in and out, invitations, the environment switch and one's own password. */
@DashboardPages()
export class DashboardAuthController {
  constructor(
    private readonly renderer: DashboardRenderer,
    private readonly sessions: DashboardSessions,
    private readonly users: UsersService,
    private readonly organizations: OrganizationsService,
  ) {}

  @Get('login')
  @DashboardAccess('anonymous')
  loginPage(@Dash() d: DashboardRequest): void {
    this.renderer.render(d, 'login', d.t.signInTitle, { email: '' });
  }

  /** Success → 303 to /dashboard; a wrong email or password → 200, the form and one message for both. */
  @Post('login')
  @DashboardAccess('anonymous')
  async login(@Dash() d: DashboardRequest): Promise<void> {
    const email = d.field('email').trim();
    const attempt = await this.sessions.reserveAttempt(email, d.ip);
    if (!attempt) throw dashboardError(DashboardError.TooManyAttempts);
    const user = await this.users.signIn(email, d.field('password'));
    if (!user) {
      return this.renderer.render(d, 'login', d.t.signInTitle, { email, error: d.t.invalidCredentials });
    }
    await this.sessions.attemptSucceeded(attempt);
    await this.signIn(d, user.id);
  }

  @Post('logout')
  @DashboardAccess('member')
  async logout(@Dash() d: DashboardRequest): Promise<void> {
    await this.sessions.end(d.signedIn.sessionId);
    d.page.clearCookie(SESSION_COOKIE);
    d.page.redirect('/dashboard/login');
  }

  @Get('signup')
  @DashboardAccess('anonymous')
  signUpPage(@Dash() d: DashboardRequest): void {
    this.renderer.render(d, 'signup', d.t.signUpTitle, { name: '', email: '' });
  }

  /** An organization with its two environments and its owner, then signed in. */
  @Post('signup')
  @DashboardAccess('anonymous')
  async signUp(@Dash() d: DashboardRequest): Promise<void> {
    const { t } = d;
    const name = d.field('name').trim();
    const emailInput = d.field('email').trim();
    const password = d.field('password');
    const again = (errors: Record<string, string>) =>
      this.renderer.render(d, 'signup', t.signUpTitle, { name, email: emailInput, errors });
    const email = normalizeEmail(emailInput);
    const errors: Record<string, string> = {};
    if (!name || name.length > ORGANIZATION_NAME_MAX) errors.name = t.nameRequired;
    if (!email) errors.email = t.invalidEmail;
    const problem = passwordProblem(password);
    if (problem) errors.password = passwordProblemText(t, problem);
    if (Object.keys(errors).length > 0) return again(errors);
    // Hashing the password is the expensive step: only within the sign-in limits.
    const attempt = await this.sessions.reserveAttempt(email!, d.ip);
    if (!attempt) throw dashboardError(DashboardError.TooManyAttempts);
    let userId: string;
    try {
      ({ userId } = await this.organizations.signUp({ name, email: email!, password }));
    } catch (err) {
      if (err instanceof EmailTakenError) return again({ email: t.emailTaken });
      throw err;
    }
    await this.sessions.attemptSucceeded(attempt);
    await this.signIn(d, userId);
  }

  @Get('invite/:token')
  @DashboardAccess('anonymous')
  async invitationPage(@Dash() d: DashboardRequest, @Param('token') token: string): Promise<void> {
    await this.showInvitation(d, token);
  }

  /** Creates the invited user (the link works once) and signs them in. */
  @Post('invite/:token')
  @DashboardAccess('anonymous')
  async acceptInvitation(@Dash() d: DashboardRequest, @Param('token') token: string): Promise<void> {
    const { t } = d;
    const password = d.field('password');
    const problem = passwordProblem(password);
    if (problem) return this.showInvitation(d, token, passwordProblemText(t, problem));
    let invitation;
    try {
      invitation = await this.users.invitation(token);
    } catch (err) {
      if (AppError.is(err, OrganizationError.InvitationNotFound)) return this.showInvitation(d, token);
      throw err;
    }
    // Hashing the password is the expensive step: only for a real invitation, within the sign-in limits.
    const attempt = await this.sessions.reserveAttempt(invitation.email, d.ip);
    if (!attempt) throw dashboardError(DashboardError.TooManyAttempts);
    let userId: string;
    try {
      userId = (await this.users.acceptInvitation(token, password)).id;
      await this.sessions.attemptSucceeded(attempt);
    } catch (err) {
      if (AppError.is(err, OrganizationError.InvitationNotFound)) return this.showInvitation(d, token);
      if (err instanceof EmailTakenError) return this.showInvitation(d, token, t.emailTaken);
      throw err;
    }
    await this.signIn(d, userId);
  }

  /** The environment shown is chosen per session; back to the same section, if it has one there. */
  @Post('environment')
  @DashboardAccess('member')
  async switchEnvironment(@Dash() d: DashboardRequest): Promise<void> {
    const environment = parseChoice<EnvironmentKind>(d.field('environment'), ['sandbox', 'production']);
    if (environment) await this.sessions.switchEnvironment(d.signedIn.sessionId, environment);
    const back = safeReturn(d.field('return'), '/dashboard');
    // Test clocks have no Production page: Production's home instead.
    d.page.redirect(environment === 'production' && isSandboxOnly(back) ? '/dashboard' : back);
  }

  @Get('account')
  account(@Dash() d: DashboardRequest): void {
    this.renderAccount(d);
  }

  /** A new password; every other session of the user ends. */
  @Post('account/password')
  @DashboardAccess('member')
  async changePassword(@Dash() d: DashboardRequest): Promise<void> {
    const { t } = d;
    const user = d.signedIn;
    // Every field is read (and so checked as storable) before any rule answers.
    const current = d.field('currentPassword');
    const next = d.field('newPassword');
    if (next !== d.field('confirmPassword'))
      return this.renderAccount(d, { confirmPassword: t.passwordsDiffer });
    const problem = passwordProblem(next);
    if (problem) return this.renderAccount(d, { newPassword: passwordProblemText(t, problem) });
    // Checking the current password is a sign-in attempt: limited the same way.
    const attempt = await this.sessions.reserveAttempt(user.email, d.ip);
    if (!attempt) throw dashboardError(DashboardError.TooManyAttempts);
    try {
      await this.users.changePassword(user.userId, current, next);
    } catch (err) {
      if (AppError.is(err, OrganizationError.WrongCurrentPassword))
        return this.renderAccount(d, { currentPassword: t.wrongCurrentPassword });
      throw err;
    }
    await this.sessions.attemptSucceeded(attempt);
    await this.sessions.endOthers(user.userId, user.sessionId);
    this.renderAccount(d, {}, t.passwordChanged);
  }

  private renderAccount(d: DashboardRequest, errors: Record<string, string> = {}, success?: string): void {
    const user = d.signedIn;
    this.renderer.render(d, 'account', d.t.accountTitle, {
      email: user.email,
      role: roleLabel(d.t, user.role),
      errors,
      success,
    });
  }

  private async showInvitation(d: DashboardRequest, token: string, error?: string): Promise<void> {
    const { t } = d;
    let invitation;
    try {
      invitation = await this.users.invitation(token);
    } catch (err) {
      if (!AppError.is(err, OrganizationError.InvitationNotFound)) throw err;
      return this.renderer.error(d, 404, t.inviteInvalidTitle, t.inviteInvalidBody);
    }
    const values = { organization: invitation.organizationName, role: roleLabel(t, invitation.role) };
    this.renderer.render(d, 'invite', fill(t.inviteTitle, values), {
      heading: fill(t.inviteTitle, values),
      intro: fill(t.inviteBody, values),
      email: invitation.email,
      expires: formatTime(invitation.expiresAt, d.page.lang),
      action: `/dashboard/invite/${encodeURIComponent(token)}`,
      error,
    });
  }

  /** A new session (a new id: never one chosen before signing in), then home. */
  private async signIn(d: DashboardRequest, userId: string): Promise<void> {
    const token = await this.sessions.start(userId);
    d.page.setCookie(SESSION_COOKIE, token, { httpOnly: true, sameSite: 'lax', maxAge: SESSION_MAX_SECONDS });
    d.page.redirect('/dashboard');
  }
}
