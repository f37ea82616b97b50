import { ReadsReplica } from '../database/reads-replica';
import { Get, Param } from '@nestjs/common';
import { AppError } from '../common/errors/app-error';
import { Post } from '../common/http/routes';
import { AppConfig } from '../config/config';
import { InvoicesService } from '../invoices/invoices.service';
import { SUBSCRIPTION_STATUSES, SubscriptionStatus, subscriptionStatus } from '../subscriptions/subscription';
import { SubscriptionError } from '../subscriptions/subscriptions.errors';
import { SubscriptionsService } from '../subscriptions/subscriptions.service';
import { DashboardError, dashboardError } from './dashboard.errors';
import { DashboardRenderer } from './dashboard.renderer';
import { DashboardPages, idOr404 } from './dashboard-pages';
import { Dash, DashboardRequest } from './dashboard-request';
import { fill } from './format';
import { parseChoice } from './forms';
import { invoiceRow, pager, subscriptionRow } from './presenters';

const PAGE_SIZE = 25;
const LATEST_INVOICES = 10;

/** Which actions a subscription in this status offers (docs/billing.md's table of transitions). */
const can = (status: SubscriptionStatus) => ({
  cancelNow: !['cancelled', 'expired', 'incomplete_expired'].includes(status),
  cancelAtPeriodEnd: ['trialing', 'active', 'past_due', 'paused'].includes(status),
  pause: ['trialing', 'active', 'past_due'].includes(status),
  resume: status === 'paused' || status === 'pending_cancellation',
});

/**
 * The session's environment's subscriptions (created through the API): the list with a status
 * filter, one subscription's page (customer, price, periods, its latest invoices), and cancel (now
 * or at the period's end), pause and resume through SubscriptionsService, as the API does them.
 */
@DashboardPages('subscriptions')
export class DashboardSubscriptionsController {
  private readonly publicUrl: string;

  constructor(
    private readonly renderer: DashboardRenderer,
    private readonly subscriptions: SubscriptionsService,
    private readonly invoices: InvoicesService,
    config: AppConfig,
  ) {
    this.publicUrl = config.publicUrl;
  }

  @ReadsReplica('page')
  @Get()
  async list(@Dash() d: DashboardRequest): Promise<void> {
    const { t } = d;
    const status = parseChoice(d.query('status'), SUBSCRIPTION_STATUSES);
    const page = await this.subscriptions.search(
      d.scope.environmentId,
      { status },
      { after: d.query('after'), before: d.query('before'), limit: PAGE_SIZE },
    );
    this.renderer.render(d, 'subscriptions', t.subscriptionsTitle, {
      filtered: status !== undefined,
      statuses: SUBSCRIPTION_STATUSES.map((s) => ({
        value: s,
        label: t[`subscriptionStatus_${s}`],
        selected: s === status,
      })),
      subscriptions: page.items.map((s) => subscriptionRow(d, s)),
      pager: pager(d, '/dashboard/subscriptions', { status }, page),
    });
  }

  @Get(':id')
  async subscription(@Dash() d: DashboardRequest, @Param('id') id: string): Promise<void> {
    const { t } = d;
    const environmentId = d.scope.environmentId;
    const s = await this.subscriptions.detail(environmentId, idOr404(id));
    if (!s) throw dashboardError(DashboardError.NotFound);
    const invoices = await this.invoices.search(
      environmentId,
      { subscriptionId: s.id },
      { limit: LATEST_INVOICES },
    );
    const row = subscriptionRow(d, s);
    const actions = can(subscriptionStatus(s.status, s.overdue, s.firstPaymentDueBy));
    const here = `/dashboard/subscriptions/${s.id}`;
    this.renderer.render(
      d,
      'subscription',
      fill(t.subscriptionTitle, { customer: s.customerExternalUserId }),
      {
        subscription: row,
        can: actions,
        anyAction: Object.values(actions).some(Boolean),
        actions: {
          cancel: `${here}/cancel`,
          pause: `${here}/pause`,
          resume: `${here}/resume`,
        },
        invoices: invoices.items.map((i) => invoiceRow(d, i, this.publicUrl, d.signedIn.organizationName)),
        moreInvoices: invoices.next !== undefined,
      },
    );
  }

  /** `atPeriodEnd=true`: pending cancellation until the period ends; else now, its unpaid invoices void. */
  @Post(':id/cancel')
  async cancel(@Dash() d: DashboardRequest, @Param('id') id: string): Promise<void> {
    const atPeriodEnd = d.field('atPeriodEnd') === 'true';
    await this.orNotFoundPage(() => this.subscriptions.cancel(d.scope, idOr404(id), atPeriodEnd));
    const notice = atPeriodEnd ? 'subscriptionCancelScheduled' : 'subscriptionCancelled';
    d.page.redirect(`/dashboard/subscriptions/${id}?notice=${notice}`);
  }

  @Post(':id/pause')
  async pause(@Dash() d: DashboardRequest, @Param('id') id: string): Promise<void> {
    await this.orNotFoundPage(() => this.subscriptions.pause(d.scope, idOr404(id)));
    d.page.redirect(`/dashboard/subscriptions/${id}?notice=subscriptionPaused`);
  }

  @Post(':id/resume')
  async resume(@Dash() d: DashboardRequest, @Param('id') id: string): Promise<void> {
    await this.orNotFoundPage(() => this.subscriptions.resume(d.scope, idOr404(id)));
    d.page.redirect(`/dashboard/subscriptions/${id}?notice=subscriptionResumed`);
  }

  /** Another organization's or environment's subscription is not found: the 404 page. */
  private async orNotFoundPage<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      if (AppError.is(err, SubscriptionError.NotFound)) throw dashboardError(DashboardError.NotFound);
      throw err;
    }
  }
}
