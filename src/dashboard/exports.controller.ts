import { Get, Param, StreamableFile } from '@nestjs/common';
import { InvoicesService } from '../invoices/invoices.service';
import { LedgerService } from '../ledger/ledger.service';
import { PaymentLinksService } from '../payment-links/payment-links.service';
import { PaymentRequestsService } from '../payment-requests/payment-requests.service';
import { PaymentsService } from '../payments/payments.service';
import { PAYMENT_STATUSES } from '../payments/payment';
import { PayoutsService } from '../payouts/payouts.service';
import { PAYOUT_STATUSES } from '../payouts/payout';
import { csvFile, CsvColumn, csvTimeOf } from '../common/http/csv';
import { MAX_LIMIT } from '../common/pagination';
import { TRANSFER_STATUSES, TransferJson } from '../transfers/transfer';
import { TransfersService } from '../transfers/transfers.service';
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
    private readonly transfers: TransfersService,
  ) {}

  /**
   * The transfers inbox (its status filter kept): the records of `GET /transfers`, every page of
   * them, one column a field. The API has no CSV of transfers; this is the dashboard's.
   */
  @Get('transfers.csv')
  transfersCsv(@Dash() d: DashboardRequest): void {
    const status = parseChoice(d.query('status'), TRANSFER_STATUSES);
    const transfers = this.transfers;
    async function* pages(): AsyncGenerator<TransferJson[]> {
      for (let page = 1; ; page++) {
        const listed = await transfers.list(d.tenant, { status, page, limit: MAX_LIMIT });
        if (listed.data.length > 0) yield listed.data;
        if (page >= listed.pagination.totalPages) return;
      }
    }
    send(d, csvFile('transfers', TRANSFER_CSV_COLUMNS, pages()));
  }

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

/** A transfer's record, a column a field (times in UTC). */
const TRANSFER_CSV_COLUMNS: readonly CsvColumn<TransferJson>[] = [
  { header: 'id', value: (t) => t.id },
  { header: 'bankReference', value: (t) => t.bankReference },
  { header: 'receivedAt', value: (t) => csvTimeOf(t.receivedAt) },
  { header: 'amount', value: (t) => t.amount },
  { header: 'payerPhone', value: (t) => t.payerPhone },
  { header: 'payerApp', value: (t) => t.payerApp },
  { header: 'receivingBank', value: (t) => t.receivingBank },
  { header: 'receivingPhone', value: (t) => t.receivingPhone },
  { header: 'memo', value: (t) => t.memo },
  { header: 'status', value: (t) => t.status },
  { header: 'paymentId', value: (t) => t.paymentId },
  { header: 'paymentRequestId', value: (t) => t.paymentRequestId },
  { header: 'createdAt', value: (t) => csvTimeOf(t.createdAt) },
];

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
