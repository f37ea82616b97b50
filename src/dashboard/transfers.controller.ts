import { Get, Param } from '@nestjs/common';
import { AppError } from '../common/errors/app-error';
import { Post } from '../common/http/routes';
import { formatMru } from '../common/i18n/languages';
import { pageOf } from '../common/pagination';
import { ReadsReplica } from '../database/reads-replica';
import { PaymentRequestsService } from '../payment-requests/payment-requests.service';
import { TRANSFER_STATUSES, TransferJson, TransferStatus } from '../transfers/transfer';
import { TransferError } from '../transfers/transfers.errors';
import { TransfersService } from '../transfers/transfers.service';
import { DashboardError, dashboardError } from './dashboard.errors';
import { DashboardRenderer } from './dashboard.renderer';
import { DashboardPages, idOr404 } from './dashboard-pages';
import { Dash, DashboardRequest } from './dashboard-request';
import { fill, formatTime } from './format';
import { apiFormMessage, FormMessage, parseChoice, parseText, queryString } from './forms';
import { requestRow, Viewer } from './presenters';

const PAGE_SIZE = 25;
/** How many pending requests of the transfer's amount the assign search shows. */
const CANDIDATES = 20;

/** A transfer as the inbox and its page show it. */
function transferRow(v: Viewer, t: TransferJson) {
  return {
    id: t.id,
    href: `/dashboard/transfers/${t.id}`,
    bankReference: t.bankReference,
    amount: formatMru(t.amount, v.lang),
    payerPhone: t.payerPhone,
    payerApp: t.payerApp,
    receivingBank: t.receivingBank,
    receivingPhone: t.receivingPhone,
    memo: t.memo ?? v.t.none,
    receivedAt: formatTime(t.receivedAt, v.lang),
    status: t.status,
    statusText: v.t[`transferStatus_${t.status}`],
    badge: t.status,
    paymentRequestId: t.paymentRequestId,
    requestHref: t.paymentRequestId ? `/dashboard/payment-requests/${t.paymentRequestId}` : undefined,
  };
}

/**
 * The transfers inbox (docs/transfers.md "The inbox"): the transfers that reached the environment's
 * receiving wallet, filtered by status; a transfer's page, where an unmatched one is assigned to a
 * pending request of its amount (searched by reference or phone) or marked returned. The rules are
 * the API's (`TransfersService`); a refusal is shown in the page's language.
 */
@DashboardPages('transfers')
export class DashboardTransfersController {
  constructor(
    private readonly renderer: DashboardRenderer,
    private readonly transfers: TransfersService,
    private readonly requests: PaymentRequestsService,
  ) {}

  @ReadsReplica('page')
  @Get()
  async list(@Dash() d: DashboardRequest): Promise<void> {
    const { t } = d;
    const status = parseChoice(d.query('status'), TRANSFER_STATUSES);
    const pageNumber = Math.max(1, Math.min(10_000, Number.parseInt(d.query('page') ?? '1', 10) || 1));
    const page = pageOf({ page: pageNumber, limit: PAGE_SIZE });
    const listed = await this.transfers.list(d.tenant, { status, page: page.page, limit: page.limit });
    const at = (p: number) =>
      `/dashboard/transfers${queryString({ status, page: p > 1 ? String(p) : undefined })}`;
    const filter = (value: TransferStatus | undefined, label: string) => ({
      value: value ?? '',
      label,
      href: `/dashboard/transfers${queryString({ status: value })}`,
      current: value === status,
    });
    this.renderer.render(d, 'transfers', t.transfersTitle, {
      statuses: [
        filter(undefined, t.all),
        ...TRANSFER_STATUSES.map((s) => filter(s, t[`transferStatus_${s}`])),
      ],
      rows: listed.data.map((tr) => transferRow(d, tr)),
      csvHref: `/dashboard/transfers.csv${queryString({ status })}`,
      pager: {
        previous: page.page > 1 ? at(page.page - 1) : undefined,
        first: page.page > 1 ? at(1) : undefined,
        next: page.page < listed.pagination.totalPages ? at(page.page + 1) : undefined,
      },
    });
  }

  @Get(':id')
  async transfer(@Dash() d: DashboardRequest, @Param('id') id: string): Promise<void> {
    await this.renderTransfer(d, await this.find(d, id), 200);
  }

  /** `paymentRequestId`: the pending request of the same amount the transfer pays. */
  @Post(':id/assign')
  async assign(@Dash() d: DashboardRequest, @Param('id') id: string): Promise<void> {
    const transfer = await this.find(d, id);
    // Not an id: no request of this environment (the 404 page, as another organization's request).
    const paymentRequestId = idOr404(d.field('paymentRequestId'));
    try {
      await this.transfers.assign(d.tenant, transfer.id, paymentRequestId);
    } catch (err) {
      if (!AppError.is(err)) throw err;
      return this.renderTransfer(d, await this.find(d, id), err.status, apiFormMessage(d.lang, err));
    }
    d.page.redirect(`/dashboard/transfers/${transfer.id}?notice=transferAssigned`);
  }

  @Post(':id/return')
  async markReturned(@Dash() d: DashboardRequest, @Param('id') id: string): Promise<void> {
    const transfer = await this.find(d, id);
    try {
      await this.transfers.return(d.tenant, transfer.id);
    } catch (err) {
      if (!AppError.is(err)) throw err;
      return this.renderTransfer(d, await this.find(d, id), err.status, apiFormMessage(d.lang, err));
    }
    d.page.redirect(`/dashboard/transfers/${transfer.id}?notice=transferReturned`);
  }

  /** The environment's transfer, or the dashboard's 404 page (another organization's included). */
  private async find(d: DashboardRequest, id: string): Promise<TransferJson> {
    try {
      return await this.transfers.get(d.tenant, idOr404(id));
    } catch (err) {
      if (AppError.is(err, TransferError.NotFound)) throw dashboardError(DashboardError.NotFound);
      throw err;
    }
  }

  private async renderTransfer(
    d: DashboardRequest,
    transfer: TransferJson,
    status: number,
    error?: FormMessage,
  ): Promise<void> {
    const { t } = d;
    const here = `/dashboard/transfers/${transfer.id}`;
    const actionable = transfer.status === 'unmatched' && d.canEdit;
    const q = parseText(d.query('q'));
    // The requests it may pay: pending, of exactly its amount (the API refuses any other).
    const candidates = actionable
      ? await this.requests.search(
          d.scope.environmentId,
          { q, status: 'pending', amountMin: transfer.amount, amountMax: transfer.amount },
          { limit: CANDIDATES },
        )
      : undefined;
    this.renderer.render(
      d,
      'transfer',
      fill(t.transferHeading, { reference: transfer.bankReference }),
      {
        heading: fill(t.transferHeading, { reference: transfer.bankReference }),
        transfer: transferRow(d, transfer),
        here,
        q: q ?? '',
        actionable,
        assignIntro: fill(t.assignIntro, { amount: formatMru(transfer.amount, d.lang) }),
        candidates: candidates?.items.map((pr) => requestRow(d, pr)),
        error,
      },
      status,
    );
  }
}
