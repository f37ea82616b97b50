import { domainErrors } from '../common/errors/app-error';
import { Messages } from '../common/errors/messages';

export enum PaymentRequestError {
  NotFound = 'payment_request_not_found',
  TransactionIdTaken = 'transaction_id_taken',
  AlreadyPaid = 'payment_request_already_paid',
  Void = 'payment_request_void',
  /** A payment link's request whose checkout session ended unpaid (docs/payment-links.md). */
  LinkRequestVoid = 'payment_link_request_void',
  ApplicationFeeNeedsAccount = 'application_fee_needs_account',
  ApplicationFeeExceedsAmount = 'application_fee_exceeds_amount',
}

export const paymentRequestError = domainErrors<PaymentRequestError>({
  [PaymentRequestError.NotFound]: [404, Messages.paymentRequestNotFound],
  [PaymentRequestError.TransactionIdTaken]: [409, Messages.transactionIdTaken],
  [PaymentRequestError.AlreadyPaid]: [409, Messages.paymentRequestAlreadyPaid],
  [PaymentRequestError.Void]: [409, Messages.paymentRequestVoid],
  [PaymentRequestError.LinkRequestVoid]: [409, Messages.paymentLinkRequestVoid],
  [PaymentRequestError.ApplicationFeeNeedsAccount]: [400, Messages.applicationFeeNeedsAccount],
  [PaymentRequestError.ApplicationFeeExceedsAmount]: [400, Messages.applicationFeeExceedsAmount],
});

/** 409 for a void request: its invoice was voided, or its payment link's session ended unpaid. */
export const voidRequestError = (request: { paymentLinkId: string | null }) =>
  paymentRequestError(request.paymentLinkId ? PaymentRequestError.LinkRequestVoid : PaymentRequestError.Void);
