import { Injectable } from '@nestjs/common';
import type { EnvironmentScope } from '../organizations/tenant';
import type { PaymentMethod } from '../payments/payment';
import { PaymentRequestsRepository } from '../payment-requests/payment-requests.repository';
import { PaymentDayRow, PaymentsRepository } from '../payments/payments.repository';
import { utcDay } from './format';

export const WINDOWS = ['today', 'last7Days', 'last30Days'] as const;
export type Window = (typeof WINDOWS)[number];
const WINDOW_DAYS: Record<Window, number> = { today: 1, last7Days: 7, last30Days: 30 };

/** Days before yesterday are final: computed once per environment and day by each instance. */
const LIVE_DAYS = 2;
const CACHED_ENVIRONMENTS = 1000;

export interface WindowTotals {
  /** Payments completed (each pays one request), and what they paid. */
  paidCount: number;
  paidAmount: number;
  /** Payments that ended (completed or failed): the success rate's whole. */
  settled: number;
  requestsCreated: number;
}

export interface MethodRates {
  method: Pick<PaymentMethod, 'id' | 'name' | 'type'>;
  /** Completed and settled (completed + failed) payments per window. */
  windows: Record<Window, { completed: number; settled: number }>;
}

export interface Overview {
  totals: Record<Window, WindowTotals>;
  methods: MethodRates[];
  /** The last 30 UTC days, oldest first, with what was paid on each. */
  days: { day: string; amount: number; count: number }[];
}

interface Rows {
  payments: PaymentDayRow[];
  requests: { day: string; count: number }[];
}

/**
 * The overview's figures for today, the last 7 and the last 30 UTC days (Mauritania's days), by the
 * day a payment was made or a request created. Yesterday and today are read on every view (two
 * days of rows); the 28 days before are read once a day per environment and kept, since they no
 * longer change (a payment still pending two days after it was made, which reconciliation does not
 * let happen, would be counted from the next day). At 1,000,000 requests over 90 days a view reads
 * about 22,000 rows instead of 333,000 (docs/dashboard.md).
 */
@Injectable()
export class ReportsService {
  private readonly settledDays = new Map<string, Rows & { key: string }>();

  constructor(
    private readonly payments: PaymentsRepository,
    private readonly requests: PaymentRequestsRepository,
  ) {}

  async overview(scope: EnvironmentScope, now = new Date()): Promise<Overview> {
    const days = Array.from({ length: 30 }, (_, i) => {
      const d = new Date(now);
      d.setUTCDate(d.getUTCDate() - (29 - i));
      return utcDay(d);
    });
    const start = (day: string) => new Date(`${day}T00:00:00Z`);
    const liveFrom = start(days[days.length - LIVE_DAYS]);
    const [past, live, methods] = await Promise.all([
      this.pastRows(scope.environmentId, start(days[0]), liveFrom),
      Promise.all([
        this.payments.settledDays(scope.environmentId, liveFrom, null),
        this.requests.createdDays(scope.environmentId, liveFrom, null),
      ]),
      this.payments.methods(scope.environmentId),
    ]);
    const paymentRows = [...past.payments, ...live[0]];
    const requestRows = [...past.requests, ...live[1]];
    const firstDayOf = (w: Window) => days[days.length - WINDOW_DAYS[w]];
    const within = (w: Window, day: string) => day >= firstDayOf(w) && day <= days[days.length - 1];

    const totals = Object.fromEntries(
      WINDOWS.map((w) => {
        const rows = paymentRows.filter((r) => within(w, r.day));
        const completed = rows.filter((r) => r.status === 'completed');
        return [
          w,
          {
            paidCount: sum(completed.map((r) => r.count)),
            paidAmount: sum(completed.map((r) => Number(r.amount))),
            settled: sum(rows.map((r) => r.count)),
            requestsCreated: sum(requestRows.filter((r) => within(w, r.day)).map((r) => r.count)),
          },
        ];
      }),
    ) as Record<Window, WindowTotals>;

    const rates: MethodRates[] = methods
      .filter((m) => m.enabled || paymentRows.some((r) => r.methodId === m.id))
      .map((m) => ({
        method: { id: m.id, name: m.name, type: m.type },
        windows: Object.fromEntries(
          WINDOWS.map((w) => {
            const rows = paymentRows.filter((r) => r.methodId === m.id && within(w, r.day));
            return [
              w,
              {
                completed: sum(rows.filter((r) => r.status === 'completed').map((r) => r.count)),
                settled: sum(rows.map((r) => r.count)),
              },
            ];
          }),
        ) as MethodRates['windows'],
      }));

    const series = days.map((day) => {
      const paid = paymentRows.filter((r) => r.day === day && r.status === 'completed');
      return { day, amount: sum(paid.map((r) => Number(r.amount))), count: sum(paid.map((r) => r.count)) };
    });
    return { totals, methods: rates, days: series };
  }

  /** The final days [from, to) of an environment: read once per day, then kept. */
  private async pastRows(environmentId: string, from: Date, to: Date): Promise<Rows> {
    const key = `${from.toISOString()}/${to.toISOString()}`;
    const kept = this.settledDays.get(environmentId);
    if (kept?.key === key) return kept;
    const [payments, requests] = await Promise.all([
      this.payments.settledDays(environmentId, from, to),
      this.requests.createdDays(environmentId, from, to),
    ]);
    this.settledDays.delete(environmentId);
    if (this.settledDays.size >= CACHED_ENVIRONMENTS)
      this.settledDays.delete(this.settledDays.keys().next().value!);
    this.settledDays.set(environmentId, { key, payments, requests });
    return { payments, requests };
  }
}

const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
