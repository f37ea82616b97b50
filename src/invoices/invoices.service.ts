import { csvFile, mapBatches } from '../common/http/csv';
import { Injectable, StreamableFile } from '@nestjs/common';
import type { Tenant } from '../auth/tenant';
import type { EnvironmentScope } from '../organizations/tenant';
import { envelope, ListEnvelope, pageOf } from '../common/pagination';
import { AppConfig } from '../config/config';
import type { ListInvoicesQuery, RecordManualPaymentDto } from './dto/invoice.dto';
import { assertAmount, parseDateTime } from '../common/validation/rules';
import { Db } from '../database/db';
import type { KeysetPage, KeysetQuery } from '../database/keyset';
import { timeOrderedId } from '../database/time-ordered-id';
import { feeStillDue } from '../payment-requests/application-fee';
import { PaymentError, paymentError } from '../payments/payments.errors';
import { INVOICE_CSV_COLUMNS, InvoiceJson, toInvoiceJson } from './invoice';
import { InvoiceError, invoiceError } from './invoices.errors';
import { InvoiceListItem, InvoiceSearch, InvoicesRepository } from './invoices.repository';
import { publicPhone } from '../checkout/public-checkout';
import { invoicePdf } from './invoice-pdf';
import type { InvoicePdfLanguage } from './invoice-pdf-texts';
import { OrganizationsService } from '../organizations/organizations.service';
import { VerificationRepository } from '../organizations/verification.repository';

/** Invoices are read through the API, never created or changed by it: the billing run makes them. */
@Injectable()
export class InvoicesService {
  private readonly publicUrl: string;

  constructor(
    private readonly db: Db,
    private readonly repo: InvoicesRepository,
    private readonly organizations: OrganizationsService,
    private readonly verification: VerificationRepository,
    config: AppConfig,
  ) {
    this.publicUrl = config.publicUrl;
  }

  /** Any invoice of the organization (invoices are organization-scoped). */
  async get(tenant: Tenant, id: string): Promise<InvoiceJson> {
    const invoice = await this.repo.byId(tenant.organizationId, id);
    if (!invoice) throw invoiceError(InvoiceError.NotFound);
    return toInvoiceJson(invoice, this.publicUrl);
  }

  /**
   * The invoice as a PDF in `lang` (docs/billing.md "The PDF invoice"): with the merchant's legal
   * name, address and tax id from its latest go-live application (its name alone before one), and
   * the customer. `audience: 'public'` (the invoice page's PDF, for whoever has the page's URL): the
   * customer as the page shows it, the phone masked to its last two digits and no external id.
   */
  async pdf(
    tenant: Pick<Tenant, 'organizationId'>,
    id: string,
    lang: InvoicePdfLanguage,
    audience: 'merchant' | 'public' = 'merchant',
  ): Promise<{ number: string; body: Buffer }> {
    const invoice = await this.repo.byId(tenant.organizationId, id);
    if (!invoice) throw invoiceError(InvoiceError.NotFound);
    const [detail, name, application] = await Promise.all([
      this.repo.detail(invoice.environmentId, id),
      this.organizations.name(tenant.organizationId),
      this.verification.latestApplication(tenant.organizationId),
    ]);
    const json = toInvoiceJson(invoice, this.publicUrl);
    const body = await invoicePdf(
      json,
      {
        merchant: {
          name: name ?? '',
          legalName: application?.legalName ?? null,
          address: application?.address ?? null,
          taxId: application?.nif ?? null,
        },
        customer:
          audience === 'public'
            ? { externalUserId: null, phone: detail!.customerPhone && publicPhone(detail!.customerPhone) }
            : { externalUserId: detail!.customerExternalUserId, phone: detail!.customerPhone },
      },
      lang,
    );
    return { number: invoice.number, body };
  }

  /**
   * Records a payment made by hand (docs/billing.md "Payments recorded by hand"): under the
   * request's lock, then the invoice's, so it cannot cross a payment with the bank or a voiding.
   * The money did not pass through Khoums: no payment, nothing in the balance. The API (a key's
   * tenant) and the dashboard (a signed-in owner's scope) both record through here.
   */
  recordManualPayment(
    tenant: EnvironmentScope,
    id: string,
    dto: RecordManualPaymentDto,
  ): Promise<InvoiceJson> {
    assertAmount(dto.amount);
    return this.db.transaction(async () => {
      const found = await this.repo.byId(tenant.organizationId, id);
      // Reading is organization-wide; a payment is recorded only in the key's own environment.
      if (!found || found.environmentId !== tenant.environmentId) throw invoiceError(InvoiceError.NotFound);
      const invoice = found.paymentRequestId ? await this.repo.lockForManualPayment(found) : undefined;
      if (!invoice || invoice.status !== 'pending') throw invoiceError(InvoiceError.NotPending);
      if (invoice.paymentInProgress) throw paymentError(PaymentError.InProgress);
      const due = Math.round(Number(invoice.amount) - Number(invoice.amountPaid));
      if (dto.amount > due) throw invoiceError(InvoiceError.AmountExceedsDue);
      const now = new Date();
      await this.repo.recordManualPayment(
        invoice,
        {
          id: timeOrderedId(),
          amount: dto.amount,
          method: dto.method,
          reference: dto.reference ?? null,
          paidAt: dto.paidAt === undefined ? now : parseDateTime(dto.paidAt)!,
        },
        // The fee is taken only on what is paid through Khoums (docs/platforms.md "Charge for it").
        {
          dueAfter: due - dto.amount,
          applicationFee: feeStillDue(invoice.applicationFee, due, due - dto.amount),
        },
        now,
      );
      return toInvoiceJson((await this.repo.byId(tenant.organizationId, id))!, this.publicUrl);
    });
  }

  /** Every invoice the filters select, as CSV, streamed. */
  csv(tenant: Tenant, q: ListInvoicesQuery): StreamableFile {
    return csvFile(
      'invoices',
      INVOICE_CSV_COLUMNS,
      mapBatches(this.repo.listAll(tenant.organizationId, q), (i) => toInvoiceJson(i, this.publicUrl)),
    );
  }

  /** Newest first; filters combine. Two statements (page and count), whatever the page size. */
  async list(tenant: Tenant, q: ListInvoicesQuery): Promise<ListEnvelope<InvoiceJson>> {
    const page = pageOf(q);
    const { rows, total } = await this.repo.list(tenant.organizationId, q, page);
    return envelope(
      rows.map((i) => toInvoiceJson(i, this.publicUrl)),
      total,
      page,
    );
  }

  /** A keyset page of the environment's invoices, newest first, with their customer (the dashboard's list). */
  search(
    environmentId: string,
    filter: InvoiceSearch,
    page: KeysetQuery,
  ): Promise<KeysetPage<InvoiceListItem>> {
    return this.repo.search(environmentId, filter, page);
  }

  /** An invoice of the environment with its customer, or undefined. */
  detail(environmentId: string, id: string): Promise<InvoiceListItem | undefined> {
    return this.repo.detail(environmentId, id);
  }
}
