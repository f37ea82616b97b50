import { domainErrors } from '../common/errors/app-error';
import { Messages } from '../common/errors/messages';

export enum CheckoutError {
  NotFound = 'checkout_session_not_found',
  NotOpen = 'checkout_session_not_open',
  EitherPaymentRequestOrTransaction = 'either_payment_request_or_transaction',
  AmountRequiredForNewTransaction = 'amount_required_for_new_transaction',
  /** The public checkout's pay: no phone in the body and none on the payment request. */
  PhoneNumberRequired = 'phone_number_required',
}

export const checkoutError = domainErrors<CheckoutError>({
  [CheckoutError.NotFound]: [404, Messages.checkoutSessionNotFound],
  [CheckoutError.NotOpen]: [409, Messages.checkoutSessionNotOpen],
  [CheckoutError.EitherPaymentRequestOrTransaction]: [400, Messages.eitherPaymentRequestOrTransaction],
  [CheckoutError.AmountRequiredForNewTransaction]: [400, Messages.amountRequiredForNewTransaction],
  [CheckoutError.PhoneNumberRequired]: [400, Messages.phoneNumberRequired],
});
