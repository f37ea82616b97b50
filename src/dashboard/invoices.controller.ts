import { ReadsReplica } from '../database/reads-replica';
import { Get, Param } from '@nestjs/common';
import { plainToInstance } from 'class-transformer';
import { isUUID, validateSync } from 'class-validator';
import { AppError } from '../common/errors/app-error';
import { Post } from '../common/http/routes';
import { AppConfig } from '../config/config';
import { CustomersService } from '../customers/customers.service';
import { RecordManualPaymentDto } from '../invoices/dto/invoice.dto';
import { INVOICE_STATUSES, MANUAL_PAYMENT_METHODS } from '../invoices/invoice';
import { InvoiceError } from '../invoices/invoices.errors';
import { InvoicesService } from '../invoices/invoices.service';
import { PaymentError } from '../payments/payments.errors';
import { DashboardError, dashboardError } from './dashboard.errors';
import { DashboardRenderer } from './dashboard.renderer';
import { DashboardPages, idOr404 } from './dashboard-pages';
import { Dash, DashboardAccess, DashboardRequest } from './dashboard-request';
import { fill, formatDate } from './format';
import { SmsLogService } from '../billing/sms-log.service';
import { maskPhone } from '../billing/sms-text';
import { toInvoiceJson } from '../invoices/invoice';
import { apiFormMessage, ApiRule, FormMessage, parseAmount, parseChoice, parseText } from './forms';
import { invoiceRow, pager } from './presenters';

const PAGE_SIZE = 25;

/** The manual payment form as typed, and what was wrong with it (a text per field, or the API's message). */
interface PaymentForm {
  amount: string;
  method: string;
  reference: string;
  paidAt: string;
  errors: Record<string, string>;
  /** Why the invoice refused the payment (409, or 400 over the amount due), in the page's language. */
  refused?: FormMessage;
}

/** The invoice's rules a manual payment can break, each worded in the page's language. */
const MANUAL_PAYMENT_RULES = [
  InvoiceError.AmountExceedsDue,
  InvoiceError.NotPending,
  PaymentError.InProgress,
] satisfies ApiRule[];

const EMPTY_PAYMENT_FORM: PaymentForm = { amount: '', method: 'cash', reference: '', paidAt: '', errors: {} };

/**
 * The form read into the API's body and checked with the API's own DTO (its limits are not
 * restated here): a whole amount, a method, an optional reference and an optional date-time
 * (`datetime-local`, read as UTC like the API's date-times without a zone).
 */
function paymentForm(d: DashboardRequest): PaymentForm & { dto?: RecordManualPaymentDto } {
  const form: PaymentForm = {
    amount: d.field('amount').trim(),
    method: d.field('method'),
    reference: d.field('reference').trim(),
    paidAt: d.field('paidAt').trim(),
    errors: {},
  };
  const amount = parseAmount(form.amount);
  const dto = plainToInstance(RecordManualPaymentDto, {
    amount: amount ?? form.amount,
    method: form.method,
    ...(form.reference && { reference: form.reference }),
    ...(form.paidAt && { paidAt: form.paidAt }),
  });
  const failed = new Set(validateSync(dto).map((e) => e.property));
  if (failed.has('amount') || amount === undefined || amount < 1) form.errors.amount = d.t.invalidAmount;
  if (failed.has('method')) form.errors.method = d.t.chooseManualPaymentMethod;
  if (failed.has('reference')) form.errors.reference = d.t.invalidManualPaymentReference;
  if (failed.has('paidAt')) form.errors.paidAt = d.t.invalidManualPaymentDate;
  return Object.keys(form.errors).length > 0 ? form : { ...form, dto };
}

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
    private readonly invoicesService: InvoicesService,
    private readonly customers: CustomersService,
    private readonly smsLog: SmsLogService,
    config: AppConfig,
  ) {
    this.publicUrl = config.publicUrl;
  }

  @ReadsReplica('page')
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
      customer && (await this.customers.findByExternalUserId(scope.organizationId, customer))?.id;
    const page =
      customer && !customerId
        ? { items: [] }
        : await this.invoicesService.search(
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

  /** The invoice as a PDF in the page's language (docs/billing.md "The PDF invoice"), as the API gives it. */
  @Get(':id/pdf')
  async pdf(@Dash() d: DashboardRequest, @Param('id') id: string): Promise<void> {
    const invoice = await this.invoicesService.detail(d.scope.environmentId, idOr404(id));
    if (!invoice) throw dashboardError(DashboardError.NotFound);
    const { number, body } = await this.invoicesService.pdf(d.scope, invoice.id, d.lang);
    void d.page.reply
      .status(200)
      .headers({
        'content-type': 'application/pdf',
        'content-disposition': `inline; filename="${number}.pdf"`,
        'cache-control': 'no-store',
        'x-content-type-options': 'nosniff',
      })
      .send(body);
  }

  @Get(':id')
  async invoice(@Dash() d: DashboardRequest, @Param('id') id: string): Promise<void> {
    await this.renderInvoice(d, idOr404(id), EMPTY_PAYMENT_FORM);
  }

  /**
   * A payment made by hand (docs/billing.md "Payments recorded by hand"), through the invoices
   * service like POST /invoices/:id/payments. Owners only: it marks money as received.
   */
  @DashboardAccess('owner')
  @Post(':id/payments')
  async recordPayment(@Dash() d: DashboardRequest, @Param('id') id: string): Promise<void> {
    const invoiceId = idOr404(id);
    const form = paymentForm(d);
    if (!form.dto) return this.renderInvoice(d, invoiceId, form);
    try {
      await this.invoicesService.recordManualPayment(d.scope, invoiceId, form.dto);
    } catch (err) {
      if (AppError.is(err, InvoiceError.NotFound)) throw dashboardError(DashboardError.NotFound);
      if (AppError.is(err, ...MANUAL_PAYMENT_RULES))
        return this.renderInvoice(d, invoiceId, { ...form, refused: apiFormMessage(d.lang, err) });
      throw err;
    }
    d.page.redirect(`/dashboard/invoices/${invoiceId}?notice=manualPaymentRecorded`);
  }

  private async renderInvoice(d: DashboardRequest, id: string, form: PaymentForm): Promise<void> {
    const invoice = await this.invoicesService.detail(d.scope.environmentId, id);
    if (!invoice) throw dashboardError(DashboardError.NotFound);
    const sms = await this.smsLog.ofInvoice(d.scope.environmentId, invoice.id);
    const json = toInvoiceJson(invoice, this.publicUrl);
    this.renderer.render(d, 'invoice', fill(d.t.invoiceTitle, { customer: invoice.customerExternalUserId }), {
      invoice: invoiceRow(d, invoice, this.publicUrl, d.signedIn.organizationName),
      amountPaid: json.amountPaid,
      amountDue: json.amountDue,
      number: json.number,
      subtotal: json.subtotal,
      discount: json.discount === '0.00' ? null : json.discount,
      creditApplied: json.creditApplied === '0.00' ? null : json.creditApplied,
      lines: json.lines.map((l) => ({
        description: l.description,
        quantity: l.quantity,
        unitAmount: l.unitAmount,
        amount: l.amount,
        proration: l.proration,
      })),
      pdfHref: `/dashboard/invoices/${invoice.id}/pdf`,
      manualPayments: json.manualPayments.map((m) => ({
        amount: m.amount,
        method: d.t[`manualPaymentMethod_${m.method}`],
        reference: m.reference ?? '',
        paidAt: formatDate(new Date(m.paidAt), d.lang),
      })),
      refused: form.refused,
      // Only owners record payments, and only while the invoice is pending.
      paymentForm:
        d.isOwner && json.status === 'pending'
          ? {
              ...form,
              methods: MANUAL_PAYMENT_METHODS.map((m) => ({
                value: m,
                label: d.t[`manualPaymentMethod_${m}`],
                selected: m === form.method,
              })),
            }
          : undefined,
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
