import { Get } from '@nestjs/common';
import { Post } from '../../common/http/routes';
import type { AdminTexts } from '../../common/i18n/admin-texts';
import { PasswordProblem, passwordProblem } from '../../organizations/users';
import { PageError, pageError } from '../../common/pages/page.errors';
import {
  OPERATOR_SESSION_COOKIE,
  OPERATOR_SESSION_MAX_SECONDS,
  OperatorSessions,
} from '../operator-sessions.service';
import { OperatorsService } from '../operators.service';
import { AdminPages } from './admin-pages';
import { Adm, AdminAccessIs, AdminRequest } from './admin-request';
import { AdminRenderer } from './admin.renderer';

function passwordProblemText(t: AdminTexts, problem: PasswordProblem): string {
  switch (problem) {
    case 'too-short':
      return t.passwordTooShort;
    case 'too-long':
      return t.passwordTooLong;
    case 'too-common':
      return t.passwordTooCommon;
  }
}

/**
 * Operators signing in (email, password and the current TOTP code), out, and changing their
 * password (at once after the first sign-in: the CLI's password works once).
 */
@AdminPages()
export class AdminAuthController {
  constructor(
    private readonly renderer: AdminRenderer,
    private readonly sessions: OperatorSessions,
    private readonly operators: OperatorsService,
  ) {}

  @Get('login')
  @AdminAccessIs('anonymous')
  loginPage(@Adm() a: AdminRequest): void {
    this.renderer.render(a, 'login', a.t.signInTitle, { email: '' });
  }

  /**
   * Success → 303 to /admin (or to the password page first); a wrong email, password or code →
   * 200, the form and one message for all three. Each try counts against the sign-in limits.
   */
  @Post('login')
  @AdminAccessIs('anonymous')
  async login(@Adm() a: AdminRequest): Promise<void> {
    const email = a.field('email').trim();
    const password = a.field('password');
    const code = a.field('code');
    const attempt = await this.sessions.reserveAttempt(email, a.ip);
    if (!attempt) throw pageError(PageError.TooManyAttempts);
    const operator = await this.operators.checkSignIn(email, password, code);
    if (!operator)
      return this.renderer.render(a, 'login', a.t.signInTitle, { email, error: a.t.invalidSignIn });
    await this.sessions.attemptSucceeded(attempt);
    // A new session (a new id: never one chosen before signing in).
    const token = await this.sessions.start(operator.id);
    a.page.setCookie(OPERATOR_SESSION_COOKIE, token, {
      httpOnly: true,
      sameSite: 'strict',
      maxAge: OPERATOR_SESSION_MAX_SECONDS,
    });
    a.page.redirect(operator.mustChangePassword ? '/admin/password' : '/admin');
  }

  @Post('logout')
  @AdminAccessIs('password')
  async logout(@Adm() a: AdminRequest): Promise<void> {
    await this.sessions.end(a.signedIn.sessionId);
    a.page.clearCookie(OPERATOR_SESSION_COOKIE);
    a.page.redirect('/admin/login');
  }

  @Get('password')
  @AdminAccessIs('password')
  passwordPage(@Adm() a: AdminRequest): void {
    this.renderPassword(a);
  }

  /** A new password; the operator's other sessions end. */
  @Post('password')
  @AdminAccessIs('password')
  async changePassword(@Adm() a: AdminRequest): Promise<void> {
    const { t } = a;
    const operator = a.signedIn;
    const current = a.field('currentPassword');
    const next = a.field('newPassword');
    if (next !== a.field('confirmPassword'))
      return this.renderPassword(a, { confirmPassword: t.passwordsDiffer });
    const problem = passwordProblem(next);
    if (problem) return this.renderPassword(a, { newPassword: passwordProblemText(t, problem) });
    if (next === current) return this.renderPassword(a, { newPassword: t.passwordSameAsOld });
    // Checking the current password is a sign-in attempt: limited the same way.
    const attempt = await this.sessions.reserveAttempt(operator.email, a.ip);
    if (!attempt) throw pageError(PageError.TooManyAttempts);
    if (!(await this.operators.changePassword(operator.operatorId, current, next)))
      return this.renderPassword(a, { currentPassword: t.wrongCurrentPassword });
    await this.sessions.attemptSucceeded(attempt);
    await this.sessions.endOthers(operator.operatorId, operator.sessionId);
    a.page.redirect('/admin?notice=passwordChanged');
  }

  private renderPassword(a: AdminRequest, errors: Record<string, string> = {}): void {
    const status = Object.keys(errors).length > 0 ? 400 : 200;
    this.renderer.render(
      a,
      'password',
      a.t.passwordTitle,
      { errors, mustChange: a.signedIn.mustChangePassword },
      status,
    );
  }
}
