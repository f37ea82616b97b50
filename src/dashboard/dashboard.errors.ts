import { domainErrors } from '../common/errors/app-error';
import { Messages } from '../common/errors/messages';

/** What the dashboard's guard and pages refuse; its filter turns each into a page (or the sign-in redirect). */
export enum DashboardError {
  SignInRequired = 'dashboard_sign_in_required',
  SecurityCheck = 'dashboard_security_check',
  Forbidden = 'dashboard_forbidden',
  NotFound = 'dashboard_not_found',
  TooManyAttempts = 'dashboard_too_many_attempts',
  InvalidForm = 'dashboard_invalid_form',
}

export const dashboardError = domainErrors<DashboardError>({
  [DashboardError.SignInRequired]: [303, Messages.signInRequired],
  [DashboardError.SecurityCheck]: [403, Messages.securityCheckFailed],
  [DashboardError.Forbidden]: [403, Messages.viewerCannotChange],
  [DashboardError.NotFound]: [404, Messages.dashboardPageNotFound],
  [DashboardError.TooManyAttempts]: [429, Messages.tooManySignInAttempts],
  [DashboardError.InvalidForm]: [400, Messages.invalidForm],
});
