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
  NothingToChange = 'nothing_to_change',
  NotActive = 'subscription_not_active',
  ProrationNeedsSameInterval = 'proration_needs_same_interval',
  PriceNotActive = 'price_not_active',
  PeriodAmountTooLarge = 'period_amount_too_large',
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
  [SubscriptionError.NothingToChange]: [400, Messages.nothingToChange],
  [SubscriptionError.NotActive]: [409, Messages.subscriptionNotActive],
  [SubscriptionError.ProrationNeedsSameInterval]: [400, Messages.prorationNeedsSameInterval],
  [SubscriptionError.PriceNotActive]: [400, Messages.priceNotActive],
  [SubscriptionError.PeriodAmountTooLarge]: [400, Messages.periodAmountTooLarge],
});
