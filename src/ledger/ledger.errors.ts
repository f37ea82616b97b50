import { domainErrors } from '../common/errors/app-error';
import { Messages } from '../common/errors/messages';

export enum LedgerError {
  PaymentNotFound = 'refund_payment_not_found',
  PaymentNotCompleted = 'refund_payment_not_completed',
  AmountExceedsLeft = 'refund_amount_exceeds_left',
  RefundNotFound = 'refund_not_found',
  ReportRange = 'settlement_report_range',
}

export const ledgerError = domainErrors<LedgerError>({
  [LedgerError.PaymentNotFound]: [404, Messages.paymentNotFound],
  [LedgerError.PaymentNotCompleted]: [409, Messages.onlyCompletedPaymentsRefundable],
  [LedgerError.AmountExceedsLeft]: [400, Messages.refundExceedsAmountLeft],
  [LedgerError.RefundNotFound]: [404, Messages.refundNotFound],
  [LedgerError.ReportRange]: [400, Messages.settlementReportRange],
});
