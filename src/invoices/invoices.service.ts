import { StreamableFile } from '@nestjs/common';
import { csvFile, mapBatches } from '../common/http/csv';
import { Injectable } from '@nestjs/common';
import type { Tenant } from '../auth/tenant';
import { envelope, ListEnvelope, pageOf } from '../common/pagination';
import { AppConfig } from '../config/config';
import type { ListInvoicesQuery } from './dto/invoice.dto';
import { INVOICE_CSV_COLUMNS, InvoiceJson, toInvoiceJson } from './invoice';
import { InvoiceError, invoiceError } from './invoices.errors';
import { InvoicesRepository } from './invoices.repository';

/** Invoices are read through the API, never created or changed by it: the billing run makes them. */
@Injectable()
export class InvoicesService {
  private readonly publicUrl: string;

  constructor(
    private readonly repo: InvoicesRepository,
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
}
