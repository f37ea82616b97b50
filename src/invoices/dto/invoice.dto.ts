import { PaginationQuery } from '../../common/pagination';
import {
  DateTimeField,
  EnumField,
  ExternalIdField,
  IntegerField,
  UuidField,
} from '../../common/validation/fields';
import { MANUAL_PAYMENT_METHODS, ManualPaymentMethod } from '../invoice';
import { INVOICE_PDF_LANGUAGES, InvoicePdfLanguage } from '../invoice-pdf-texts';

export class ListInvoicesQuery extends PaginationQuery {
  @UuidField({ optional: true }) id?: string;
  @ExternalIdField({ optional: true, description: "The customer's externalUserId" }) externalUserId?: string;
  @UuidField({ optional: true }) subscriptionId?: string;
}

export class InvoiceIdParams {
  @UuidField() id!: string;
}

/** POST /invoices/:id/payments: a payment made by hand (cash at the shop, a transfer, a cheque). */
export class RecordManualPaymentDto {
  @IntegerField({ description: 'Whole MRU, at most what is still due' }) amount!: number;
  @EnumField(MANUAL_PAYMENT_METHODS) method!: ManualPaymentMethod;
  @ExternalIdField({ optional: true, description: 'The receipt, transfer or cheque number' })
  reference?: string;
  @DateTimeField({ optional: true, description: 'When it was paid (default now)' }) paidAt?: string;
}

export class InvoicePdfQuery {
  @EnumField(INVOICE_PDF_LANGUAGES, { optional: true, description: 'The language of the PDF (default fr)' })
  lang?: InvoicePdfLanguage;
}
