import type { PaymentRequestsRepository } from '../payment-requests/payment-requests.repository';
import type { PaymentDayRow, PaymentsRepository } from '../payments/payments.repository';
import { ReportsService } from './reports.service';

const METHOD = { id: 'm1', name: 'Masrivi', type: 'masrivi', enabled: true } as const;
const scope = { organizationId: 'o', environmentId: 'e', environment: 'sandbox' as const };

function fakes(payments: PaymentDayRow[], requests: { day: string; count: number }[]) {
  const calls: string[] = [];
  const inRange = (day: string, from: Date, to: Date | null) =>
    day >= from.toISOString().slice(0, 10) && (to === null || day < to.toISOString().slice(0, 10));
  const paymentsRepo = {
    methods: async () => [METHOD],
    settledDays: async (_e: string, from: Date, to: Date | null) => {
      calls.push(`payments ${from.toISOString().slice(0, 10)}..${to?.toISOString().slice(0, 10) ?? ''}`);
      return payments.filter((p) => inRange(p.day, from, to));
    },
  } as unknown as PaymentsRepository;
  const paymentRequests = {
    createdDays: async (_e: string, from: Date, to: Date | null) =>
      requests.filter((r) => inRange(r.day, from, to)),
  } as unknown as PaymentRequestsRepository;
  return { service: new ReportsService(paymentsRepo, paymentRequests), calls };
}

const row = (day: string, status: 'completed' | 'failed', count: number, amount: number): PaymentDayRow => ({
  day,
  methodId: 'm1',
  status,
  count,
  amount,
});

describe('the overview figures', () => {
  const now = new Date('2025-11-23T12:00:00Z');

  it('sums today, the last 7 and 30 UTC days, and rates each bank app', async () => {
    const { service } = fakes(
      [
        row('2025-11-23', 'completed', 2, 1500),
        row('2025-11-23', 'failed', 1, 800),
        row('2025-11-20', 'completed', 1, 2000),
        row('2025-11-03', 'completed', 1, 4000),
        row('2025-10-20', 'completed', 9, 9000), // 34 days ago: out of every window
      ],
      [
        { day: '2025-11-23', count: 3 },
        { day: '2025-11-03', count: 2 },
      ],
    );
    const o = await service.overview(scope, now);
    expect(o.totals).toEqual({
      today: { paidCount: 2, paidAmount: 1500, settled: 3, requestsCreated: 3 },
      last7Days: { paidCount: 3, paidAmount: 3500, settled: 4, requestsCreated: 3 },
      last30Days: { paidCount: 4, paidAmount: 7500, settled: 5, requestsCreated: 5 },
    });
    expect(o.methods[0].windows.today).toEqual({ completed: 2, settled: 3 });
    expect(o.days).toHaveLength(30);
    expect(o.days[0].day).toBe('2025-10-25');
    expect(o.days[29]).toEqual({ day: '2025-11-23', amount: 1500, count: 2 });
  });

  it('reads the 28 final days once a day, and yesterday and today on every view', async () => {
    const { service, calls } = fakes([], []);
    await service.overview(scope, now);
    await service.overview(scope, new Date('2025-11-23T18:00:00Z'));
    expect(calls).toEqual([
      'payments 2025-10-25..2025-11-22',
      'payments 2025-11-22..',
      'payments 2025-11-22..',
    ]);
    await service.overview(scope, new Date('2025-11-24T00:00:01Z'));
    expect(calls.slice(3)).toEqual(['payments 2025-10-26..2025-11-23', 'payments 2025-11-23..']);
  });
});
