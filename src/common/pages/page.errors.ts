import { domainErrors } from '../errors/app-error';
import { Messages } from '../errors/messages';

/**
 * What a page surface's guard and pages refuse; the kit's filter turns each into the surface's page
 * (or a redirect: to the sign-in page, to the password page an operator owes).
 */
export enum PageError {
  SignInRequired = 'page_sign_in_required',
  PasswordChangeRequired = 'page_password_change_required',
  SecurityCheck = 'page_security_check',
  Forbidden = 'page_forbidden',
  NotFound = 'page_not_found',
  TooManyAttempts = 'page_too_many_attempts',
  InvalidForm = 'page_invalid_form',
}

export const pageError = domainErrors<PageError>({
  [PageError.SignInRequired]: [303, Messages.signInRequired],
  [PageError.PasswordChangeRequired]: [303, Messages.passwordChangeRequired],
  [PageError.SecurityCheck]: [403, Messages.securityCheckFailed],
  [PageError.Forbidden]: [403, Messages.viewerCannotChange],
  [PageError.NotFound]: [404, Messages.dashboardPageNotFound],
  [PageError.TooManyAttempts]: [429, Messages.tooManySignInAttempts],
  [PageError.InvalidForm]: [400, Messages.invalidForm],
});
