import { domainErrors } from '../common/errors/app-error';
import { Messages } from '../common/errors/messages';

export enum PaymentError {
  NotFound = 'payment_not_found',
  MethodNotFound = 'payment_method_not_found',
  PassCodeRequired = 'pass_code_required',
  InProgress = 'payment_in_progress',
  NotPending = 'payment_not_pending',
  BankFailure = 'bank_failure',
  /** The bank refused the pass code: the API's 502 as for any refusal; the hosted pages say which. */
  WrongPassCode = 'wrong_pass_code',
  SimulatedTransfersSandboxOnly = 'simulated_transfers_sandbox_only',
  /** The pay-attempt limit (failed payments of one request from one phone). */
  TooManyAttempts = 'too_many_payment_attempts',
  /** PUT /configuration/gimtel: neither a bank of PAYOUT_BANKS nor a member app's code. */
  InvalidReceivingBank = 'invalid_receiving_bank',
  /** PUT /configuration/gimtel: Production transfers wait for the organization's verification. */
  TransfersNeedVerification = 'transfers_need_verification',
}

export const paymentError = domainErrors<PaymentError>({
  [PaymentError.NotFound]: [404, Messages.paymentNotFound],
  [PaymentError.MethodNotFound]: [404, Messages.paymentMethodNotFound],
  [PaymentError.PassCodeRequired]: [400, Messages.passCodeRequiredForBankily],
  [PaymentError.InProgress]: [409, Messages.paymentInProgress],
  [PaymentError.NotPending]: [409, Messages.paymentNotPending],
  [PaymentError.BankFailure]: [502, Messages.bankFailure],
  [PaymentError.WrongPassCode]: [502, Messages.bankFailure],
  [PaymentError.SimulatedTransfersSandboxOnly]: [400, Messages.simulatedTransfersSandboxOnly],
  [PaymentError.TooManyAttempts]: [429, Messages.tooManyRequests],
  [PaymentError.InvalidReceivingBank]: [400, Messages.invalidReceivingBank],
  [PaymentError.TransfersNeedVerification]: [400, Messages.transfersNeedVerification],
});
