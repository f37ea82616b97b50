import { domainErrors } from '../common/errors/app-error';
import { Messages } from '../common/errors/messages';

/** Operators' actions refused (the /admin pages show them in the operator's language by code). */
export enum AdminError {
  ReasonRequired = 'rejection_reason_required',
  InvalidFeeRate = 'invalid_fee_rate',
  InvalidIban = 'invalid_iban',
  UnknownPayoutBank = 'unknown_payout_bank',
  InvalidPayoutHolder = 'invalid_payout_holder',
  NotUnderReview = 'application_not_under_review',
  NoPayoutAccountChange = 'no_payout_account_change',
  /** The console's guard and pages (its filter turns each into a page, or the sign-in redirect). */
  SignInRequired = 'admin_sign_in_required',
  PasswordChangeRequired = 'admin_password_change_required',
  SecurityCheck = 'admin_security_check',
  NotFound = 'admin_not_found',
  TooManyAttempts = 'admin_too_many_attempts',
  InvalidForm = 'admin_invalid_form',
}

export const adminError = domainErrors<AdminError>({
  [AdminError.ReasonRequired]: [400, Messages.rejectionReasonRequired],
  [AdminError.InvalidFeeRate]: [400, Messages.invalidFeeRate],
  [AdminError.InvalidIban]: [400, Messages.invalidIban],
  [AdminError.UnknownPayoutBank]: [400, Messages.unknownPayoutBank],
  [AdminError.InvalidPayoutHolder]: [400, Messages.invalidPayoutHolder],
  [AdminError.NotUnderReview]: [409, Messages.applicationNotUnderReview],
  [AdminError.NoPayoutAccountChange]: [409, Messages.noPayoutAccountChange],
  [AdminError.SignInRequired]: [303, Messages.signInRequired],
  [AdminError.PasswordChangeRequired]: [303, Messages.passwordChangeRequired],
  [AdminError.SecurityCheck]: [403, Messages.securityCheckFailed],
  [AdminError.NotFound]: [404, Messages.dashboardPageNotFound],
  [AdminError.TooManyAttempts]: [429, Messages.tooManySignInAttempts],
  [AdminError.InvalidForm]: [400, Messages.invalidForm],
});
