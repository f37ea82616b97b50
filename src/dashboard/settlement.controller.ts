import { ReadsReplica } from '../database/reads-replica';
import { Get } from '@nestjs/common';
import { AppError } from '../common/errors/app-error';
import { formatMru } from '../common/i18n/languages';
import { LedgerError } from '../ledger/ledger.errors';
import { LedgerService } from '../ledger/ledger.service';
import { settlementCsv, SettlementRowJson } from '../ledger/settlement-report';
import { DashboardRenderer } from './dashboard.renderer';
import { DashboardPages } from './dashboard-pages';
import { Dash, DashboardRequest } from './dashboard-request';
import { formatCount, formatDate, utcDay } from './format';
import { apiFormMessage, ApiRule, FormMessage, queryString } from './forms';

/** The days the report shows when none are asked for: the last 30, today included. */
const DEFAULT_DAYS = 30;

/** `from` and `to` of the query, each defaulting to the last 30 UTC days. */
function reportDays(d: DashboardRequest): { from: string; to: string } {
  const today = new Date();
  const start = new Date(today.getTime() - (DEFAULT_DAYS - 1) * 86_400_000);
  return { from: d.query('from') ?? utcDay(start), to: d.query('to') ?? utcDay(today) };
}

/**
 * The settlement report of the session's environment (docs/ledger.md): per UTC day and bank app,
 * payments, gross, fees, refunds and net, as `GET /reports/settlement` answers it (`LedgerService`),
 * and the same rows as the API's CSV.
 */
@DashboardPages('reports')
export class DashboardSettlementController {
  constructor(
    private readonly renderer: DashboardRenderer,
    private readonly ledger: LedgerService,
  ) {}

  @ReadsReplica('page')
  @Get('settlement')
  async report(@Dash() d: DashboardRequest): Promise<void> {
    const { t } = d;
    const lang = d.lang;
    const { from, to } = reportDays(d);
    let rows: SettlementRowJson[] = [];
    let error: FormMessage | undefined;
    try {
      rows = await this.ledger.settlement(d.tenant, from, to);
    } catch (err) {
      if (!AppError.is(err, ...([LedgerError.ReportRange] satisfies ApiRule[]))) throw err;
      error = apiFormMessage(lang, err);
    }
    const mru = (n: number) => formatMru(n, lang);
    const sum = (key: 'payments' | 'gross' | 'fees' | 'refunds' | 'net') =>
      rows.reduce((total, r) => total + r[key], 0);
    this.renderer.render(d, 'settlement', t.settlementTitle, {
      from,
      to,
      error,
      csvHref: `/dashboard/reports/settlement.csv${queryString({ from, to })}`,
      rows: rows.map((r) => ({
        date: formatDate(new Date(`${r.date}T00:00:00Z`), lang),
        day: r.date,
        paymentMethod: r.paymentMethod,
        payments: formatCount(r.payments, lang),
        gross: mru(r.gross),
        fees: mru(r.fees),
        refunds: mru(r.refunds),
        net: mru(r.net),
      })),
      total: {
        payments: formatCount(sum('payments'), lang),
        gross: mru(sum('gross')),
        fees: mru(sum('fees')),
        refunds: mru(sum('refunds')),
        net: mru(sum('net')),
      },
    });
  }

  /** The page's rows as the API's CSV, to download. A range the API refuses: its 400 page. */
  @ReadsReplica('page')
  @Get('settlement.csv')
  async csv(@Dash() d: DashboardRequest): Promise<void> {
    const { from, to } = reportDays(d);
    const rows = await this.ledger.settlement(d.tenant, from, to);
    void d.page.reply
      .status(200)
      .headers({
        'content-type': 'text/csv; charset=utf-8',
        'content-disposition': `attachment; filename="settlement-${from}-${to}.csv"`,
        'cache-control': 'no-store',
        'x-content-type-options': 'nosniff',
      })
      .send(settlementCsv(rows));
  }
}
