import { ReadsReplica } from '../database/reads-replica';
import { Get } from '@nestjs/common';
import { formatMru } from '../common/i18n/languages';
import { LedgerService } from '../ledger/ledger.service';
import { PaymentRequestsService } from '../payment-requests/payment-requests.service';
import { PaymentMethodsService } from '../payments/payment-methods.service';
import { PaymentsService } from '../payments/payments.service';
import { DashboardRenderer } from './dashboard.renderer';
import { DashboardPages } from './dashboard-pages';
import { Dash, DashboardRequest } from './dashboard-request';
import { barChart } from './chart';
import { fill, formatCount, formatDay, formatRate } from './format';
import { parseChoice } from './forms';
import { commonFilters, PAGE_SIZE, paymentsList } from './payments-list';
import { pager, requestRow } from './presenters';
import { ReportsService, WINDOWS } from './reports.service';

/** Home (balance, totals and chart), payment requests, payments, payment methods. */
@DashboardPages()
export class DashboardMonitoringController {
  constructor(
    private readonly renderer: DashboardRenderer,
    private readonly reports: ReportsService,
    private readonly requests: PaymentRequestsService,
    private readonly payments: PaymentsService,
    private readonly methods: PaymentMethodsService,
    private readonly ledger: LedgerService,
  ) {}

  @ReadsReplica('page')
  @Get()
  async home(@Dash() d: DashboardRequest): Promise<void> {
    const { t } = d;
    const lang = d.page.lang;
    const scope = d.scope;
    const [overview, recent, balance] = await Promise.all([
      this.reports.overview(scope),
      this.requests.search(scope.environmentId, {}, { limit: 5 }),
      this.ledger.balance(d.tenant),
    ]);
    const mru = (n: number) => formatMru(n, lang);
    const best = overview.days.reduce((a, b) => (b.amount > a.amount ? b : a), overview.days[0]);
    const total30 = overview.totals.last30Days.paidAmount;
    const chart = barChart(
      overview.days.map((day) => ({
        day: day.day,
        amount: day.amount,
        title: fill(t.chartBar, {
          day: formatDay(day.day, lang),
          amount: mru(day.amount),
          count: formatCount(day.count, lang),
        }),
      })),
      mru,
      (day) => formatDay(day, lang),
    );
    this.renderer.render(d, 'home', t.overviewTitle, {
      balance: { available: mru(balance.available), pending: mru(balance.pending) },
      windows: WINDOWS.map((w) => {
        const x = overview.totals[w];
        return {
          label: t[w],
          paidCount: formatCount(x.paidCount, lang),
          paidAmount: mru(x.paidAmount),
          requestsCreated: formatCount(x.requestsCreated, lang),
          successRate: formatRate(x.paidCount, x.settled, lang),
        };
      }),
      windowLabels: WINDOWS.map((w) => t[w]),
      methods: overview.methods.map((m) => ({
        name: m.method.name,
        windows: WINDOWS.map((w) => ({
          label: t[w],
          rate: formatRate(m.windows[w].completed, m.windows[w].settled, lang),
          detail: fill(t.rateDetail, {
            completed: formatCount(m.windows[w].completed, lang),
            total: formatCount(m.windows[w].settled, lang),
          }),
        })),
      })),
      chart,
      chartEmpty: total30 === 0,
      chartSummary: fill(t.chartSummary, {
        total: mru(total30),
        best: formatDay(best.day, lang),
        bestAmount: mru(best.amount),
      }),
      recent: recent.items.map((pr) => requestRow({ t, lang }, pr)),
      empty: recent.items.length === 0,
    });
  }

  @ReadsReplica('page')
  @Get('payment-requests')
  async paymentRequests(@Dash() d: DashboardRequest): Promise<void> {
    const { t } = d;
    const { form, search } = commonFilters(d);
    const status = parseChoice(d.query('status'), ['pending', 'paid'] as const);
    const page = await this.requests.search(
      d.scope.environmentId,
      { ...search, status },
      { after: d.query('after'), before: d.query('before'), limit: PAGE_SIZE },
    );
    const filters = { ...form, status };
    this.renderer.render(d, 'payment-requests', t.paymentRequestsTitle, {
      filters,
      filtered: Object.values(filters).some(Boolean),
      advanced: Boolean(status || form.from || form.to || form.amountMin || form.amountMax),
      statuses: (['pending', 'paid'] as const).map((s) => ({
        value: s,
        label: t[`requestStatus_${s}`],
        selected: s === status,
      })),
      rows: page.items.map((pr) => requestRow({ t, lang: d.page.lang }, pr)),
      pager: pager(d, '/dashboard/payment-requests', filters, page),
    });
  }

  @ReadsReplica('page')
  @Get('payments')
  async paymentsList(@Dash() d: DashboardRequest): Promise<void> {
    const locals = await paymentsList(
      d,
      this.payments,
      this.methods,
      d.scope.environmentId,
      '/dashboard/payments',
    );
    this.renderer.render(d, 'payments', d.t.paymentsTitle, locals);
  }
}
