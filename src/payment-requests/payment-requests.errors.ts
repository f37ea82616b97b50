import { domainErrors } from '../common/errors/app-error';
import { Messages } from '../common/errors/messages';

export enum PaymentRequestError {
  NotFound = 'payment_request_not_found',
  TransactionIdTaken = 'transaction_id_taken',
  AlreadyPaid = 'payment_request_already_paid',
  Void = 'payment_request_void',
  ApplicationFeeNeedsAccount = 'application_fee_needs_account',
  ApplicationFeeExceedsAmount = 'application_fee_exceeds_amount',
}

export const paymentRequestError = domainErrors<PaymentRequestError>({
  [PaymentRequestError.NotFound]: [404, Messages.paymentRequestNotFound],
  [PaymentRequestError.TransactionIdTaken]: [409, Messages.transactionIdTaken],
  [PaymentRequestError.AlreadyPaid]: [409, Messages.paymentRequestAlreadyPaid],
  [PaymentRequestError.Void]: [409, Messages.paymentRequestVoid],
  [PaymentRequestError.ApplicationFeeNeedsAccount]: [400, Messages.applicationFeeNeedsAccount],
  [PaymentRequestError.ApplicationFeeExceedsAmount]: [400, Messages.applicationFeeExceedsAmount],
});
