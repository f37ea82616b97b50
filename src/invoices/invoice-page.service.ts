import { Injectable } from '@nestjs/common';
import type { CheckoutPayInput, PaymentMethodChoice } from '../checkout/checkout-payments';
import type { Tenant } from '../auth/tenant';
import { RequestKey } from '../idempotency/request-key';
import { assertMayAskForMoney } from '../organizations/account';
import { PayService } from '../payments/pay.service';
import type { PaymentStatus } from '../payments/payment';
import { PaymentMethodsService } from '../payments/payment-methods.service';
import { invoicePagePath } from './invoice';
import { InvoiceError, invoiceError } from './invoices.errors';
import type { InvoicePdfLanguage } from './invoice-pdf-texts';
import { InvoicePageRow, InvoicesRepository } from './invoices.repository';
import { InvoicesService } from './invoices.service';

/**
 * The invoice's page (its `checkoutUrl`): what it shows, and paying the invoice's payment request
 * through PayService, as the hosted checkout does, so every money rule of payments holds. The
 * settlement statement marks the invoice paid (docs/billing.md).
 */
@Injectable()
export class InvoicePageService {
  constructor(
    private readonly invoices: InvoicesRepository,
    private readonly payments: PayService,
    private readonly methods: PaymentMethodsService,
    private readonly pdfs: InvoicesService,
  ) {}

  /**
   * The invoice's PDF for whoever has its page's URL (`audience: 'public'`): also an invoice with no
   * payment request (one of 0, paid at once), which has no page to pay. Throws 404 when unknown.
   */
  async pdf(id: string, lang: InvoicePdfLanguage): Promise<{ number: string; body: Buffer }> {
    const organizationId = await this.invoices.organizationOf(id);
    if (!organizationId) throw invoiceError(InvoiceError.NotFound);
    return this.pdfs.pdf({ organizationId }, id, lang, 'public');
  }

  async forPage(id: string): Promise<InvoicePageRow> {
    const row = await this.invoices.forPage(id);
    if (!row) throw invoiceError(InvoiceError.NotFound);
    return row;
  }

  /**
   * Pays the invoice's request. Throws AppError: 400 (pass code), 404 (method), 409 (already paid,
   * a payment in progress, the invoice no longer pending), 502 (the bank failed).
   */
  async pay(
    invoice: InvoicePageRow,
    input: CheckoutPayInput,
  ): Promise<{ paymentId: string; status: PaymentStatus }> {
    // The customer on the page acts for the invoice's environment, like a publishable key.
    const tenant: Tenant = {
      organizationId: invoice.organizationId,
      environmentId: invoice.environmentId,
      environment: invoice.environment,
      keyKind: 'publishable',
      keyId: `invoice:${invoice.id}`,
      verification: invoice.verification,
    };
    assertMayAskForMoney(tenant);
    // Keyed to the invoice (a namespace of its own: the form's key is a field anyone can set); the
    // form is the request, whatever its fields say on a resubmission.
    const key =
      input.idempotencyKey === undefined
        ? undefined
        : RequestKey.of(
            { environmentId: invoice.environmentId, invoiceId: invoice.id },
            input.idempotencyKey,
            {
              method: 'POST',
              path: `${invoicePagePath(invoice.id)}/pay`,
              body: '',
            },
          );
    const payment = await this.payments.pay(
      tenant,
      {
        transactionId: invoice.transactionId,
        phoneNumber: input.phoneNumber,
        passCode: input.passCode,
        configurationId: input.paymentMethodId,
      },
      // Under pay's lock of the request: a void invoice is never paid from its page.
      async () => {
        if ((await this.invoices.lockStatus(invoice.id)) !== 'pending')
          throw invoiceError(InvoiceError.NotPending);
      },
      key,
    );
    return { paymentId: payment.id, status: payment.status };
  }

  async listMethods(environmentId: string): Promise<PaymentMethodChoice[]> {
    return (await this.methods.listEnabled(environmentId)).map((m) => ({
      id: m.id,
      type: m.type,
      name: m.name,
      requiresPassCode: m.requiresPassCode,
    }));
  }
}
