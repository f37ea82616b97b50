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
}

export const adminError = domainErrors<AdminError>({
  [AdminError.ReasonRequired]: [400, Messages.rejectionReasonRequired],
  [AdminError.InvalidFeeRate]: [400, Messages.invalidFeeRate],
  [AdminError.InvalidIban]: [400, Messages.invalidIban],
  [AdminError.UnknownPayoutBank]: [400, Messages.unknownPayoutBank],
  [AdminError.InvalidPayoutHolder]: [400, Messages.invalidPayoutHolder],
  [AdminError.NotUnderReview]: [409, Messages.applicationNotUnderReview],
  [AdminError.NoPayoutAccountChange]: [409, Messages.noPayoutAccountChange],
});
