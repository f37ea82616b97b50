import { domainErrors } from '../common/errors/app-error';
import { Messages } from '../common/errors/messages';

export enum InvoiceError {
  NotFound = 'invoice_not_found',
  NotPending = 'invoice_not_pending',
  AmountExceedsDue = 'amount_exceeds_due',
}

export const invoiceError = domainErrors<InvoiceError>({
  [InvoiceError.NotFound]: [404, Messages.invoiceNotFound],
  [InvoiceError.NotPending]: [409, Messages.invoiceNotPending],
  [InvoiceError.AmountExceedsDue]: [400, Messages.amountExceedsDue],
});
