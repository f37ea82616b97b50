import { domainErrors } from '../common/errors/app-error';
import { Messages } from '../common/errors/messages';

export enum PaymentLinkError {
  NotFound = 'payment_link_not_found',
  AmountLimitsWithAmount = 'payment_link_amount_limits_with_amount',
  MinAboveMax = 'payment_link_min_above_max',
  ExpiresAtPast = 'payment_link_expires_at_past',
}

export const paymentLinkError = domainErrors<PaymentLinkError>({
  [PaymentLinkError.NotFound]: [404, Messages.paymentLinkNotFound],
  [PaymentLinkError.AmountLimitsWithAmount]: [400, Messages.paymentLinkAmountLimitsWithAmount],
  [PaymentLinkError.MinAboveMax]: [400, Messages.paymentLinkMinAboveMax],
  [PaymentLinkError.ExpiresAtPast]: [400, Messages.paymentLinkExpiresAtPast],
});
