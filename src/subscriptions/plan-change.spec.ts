import { AppError } from '../common/errors/app-error';
import type { PriceInterval } from '../prices/price';
import { cancel, pause, renew, RenewalInput, startSubscription, SubscriptionTerms } from './lifecycle';
import { changePlan, PlanChangeRequest, proratedAmount } from './plan-change';
import type { Subscription } from './subscription';
import { SubscriptionError } from './subscriptions.errors';

const d = (iso: string) => new Date(iso);
const IDS = {
  id: 'sub',
  organizationId: 'org',
  environmentId: 'env',
  customerId: 'cus',
  applicationFeeBps: null,
};

/** A subscription started with these terms and renewed (billed) up to `now`. */
function running(interval: PriceInterval, terms: SubscriptionTerms, now: Date, amount = 1500): Subscription {
  const s = startSubscription(IDS, { id: 'old', interval }, terms, terms.startedAt ?? now);
  return renew(input(s, amount), now).subscription;
}
const input = (
  s: Subscription,
  amount: number,
  pendingPrice: RenewalInput['pendingPrice'] = null,
): RenewalInput => ({
  subscription: s,
  price: { amount, interval: s.billingInterval },
  pendingPrice,
  oldestUnpaidDue: null,
});
const req = (over: Partial<PlanChangeRequest> = {}): PlanChangeRequest => ({
  price: { id: 'new', amount: 3000, interval: 'monthly' },
  quantity: 1,
  prorate: true,
  at: 'now',
  ...over,
});
const code = (fn: () => unknown) => {
  try {
    fn();
  } catch (err) {
    if (AppError.is(err)) return { code: err.code, status: err.status };
    throw err;
  }
  throw new Error('did not throw');
};

describe('proratedAmount', () => {
  it.each([
    [1, 1, 2, 1], // 0.5 → 1
    [-1, 1, 2, -1], // a credit of 0.5 → 1
    [3, 1, 4, 1], // 0.75
    [1, 1, 4, 0], // 0.25
    [5, 1, 2, 3], // 2.5 → 3
    [-5, 1, 2, -3],
    [1500, 0, 1000, 0],
    [1500, 1000, 1000, 1500],
    [999_999_999_999, 31_622_400_000, 31_622_400_000, 999_999_999_999],
  ])('(%d × %d / %d) rounds half up on the magnitude to %d', (difference, remaining, period, expected) => {
    expect(proratedAmount(difference, remaining, period)).toBe(expected);
  });

  it('refuses a remaining time outside the period', () => {
    expect(() => proratedAmount(1, 2, 1)).toThrow(RangeError);
    expect(() => proratedAmount(1, -1, 1)).toThrow(RangeError);
  });
});

describe('changing plan', () => {
  const jan31 = { startedAt: d('2024-01-31T10:00:00.000Z') };

  it('now, within a billed period: the new price and quantity, and the difference over what is left of the period', () => {
    // Period [2024-02-29T10:00, 2024-03-31T10:00): 31 days; 15.5 days left at 2024-03-15T22:00.
    const now = d('2024-03-15T22:00:00.000Z');
    const s = running('monthly', jan31, now);
    expect([s.currentPeriodStart, s.currentPeriodEnd]).toEqual([
      d('2024-02-29T10:00:00.000Z'),
      d('2024-03-31T10:00:00.000Z'),
    ]);
    const c = changePlan(s, { amount: 1500, interval: 'monthly' }, req({ quantity: 2 }), now);
    expect(c.subscription).toMatchObject({ priceId: 'new', quantity: 2, pendingPriceId: null });
    expect(c.proration).toEqual({
      amount: (6000 - 1500) / 2,
      start: now,
      end: d('2024-03-31T10:00:00.000Z'),
    });
  });

  it('down: a negative proration (a credit), rounded half up on its magnitude', () => {
    const now = d('2024-03-15T22:00:00.000Z');
    const s = running('monthly', jan31, now, 1501);
    const c = changePlan(
      s,
      { amount: 1501, interval: 'monthly' },
      req({ price: { id: 'new', amount: 1000, interval: 'monthly' } }),
      now,
    );
    expect(c.proration!.amount).toBe(-251); // −501 / 2 = −250.5
  });

  it('on the billing instant itself: the period just billed at the old price, the whole difference prorated', () => {
    const now = d('2024-02-29T10:00:00.000Z');
    const s = running('monthly', jan31, now);
    expect(s.currentPeriodStart).toEqual(now);
    const c = changePlan(s, { amount: 1500, interval: 'monthly' }, req(), now);
    expect(c.proration).toEqual({ amount: 1500, start: now, end: d('2024-03-31T10:00:00.000Z') });
  });

  it('on Feb 29 of a yearly subscription: the period to Feb 28 of the next year', () => {
    const now = d('2024-08-29T00:00:00.000Z');
    const s = running('yearly', { startedAt: d('2024-02-29T00:00:00.000Z') }, now);
    expect(s.currentPeriodEnd).toEqual(d('2025-02-28T00:00:00.000Z'));
    const c = changePlan(
      s,
      { amount: 1500, interval: 'yearly' },
      req({ price: { id: 'new', amount: 3660, interval: 'yearly' } }),
      now,
    );
    // 183 of 365 days left: 2160 × 183 / 365 = 1083.01…
    expect(c.proration!.amount).toBe(1083);
  });

  it('twice in one period: each prorates from the price and quantity then in force', () => {
    const s0 = running(
      'monthly',
      { startedAt: d('2025-01-01T00:00:00.000Z') },
      d('2025-01-01T00:00:00.000Z'),
    );
    const first = changePlan(
      s0,
      { amount: 1500, interval: 'monthly' },
      req({ quantity: 2 }),
      d('2025-01-11T00:00:00.000Z'),
    );
    // 21 of 31 days: (6000 − 1500) × 21/31 = 3048.39
    expect(first.proration!.amount).toBe(3048);
    const second = changePlan(
      first.subscription,
      { amount: 3000, interval: 'monthly' },
      req({ price: { id: 'new', amount: 3000, interval: 'monthly' }, quantity: 1 }),
      d('2025-01-21T00:00:00.000Z'),
    );
    // 11 of 31 days: (3000 − 6000) × 11/31 = −1064.52
    expect(second.proration!.amount).toBe(-1065);
  });

  it('during a trial: nothing prorated (nothing of it was billed)', () => {
    const now = d('2025-01-05T00:00:00.000Z');
    const s = running('monthly', { startedAt: d('2025-01-01T00:00:00.000Z'), trialPeriod: 14 }, now);
    expect(s.status).toBe('trialing');
    const c = changePlan(s, { amount: 1500, interval: 'monthly' }, req({ quantity: 3 }), now);
    expect(c).toMatchObject({
      subscription: { status: 'trialing', priceId: 'new', quantity: 3 },
      proration: null,
    });
  });

  it('while paused: nothing prorated; the new terms bill from the next period billed', () => {
    const now = d('2025-01-10T00:00:00.000Z');
    const s = pause(running('monthly', { startedAt: d('2025-01-01T00:00:00.000Z') }, now), now).subscription;
    const c = changePlan(s, { amount: 1500, interval: 'monthly' }, req({ quantity: 3 }), now);
    expect(c).toMatchObject({
      subscription: { status: 'paused', priceId: 'new', quantity: 3 },
      proration: null,
    });
  });

  it('pending cancellation: still prorated', () => {
    const now = d('2025-01-16T12:00:00.000Z');
    const s = cancel(
      running('monthly', { startedAt: d('2025-01-01T00:00:00.000Z') }, now),
      true,
      now,
    ).subscription;
    expect(s.status).toBe('pending_cancellation');
    const c = changePlan(s, { amount: 1500, interval: 'monthly' }, req(), now);
    expect(c.proration!.amount).toBe(750);
  });

  it('without prorate: nothing prorated', () => {
    const now = d('2025-01-16T12:00:00.000Z');
    const s = running('monthly', { startedAt: d('2025-01-01T00:00:00.000Z') }, now);
    expect(
      changePlan(s, { amount: 1500, interval: 'monthly' }, req({ prorate: false }), now).proration,
    ).toBeNull();
  });

  it('cancelled, expired or incomplete_expired: 409 Subscription is not active', () => {
    const now = d('2025-01-16T12:00:00.000Z');
    const s = running('monthly', { startedAt: d('2025-01-01T00:00:00.000Z') }, now);
    for (const status of ['cancelled', 'expired', 'incomplete_expired'] as const)
      expect(
        code(() => changePlan({ ...s, status }, { amount: 1, interval: 'monthly' }, req(), now)),
      ).toEqual({
        code: SubscriptionError.NotActive,
        status: 409,
      });
  });

  it('prorated between intervals: 400; without proration, the new interval from the next period', () => {
    const now = d('2025-01-16T12:00:00.000Z');
    const s = running('monthly', { startedAt: d('2025-01-01T00:00:00.000Z') }, now);
    const weekly = { id: 'new', amount: 400, interval: 'weekly' as const };
    expect(
      code(() => changePlan(s, { amount: 1500, interval: 'monthly' }, req({ price: weekly }), now)),
    ).toEqual({
      code: SubscriptionError.ProrationNeedsSameInterval,
      status: 400,
    });
    const c = changePlan(
      s,
      { amount: 1500, interval: 'monthly' },
      req({ price: weekly, prorate: false }),
      now,
    );
    const next = renew(
      { ...input(c.subscription, 400), price: { amount: 400, interval: 'weekly' } },
      d('2025-02-01T00:00:00.000Z'),
    );
    expect(next.periods.map((p) => [p.start.toISOString(), p.end.toISOString(), p.amount])).toEqual([
      ['2025-02-01T00:00:00.000Z', '2025-02-08T00:00:00.000Z', 400],
    ]);
  });

  it('at period end: pendingChange until the renewal of the next period bills it, then cleared', () => {
    const now = d('2025-01-16T12:00:00.000Z');
    const s = running('monthly', { startedAt: d('2025-01-31T00:00:00.000Z') }, d('2025-01-31T00:00:00.000Z'));
    const c = changePlan(
      s,
      { amount: 1500, interval: 'monthly' },
      req({ at: 'period_end', quantity: 4 }),
      now,
    );
    expect(c).toMatchObject({
      subscription: { priceId: 'old', quantity: 1, pendingPriceId: 'new', pendingQuantity: 4 },
      proration: null,
    });
    // Not yet at Feb 27; the period of Feb 28 bills the change.
    expect(
      renew(input(c.subscription, 1500, { amount: 3000, interval: 'monthly' }), d('2025-02-27T00:00:00.000Z'))
        .periods,
    ).toEqual([]);
    const r = renew(
      input(c.subscription, 1500, { amount: 3000, interval: 'monthly', name: 'Pro' }),
      d('2025-02-28T00:00:00.000Z'),
    );
    expect(
      r.periods.map((p) => [p.start.toISOString(), p.unitAmount, p.quantity, p.amount, p.description]),
    ).toEqual([['2025-02-28T00:00:00.000Z', 3000, 4, 12000, 'Pro']]);
    expect(r.subscription).toMatchObject({
      priceId: 'new',
      quantity: 4,
      pendingPriceId: null,
      pendingQuantity: null,
    });
  });

  it('now withdraws a change pending for period end; at period end back to the current terms clears it', () => {
    const now = d('2025-01-16T12:00:00.000Z');
    const s = {
      ...running('monthly', { startedAt: d('2025-01-01T00:00:00.000Z') }, now),
      pendingPriceId: 'x',
      pendingQuantity: 9,
    };
    expect(
      changePlan(s, { amount: 1500, interval: 'monthly' }, req(), now).subscription.pendingPriceId,
    ).toBeNull();
    const back = changePlan(
      s,
      { amount: 1500, interval: 'monthly' },
      req({ at: 'period_end', price: { id: 'old', amount: 1500, interval: 'monthly' } }),
      now,
    );
    expect(back.subscription).toMatchObject({ pendingPriceId: null, pendingQuantity: null });
  });
});

/*
 * 60 generated changes (awkward anchors, intervals, amounts, quantities, instants) against a
 * reference written here from scratch: its own calendar (months by day-of-month clamping, years
 * likewise, weeks as 7 × 86,400 s) and its own rounding (floor division, then up when twice the
 * remainder reaches the divisor).
 */
describe('proration against an independent reference', () => {
  let seed = 20_260_229;
  const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(random() * xs.length)];
  const ANCHORS = [
    '2024-01-31T23:59:59.999Z',
    '2024-02-29T00:00:00.000Z',
    '2023-12-31T12:00:00.000Z',
    '2024-03-31T05:30:00.000Z',
    '2024-05-31T00:00:00.000Z',
    '2024-02-28T18:00:00.000Z',
    '2024-08-31T00:00:00.000Z',
    '2024-01-29T00:00:00.000Z',
  ];

  function refAddMonths(anchor: Date, n: number): Date {
    const months = anchor.getUTCMonth() + n;
    const y = anchor.getUTCFullYear() + Math.floor(months / 12);
    const m = months % 12;
    const leap = (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
    const last = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m];
    const day = Math.min(anchor.getUTCDate(), last);
    const date = `${y}-${String(m + 1).padStart(2, '0')}-${String(day).padStart(2, '0')}T00:00:00.000Z`;
    return new Date(Date.parse(date) + (anchor.getTime() % 86_400_000));
  }
  function refBoundary(anchor: Date, interval: PriceInterval, n: number): Date {
    if (interval === 'weekly') return new Date(anchor.getTime() + n * 7 * 86_400_000);
    return refAddMonths(anchor, interval === 'monthly' ? n : 12 * n);
  }
  function refProration(oldTotal: number, newTotal: number, now: Date, start: Date, end: Date): number {
    const num = BigInt(newTotal - oldTotal) * BigInt(end.getTime() - now.getTime());
    const den = BigInt(end.getTime() - start.getTime());
    const neg = num < 0n;
    const abs = neg ? -num : num;
    let q = abs / den;
    if ((abs % den) * 2n >= den) q += 1n;
    return Number(neg ? -q : q);
  }

  const cases = Array.from({ length: 60 }, (_, i) => {
    const interval = pick(['weekly', 'monthly', 'yearly'] as const);
    const anchor = d(pick(ANCHORS));
    const n = 1 + Math.floor(random() * (interval === 'weekly' ? 80 : interval === 'monthly' ? 30 : 2));
    const start = refBoundary(anchor, interval, n);
    const end = refBoundary(anchor, interval, n + 1);
    // The instant: the period's first instant, its last millisecond, or anywhere within.
    const within =
      i % 10 === 0
        ? 0
        : i % 10 === 1
          ? end.getTime() - start.getTime() - 1
          : Math.floor(random() * (end.getTime() - start.getTime()));
    return {
      interval,
      anchor,
      now: new Date(start.getTime() + within),
      start,
      end,
      oldAmount: 1 + Math.floor(random() * 100_000),
      oldQuantity: 1 + Math.floor(random() * (i % 3 === 0 ? 10_000 : 30)),
      newAmount: 1 + Math.floor(random() * 100_000),
      newQuantity: 1 + Math.floor(random() * (i % 4 === 0 ? 10_000 : 30)),
    };
  });

  it.each(cases.map((c, i) => [i, c.interval, c.anchor.toISOString(), c.now.toISOString(), c] as const))(
    'case %d: %s from %s, changed at %s',
    (_i, interval, _a, _n, c) => {
      const s0 = startSubscription(
        IDS,
        { id: 'old', interval },
        { startedAt: c.anchor, quantity: c.oldQuantity },
        c.anchor,
      );
      const s = renew(input(s0, c.oldAmount), c.now, 200).subscription;
      expect([s.currentPeriodStart, s.currentPeriodEnd]).toEqual([c.start, c.end]);
      const change = changePlan(
        s,
        { amount: c.oldAmount, interval },
        {
          price: { id: 'new', amount: c.newAmount, interval },
          quantity: c.newQuantity,
          prorate: true,
          at: 'now',
        },
        c.now,
      );
      const expected = refProration(
        c.oldAmount * c.oldQuantity,
        c.newAmount * c.newQuantity,
        c.now,
        c.start,
        c.end,
      );
      expect(change.proration?.amount ?? 0).toBe(expected);
      if (expected !== 0) expect(change.proration).toMatchObject({ start: c.now, end: c.end });
    },
  );
});
