import { Get, Param, StreamableFile } from '@nestjs/common';
import { InvoicesService } from '../invoices/invoices.service';
import { LedgerService } from '../ledger/ledger.service';
import { PaymentLinksService } from '../payment-links/payment-links.service';
import { PaymentRequestsService } from '../payment-requests/payment-requests.service';
import { PaymentsService } from '../payments/payments.service';
import { PAYMENT_STATUSES } from '../payments/payment';
import { PayoutsService } from '../payouts/payouts.service';
import { PAYOUT_STATUSES } from '../payouts/payout';
import { DashboardPages, idOr404 } from './dashboard-pages';
import { Dash, DashboardRequest } from './dashboard-request';
import { parseChoice } from './forms';

/**
 * The lists' CSV downloads (docs/dashboard.md "Lists as CSV"): each list that the API answers as
 * CSV has its button, which downloads the same file as the API's `Accept: text/csv` (the list's
 * status filter kept), made by the same service, for the environment shown.
 */
@DashboardPages()
export class DashboardExportsController {
  constructor(
    private readonly paymentRequests: PaymentRequestsService,
    private readonly payments: PaymentsService,
    private readonly invoices: InvoicesService,
    private readonly payouts: PayoutsService,
    private readonly ledger: LedgerService,
    private readonly links: PaymentLinksService,
  ) {}

  @Get('payment-requests.csv')
  paymentRequestsCsv(@Dash() d: DashboardRequest): void {
    const status = parseChoice(d.query('status'), ['pending', 'paid'] as const);
    send(d, this.paymentRequests.csv(d.tenant, { status }));
  }

  @Get('payments.csv')
  paymentsCsv(@Dash() d: DashboardRequest): void {
    const status = parseChoice(d.query('status'), PAYMENT_STATUSES);
    send(d, this.payments.csv(d.tenant, { status }));
  }

  @Get('invoices.csv')
  invoicesCsv(@Dash() d: DashboardRequest): void {
    send(d, this.invoices.csv(d.tenant, {}));
  }

  @Get('payouts.csv')
  payoutsCsv(@Dash() d: DashboardRequest): void {
    const status = parseChoice(d.query('status'), PAYOUT_STATUSES);
    send(d, this.payouts.csv(d.tenant, { status }));
  }

  /** The payment requests a payment link made (another environment's link: the 404 page). */
  @Get('payment-links/:id/requests.csv')
  async linkRequestsCsv(@Dash() d: DashboardRequest, @Param('id') id: string): Promise<void> {
    const link = await this.links.get(d.tenant, idOr404(id));
    send(d, this.paymentRequests.csv(d.tenant, { paymentLinkId: link.id }));
  }

  /** What a payout paid out: its balance transactions (another environment's payout: the 404 page). */
  @Get('payouts/:id/transactions.csv')
  async payoutTransactionsCsv(@Dash() d: DashboardRequest, @Param('id') id: string): Promise<void> {
    const payout = await this.payouts.get(d.tenant, idOr404(id));
    send(d, this.ledger.csv(d.tenant, { payoutId: payout.id }));
  }
}

/** The file as a download, never cached. */
function send(d: DashboardRequest, file: StreamableFile): void {
  const headers = file.getHeaders();
  void d.page.reply
    .status(200)
    .headers({
      'content-type': headers.type ?? 'text/csv; charset=utf-8',
      'content-disposition': headers.disposition ?? 'attachment',
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
    })
    .send(file.getStream());
}
