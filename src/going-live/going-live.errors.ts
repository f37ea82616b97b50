import { domainErrors } from '../common/errors/app-error';
import { Messages } from '../common/errors/messages';

export enum GoLiveError {
  UnderReview = 'application_under_review',
  AlreadyVerified = 'already_verified',
  DocumentRequired = 'document_required',
  DocumentNotFound = 'document_not_found',
  NotVerified = 'payout_account_change_needs_verification',
}

export const goLiveError = domainErrors<GoLiveError>({
  [GoLiveError.UnderReview]: [409, Messages.applicationUnderReview],
  [GoLiveError.AlreadyVerified]: [409, Messages.alreadyVerified],
  [GoLiveError.DocumentRequired]: [400, Messages.documentRequired],
  [GoLiveError.DocumentNotFound]: [404, Messages.documentNotFound],
  [GoLiveError.NotVerified]: [409, Messages.payoutAccountChangeNeedsVerification],
});
