import { Get, Param } from '@nestjs/common';
import { isUUID } from 'class-validator';
import { AppConfig } from '../config/config';
import { CustomersRepository } from '../customers/customers.repository';
import { INVOICE_STATUSES } from '../invoices/invoice';
import { InvoicesRepository } from '../invoices/invoices.repository';
import { DashboardError, dashboardError } from './dashboard.errors';
import { DashboardRenderer } from './dashboard.renderer';
import { DashboardPages, idOr404 } from './dashboard-pages';
import { Dash, DashboardRequest } from './dashboard-request';
import { fill, formatDate } from './format';
import { BillingRepository } from '../billing/billing.repository';
import { maskPhone } from '../billing/sms-text';
import { toInvoiceJson } from '../invoices/invoice';
import { parseChoice, parseText } from './forms';
import { invoiceRow, pager } from './presenters';

const PAGE_SIZE = 25;

/**
 * The session's environment's invoices (each lives in its subscription's environment, as its
 * payment request does), filtered by status, customer (externalUserId) and subscription, each with
 * its pay link (`checkoutUrl`) to copy or send by SMS or WhatsApp.
 */
@DashboardPages('invoices')
export class DashboardInvoicesController {
  private readonly publicUrl: string;

  constructor(
    private readonly renderer: DashboardRenderer,
    private readonly invoices: InvoicesRepository,
    private readonly customers: CustomersRepository,
    private readonly billing: BillingRepository,
    config: AppConfig,
  ) {
    this.publicUrl = config.publicUrl;
  }

  @Get()
  async list(@Dash() d: DashboardRequest): Promise<void> {
    const { t } = d;
    const scope = d.scope;
    const status = parseChoice(d.query('status'), INVOICE_STATUSES);
    const customer = parseText(d.query('customer'));
    const subscriptionId = d.query('subscriptionId')?.trim();
    const filters = {
      status,
      customer,
      subscriptionId: subscriptionId && isUUID(subscriptionId) ? subscriptionId : undefined,
    };
    // A customer the organization does not have matches no invoice.
    const customerId =
      customer && (await this.customers.byExternalUserId(scope.organizationId, customer))?.id;
    const page =
      customer && !customerId
        ? { items: [] }
        : await this.invoices.search(
            scope.environmentId,
            { status, customerId, subscriptionId: filters.subscriptionId },
            { after: d.query('after'), before: d.query('before'), limit: PAGE_SIZE },
          );
    this.renderer.render(d, 'invoices', t.invoicesTitle, {
      filters,
      filtered: Object.values(filters).some(Boolean),
      statuses: INVOICE_STATUSES.map((s) => ({
        value: s,
        label: t[`invoiceStatus_${s}`],
        selected: s === status,
      })),
      invoices: page.items.map((i) => invoiceRow(d, i, this.publicUrl, d.signedIn.organizationName)),
      pager: pager(d, '/dashboard/invoices', filters, page),
    });
  }

  @Get(':id')
  async invoice(@Dash() d: DashboardRequest, @Param('id') id: string): Promise<void> {
    const invoice = await this.invoices.detail(d.scope.environmentId, idOr404(id));
    if (!invoice) throw dashboardError(DashboardError.NotFound);
    const sms = await this.billing.smsOfInvoice(d.scope.environmentId, invoice.id);
    const json = toInvoiceJson(invoice, this.publicUrl);
    this.renderer.render(d, 'invoice', fill(d.t.invoiceTitle, { customer: invoice.customerExternalUserId }), {
      invoice: invoiceRow(d, invoice, this.publicUrl, d.signedIn.organizationName),
      amountPaid: json.amountPaid,
      amountDue: json.amountDue,
      manualPayments: json.manualPayments.map((m) => ({
        amount: m.amount,
        method: d.t[`manualPaymentMethod_${m.method}`],
        reference: m.reference ?? '',
        paidAt: formatDate(new Date(m.paidAt), d.lang),
      })),
      // The invoice's SMS (docs/sms-gateway.md): the number masked, as in the logs.
      sms: sms.map((m) => ({
        id: m.id,
        status: m.status,
        statusText: d.t[`smsStatus_${m.status}`],
        retried: m.attempts > 1,
        attempts: m.attempts,
        to: maskPhone(m.phone),
        language: m.language,
        body: m.body,
        lastError: m.lastError ?? '',
        created: formatDate(m.createdAt, d.lang),
      })),
    });
  }
}
