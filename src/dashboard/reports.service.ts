import { Injectable } from '@nestjs/common';
import type { EnvironmentScope } from '../organizations/tenant';
import type { PaymentMethod } from '../payments/payment';
import { PaymentsRepository } from '../payments/payments.repository';
import { DashboardRepository } from './dashboard.repository';
import { utcDay } from './format';

export const WINDOWS = ['today', 'last7Days', 'last30Days'] as const;
export type Window = (typeof WINDOWS)[number];
const WINDOW_DAYS: Record<Window, number> = { today: 1, last7Days: 7, last30Days: 30 };

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

/**
 * The overview's figures for today, the last 7 and the last 30 UTC days (Mauritania's days): two
 * grouped reads over the last 30 days, summed here.
 */
@Injectable()
export class ReportsService {
  constructor(
    private readonly repo: DashboardRepository,
    private readonly payments: PaymentsRepository,
  ) {}

  async overview(scope: EnvironmentScope, now = new Date()): Promise<Overview> {
    const days = Array.from({ length: 30 }, (_, i) => {
      const d = new Date(now);
      d.setUTCDate(d.getUTCDate() - (29 - i));
      return utcDay(d);
    });
    const since = new Date(`${days[0]}T00:00:00Z`);
    const [paymentRows, requestRows, methods] = await Promise.all([
      this.repo.paymentDays(scope.environmentId, since),
      this.repo.requestDays(scope.environmentId, since),
      this.payments.methods(scope.environmentId),
    ]);
    const firstDayOf = (w: Window) => days[days.length - WINDOW_DAYS[w]];
    const within = (w: Window, day: string) => day >= firstDayOf(w);

    const totals = Object.fromEntries(
      WINDOWS.map((w) => {
        const rows = paymentRows.filter((r) => within(w, r.day));
        const completed = rows.filter((r) => r.status === 'completed');
        return [
          w,
          {
            paidCount: sum(completed.map((r) => r.count)),
            paidAmount: sum(completed.map((r) => Number(r.amount))),
            settled: sum(rows.filter((r) => r.status !== 'pending').map((r) => r.count)),
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
                settled: sum(rows.filter((r) => r.status !== 'pending').map((r) => r.count)),
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
}

const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
