import { ReadsReplica } from '../database/reads-replica';
import { Get, Param } from '@nestjs/common';
import { AppError } from '../common/errors/app-error';
import { CommonError } from '../common/errors/common-errors';
import { Post } from '../common/http/routes';
import { formatMru } from '../common/i18n/languages';
import type { DashboardTexts } from '../common/i18n/dashboard-texts';
import { LedgerService } from '../ledger/ledger.service';
import { assertMayAskForMoney } from '../organizations/account';
import { OrganizationError } from '../organizations/organizations.errors';
import type { PayoutJson } from '../payouts/payout';
import { PAYOUT_INTERVALS, PayoutScheduleJson, WEEKDAYS } from '../payouts/payout-schedule';
import { PayoutError } from '../payouts/payouts.errors';
import { PayoutsService } from '../payouts/payouts.service';
import { DashboardRenderer } from './dashboard.renderer';
import { DashboardPages, idOr404 } from './dashboard-pages';
import { Dash, DashboardAccess, DashboardRequest } from './dashboard-request';
import { fill, formatTime } from './format';
import { apiFormMessage, ApiRule, FormMessage, parseAmount, parseChoice } from './forms';
import { numberedPager, pageNumber, type Viewer } from './presenters';

const PAGE_SIZE = 25;

/** The "pay out now" form as sent, and what was wrong. */
interface PayNowForm {
  amount: string;
  error?: FormMessage;
}

/** The schedule form as sent, and what was wrong with each field. */
interface ScheduleForm {
  interval: string;
  weeklyDay: string;
  minimumAmount: string;
  errors: { interval?: FormMessage; weeklyDay?: FormMessage; minimumAmount?: FormMessage };
}

/** The API's rules a payout may break, shown on the form in the API's words. */
const PAYOUT_RULES = [
  PayoutError.InsufficientBalance,
  PayoutError.OnHold,
  CommonError.AmountNotPositive,
  CommonError.AmountTooLarge,
  OrganizationError.NotVerifiedForProduction,
] satisfies ApiRule[];

const AMOUNT_RULES = [CommonError.AmountNotPositive, CommonError.AmountTooLarge] satisfies ApiRule[];

export function payoutRow(v: Viewer, p: PayoutJson) {
  return {
    id: p.id,
    href: `/dashboard/payouts/${p.id}`,
    amount: formatMru(p.amount, v.lang),
    status: p.status === 'paid' ? 'completed' : p.status,
    statusText: v.t[`payoutStatus_${p.status}`],
    destination: `${p.destination.bank} · ${p.destination.holderName}`,
    ibanEnding: fill(v.t.ibanEnding, { last4: p.destination.ibanLast4 }),
    ibanLast4: p.destination.ibanLast4,
    failureReason: p.failureReason ?? v.t.none,
    bankReference: p.bankReference ?? v.t.none,
    created: formatTime(p.createdAt, v.lang),
    arrived: p.arrivedAt ? formatTime(p.arrivedAt, v.lang) : v.t.none,
  };
}

const weekdayLabel = (t: DashboardTexts, day: (typeof WEEKDAYS)[number]) => t[`weekday_${day}`];

/**
 * Payouts of the session's environment (docs/payouts.md): the balance, the list, a payout and the
 * balance transactions it paid, "pay out now" and the payout schedule. Both forms are the owners'
 * and go through `PayoutsService`, as `POST /payouts` and `PATCH /payout-schedule` do.
 */
@DashboardPages()
export class DashboardPayoutsController {
  constructor(
    private readonly renderer: DashboardRenderer,
    private readonly payouts: PayoutsService,
    private readonly ledger: LedgerService,
  ) {}

  @ReadsReplica('page')
  @Get('payouts')
  async list(@Dash() d: DashboardRequest): Promise<void> {
    await this.renderList(d, { amount: '' });
  }

  /** Owners only. `amount` empty: the whole available balance. To the new payout's page. */
  @Post('payouts')
  @DashboardAccess('owner')
  async payNow(@Dash() d: DashboardRequest): Promise<void> {
    const form: PayNowForm = { amount: d.field('amount').trim() };
    const amount = form.amount === '' ? undefined : parseAmount(form.amount);
    if (form.amount !== '' && amount === undefined)
      return this.renderList(d, { ...form, error: { text: d.t.invalidAmount } });
    const tenant = d.tenant;
    let payout: PayoutJson;
    try {
      assertMayAskForMoney(tenant);
      payout = await this.payouts.create(tenant, { amount });
    } catch (err) {
      if (!AppError.is(err, ...PAYOUT_RULES)) throw err;
      return this.renderList(d, { ...form, error: apiFormMessage(d.lang, err) });
    }
    d.page.redirect(`/dashboard/payouts/${payout.id}?notice=payoutCreated`);
  }

  /** Owners only: `interval`, `weeklyDay` (a weekly schedule), `minimumAmount`. */
  @Post('payout-schedule')
  @DashboardAccess('owner')
  async saveSchedule(@Dash() d: DashboardRequest): Promise<void> {
    const { t } = d;
    const form: ScheduleForm = {
      interval: d.field('interval'),
      weeklyDay: d.field('weeklyDay'),
      minimumAmount: d.field('minimumAmount').trim(),
      errors: {},
    };
    const interval = parseChoice(form.interval, PAYOUT_INTERVALS);
    const weeklyDay = parseChoice(form.weeklyDay, WEEKDAYS);
    const minimumAmount = parseAmount(form.minimumAmount);
    if (!interval) form.errors.interval = { text: t.chooseScheduleInterval };
    if (interval === 'weekly' && !weeklyDay) form.errors.weeklyDay = { text: t.chooseWeekday };
    if (minimumAmount === undefined) form.errors.minimumAmount = { text: t.invalidAmount };
    if (Object.keys(form.errors).length > 0) return this.renderList(d, { amount: '' }, form);
    try {
      await this.payouts.updateSchedule(d.tenant, {
        interval,
        weeklyDay: interval === 'weekly' ? weeklyDay : undefined,
        minimumAmount,
      });
    } catch (err) {
      if (!AppError.is(err, ...AMOUNT_RULES)) throw err;
      form.errors.minimumAmount = apiFormMessage(d.lang, err);
      return this.renderList(d, { amount: '' }, form);
    }
    d.page.redirect('/dashboard/payouts?notice=scheduleSaved');
  }

  /** The payout and the balance transactions it paid; the 404 page for any other environment's. */
  @Get('payouts/:id')
  async payout(@Dash() d: DashboardRequest, @Param('id') id: string): Promise<void> {
    const { t } = d;
    const v = { t, lang: d.lang };
    const tenant = d.tenant;
    const payout = await this.payouts.get(tenant, idOr404(id));
    const transactions = await this.ledger.list(tenant, {
      payoutId: payout.id,
      page: pageNumber(d),
      limit: PAGE_SIZE,
    });
    const row = payoutRow(v, payout);
    this.renderer.render(d, 'payout', fill(t.payoutTitle, { amount: row.amount }), {
      payout: row,
      transactions: transactions.data.map((x) => ({
        id: x.id,
        type: t[`txType_${x.type}`],
        amount: formatMru(x.amount, v.lang),
        fee: formatMru(x.fee, v.lang),
        net: formatMru(x.net, v.lang),
        sourceId: x.sourceId,
        availableOn: formatTime(x.availableOn, v.lang),
        created: formatTime(x.createdAt, v.lang),
      })),
      pager: numberedPager(v, `/dashboard/payouts/${payout.id}`, transactions),
    });
  }

  private async renderList(d: DashboardRequest, payNow: PayNowForm, scheduleForm?: ScheduleForm) {
    const { t } = d;
    const v = { t, lang: d.lang };
    const tenant = d.tenant;
    const [balance, schedule, list] = await Promise.all([
      this.ledger.balance(tenant),
      this.payouts.schedule(tenant),
      this.payouts.list(tenant, { page: pageNumber(d), limit: PAGE_SIZE }),
    ]);
    this.renderer.render(d, 'payouts', t.payoutsTitle, {
      balance: {
        available: formatMru(balance.available, v.lang),
        pending: formatMru(balance.pending, v.lang),
      },
      payNow: { ...payNow, help: fill(t.payNowHelp, { amount: formatMru(balance.available, v.lang) }) },
      schedule: this.schedule(v, schedule, scheduleForm),
      rows: list.data.map((p) => payoutRow(v, p)),
      pager: numberedPager(v, '/dashboard/payouts', list),
    });
  }

  /** The schedule as it is, and its form (as sent back when it had errors). */
  private schedule(v: Viewer, s: PayoutScheduleJson, form?: ScheduleForm) {
    const { t } = v;
    const interval = form?.interval ?? s.interval;
    const weeklyDay = form?.weeklyDay ?? s.weeklyDay ?? 'monday';
    return {
      summary:
        s.interval === 'weekly' && s.weeklyDay
          ? `${t.payoutInterval_weekly} (${weekdayLabel(t, s.weeklyDay)})`
          : t[`payoutInterval_${s.interval}`],
      minimumAmount: formatMru(s.minimumAmount, v.lang),
      // The time as one value (`08:00`): an Arabic sentence keeps it whole, isolated, never `00:8`.
      help: fill(t.scheduleHelp, { hour: s.hourUtc, time: `${String(s.hourUtc).padStart(2, '0')}:00` }),
      intervals: PAYOUT_INTERVALS.map((i) => ({
        value: i,
        label: t[`payoutInterval_${i}`],
        checked: i === interval,
      })),
      weekdays: WEEKDAYS.map((w) => ({ value: w, label: weekdayLabel(t, w), selected: w === weeklyDay })),
      form: { minimumAmount: form?.minimumAmount ?? String(s.minimumAmount), errors: form?.errors ?? {} },
    };
  }
}
