import { domainErrors } from '../common/errors/app-error';
import { Messages } from '../common/errors/messages';

export enum SubscriptionError {
  NotFound = 'subscription_not_found',
  TrialNeedsPeriodOrEnd = 'trial_needs_period_or_end',
  TrialEndNotAfterStart = 'trial_end_not_after_start',
  ExpiresAtNotAfterStart = 'expires_at_not_after_start',
  StartTooFarInPast = 'start_too_far_in_past',
  CannotBePaused = 'subscription_cannot_be_paused',
  CannotBeResumed = 'subscription_cannot_be_resumed',
  TrialWithFirstPayment = 'trial_with_first_payment',
}

export const subscriptionError = domainErrors<SubscriptionError>({
  [SubscriptionError.NotFound]: [404, Messages.subscriptionNotFound],
  [SubscriptionError.TrialNeedsPeriodOrEnd]: [400, Messages.trialNeedsPeriodOrEnd],
  [SubscriptionError.TrialEndNotAfterStart]: [400, Messages.trialEndNotAfterStart],
  [SubscriptionError.ExpiresAtNotAfterStart]: [400, Messages.expiresAtNotAfterStart],
  [SubscriptionError.StartTooFarInPast]: [400, Messages.startTooFarInPast],
  [SubscriptionError.CannotBePaused]: [409, Messages.subscriptionCannotBePaused],
  [SubscriptionError.CannotBeResumed]: [409, Messages.subscriptionCannotBeResumed],
  [SubscriptionError.TrialWithFirstPayment]: [400, Messages.trialWithFirstPayment],
});
