import { domainErrors } from '../common/errors/app-error';
import { Messages } from '../common/errors/messages';

export enum TransferError {
  NotFound = 'transfer_not_found',
  AmountMismatch = 'transfer_amount_mismatch',
  NotUnmatched = 'transfer_not_unmatched',
}

export const transferError = domainErrors<TransferError>({
  [TransferError.NotFound]: [404, Messages.transferNotFound],
  [TransferError.AmountMismatch]: [400, Messages.transferAmountMismatch],
  [TransferError.NotUnmatched]: [409, Messages.transferNotUnmatched],
});
