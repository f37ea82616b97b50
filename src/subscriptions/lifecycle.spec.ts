import { AppError } from '../common/errors/app-error';
import {
  cancel,
  dueAt,
  pause,
  renew,
  RenewalInput,
  resume,
  startSubscription,
  SubscriptionTerms,
} from './lifecycle';
import { periodsStartedBy } from './periods';
import type { Subscription } from './subscription';
import { SubscriptionError } from './subscriptions.errors';

const d = (iso: string) => new Date(iso);
const iso = (date: Date | null) => date?.toISOString() ?? null;
const IDS = {
  id: 'sub',
  organizationId: 'org',
  environmentId: 'env',
  customerId: 'cus',
  applicationFeeBps: null,
};
const MONTHLY: { id: string; interval: 'weekly' | 'monthly' | 'yearly' } = {
  id: 'price',
  interval: 'monthly',
};
const NOW = d('2025-03-15T12:00:00.000Z');

const start = (terms: SubscriptionTerms = {}, now = NOW, price = MONTHLY) =>
  startSubscription(IDS, price, terms, now);

const input = (
  subscription: Subscription,
  price: Partial<RenewalInput['price']> = {},
  oldestUnpaidDue: Date | null = null,
): RenewalInput => ({
  subscription,
  price: { amount: 1500, interval: subscription.billingInterval, ...price },
  oldestUnpaidDue,
});

const code = (fn: () => unknown) => {
  try {
    fn();
  } catch (err) {
    if (AppError.is(err)) return { code: err.code, status: err.status, message: err.message };
    throw err;
  }
  throw new Error('did not throw');
};

const starts = (r: ReturnType<typeof renew>) => r.periods.map((p) => iso(p.start));

describe('starting a subscription', () => {
  it('without a trial: active, its first period starting at startedAt (default now), nothing billed yet', () => {
    const s = start();
    expect(s).toMatchObject({
      status: 'active',
      startedAt: NOW,
      billingAnchor: NOW,
      nextBillingDate: NOW,
      nextPeriod: 0,
    });
    expect(s.trialEnd).toBeNull();
    expect(s.currentPeriodStart).toBeNull();
    const later = start({ startedAt: d('2025-04-01T00:00:00.000Z') });
    expect(iso(later.nextBillingDate)).toBe('2025-04-01T00:00:00.000Z');
  });

  it.each([
    [{ trial: true, trialPeriod: '1_week' }, '2025-03-22T12:00:00.000Z'],
    [{ trial: true, trialPeriod: '1_month' }, '2025-04-15T12:00:00.000Z'],
    [{ trial: true, trialPeriod: '1_year' }, '2026-03-15T12:00:00.000Z'],
    [{ trial: true, trialPeriod: 10 }, '2025-03-25T12:00:00.000Z'],
    [{ trial: true, trialEnd: d('2025-05-01T00:00:00.000Z') }, '2025-05-01T00:00:00.000Z'],
    [{ trialPeriod: '1_week' }, '2025-03-22T12:00:00.000Z'],
    [{ trialEnd: d('2025-05-01T00:00:00.000Z'), trialPeriod: '1_week' }, '2025-05-01T00:00:00.000Z'],
  ] as const)('with a trial %p: trialing until %s, the trial being the current period', (terms, end) => {
    const s = start(terms);
    expect(s.status).toBe('trialing');
    expect(iso(s.trialEnd)).toBe(end);
    expect(iso(s.billingAnchor)).toBe(end);
    expect(iso(s.nextBillingDate)).toBe(end);
    expect([iso(s.currentPeriodStart), iso(s.currentPeriodEnd)]).toEqual([iso(NOW), end]);
  });

  it('counts a trial from startedAt', () => {
    const s = start({ trialPeriod: '1_month', startedAt: d('2025-01-31T00:00:00.000Z') });
    expect(iso(s.trialEnd)).toBe('2025-02-28T00:00:00.000Z');
  });

  it('ignores the trial fields when trial is false', () => {
    expect(start({ trial: false, trialPeriod: '1_week' }).status).toBe('active');
  });

  it('refuses trial: true without a trialPeriod or trialEnd, a trial ending before it starts, and expiresAt before startedAt', () => {
    expect(code(() => start({ trial: true }))).toEqual({
      code: SubscriptionError.TrialNeedsPeriodOrEnd,
      status: 400,
      message: 'trialPeriod or trialEnd is required when trial is true',
    });
    expect(code(() => start({ trialEnd: NOW })).code).toBe(SubscriptionError.TrialEndNotAfterStart);
    expect(code(() => start({ expiresAt: d('2025-03-01T00:00:00.000Z') })).code).toBe(
      SubscriptionError.ExpiresAtNotAfterStart,
    );
  });
});

describe('a backdated start', () => {
  const WEEKLY = { id: 'price', interval: 'weekly' as const };
  const weeksBefore = (n: number) => new Date(NOW.getTime() - n * 7 * 86_400_000);

  it('accepts a start whose started periods number exactly 100, and refuses 101 with 400, weekly and monthly', () => {
    // 99 intervals back: periods 0..99 have started; 100 back: periods 0..100.
    expect(
      periodsStartedBy(start({ startedAt: weeksBefore(99) }, NOW, WEEKLY).billingAnchor, 'weekly', NOW),
    ).toBe(100);
    expect(code(() => start({ startedAt: weeksBefore(100) }, NOW, WEEKLY))).toEqual({
      code: SubscriptionError.StartTooFarInPast,
      status: 400,
      message: 'Start date is too far in the past',
    });
    expect(start({ startedAt: d('2016-12-15T12:00:00.000Z') }).status).toBe('active'); // 99 months back
    expect(code(() => start({ startedAt: d('2016-11-15T12:00:00.000Z') })).code).toBe(
      SubscriptionError.StartTooFarInPast,
    );
  });

  it('refuses a start in year 1, which would bill about 105,000 weeks', () => {
    expect(code(() => start({ startedAt: d('0001-01-01T00:00:00.000Z') }, NOW, WEEKLY)).code).toBe(
      SubscriptionError.StartTooFarInPast,
    );
  });

  it('counts only the periods before expiresAt, and those after a trial’s end', () => {
    expect(start({ startedAt: weeksBefore(500), expiresAt: weeksBefore(400) }, NOW, WEEKLY).status).toBe(
      'active',
    );
    expect(
      code(() => start({ startedAt: weeksBefore(500), expiresAt: weeksBefore(399) }, NOW, WEEKLY)).code,
    ).toBe(SubscriptionError.StartTooFarInPast);
    expect(start({ startedAt: weeksBefore(150), trialEnd: weeksBefore(99) }, NOW, WEEKLY).status).toBe(
      'trialing',
    );
  });
});

describe('renewal', () => {
  it('bills the first period at once: one invoice for [startedAt, startedAt + 1 month), active, nothing overdue', () => {
    const r = renew(input(start()), NOW);
    expect(r.periods.map((p) => [iso(p.start), iso(p.end), p.amount])).toEqual([
      ['2025-03-15T12:00:00.000Z', '2025-04-15T12:00:00.000Z', 1500],
    ]);
    expect(r.subscription).toMatchObject({ status: 'active', nextPeriod: 1 });
    expect(iso(r.subscription.currentPeriodStart)).toBe('2025-03-15T12:00:00.000Z');
    expect(iso(r.subscription.nextBillingDate)).toBe('2025-04-15T12:00:00.000Z');
    expect([r.overdue, r.ended, r.changed]).toEqual([false, null, true]);
  });

  it('is idempotent: renewing again at the same time bills nothing and changes nothing', () => {
    const once = renew(input(start({ startedAt: d('2024-12-01T00:00:00.000Z') })), NOW);
    const twice = renew(input(once.subscription, {}, d('2025-01-01T00:00:00.000Z')), NOW);
    expect(twice.periods).toEqual([]);
    expect(twice.changed).toBe(false);
    expect(twice.subscription).toBe(once.subscription);
  });

  it('catches up a backdated start: one invoice per started period, contiguous, all but the current one overdue', () => {
    const r = renew(input(start({ startedAt: d('2024-11-30T09:00:00.000Z') })), NOW);
    expect(starts(r)).toEqual([
      '2024-11-30T09:00:00.000Z',
      '2024-12-30T09:00:00.000Z',
      '2025-01-30T09:00:00.000Z',
      '2025-02-28T09:00:00.000Z',
    ]);
    for (let i = 1; i < r.periods.length; i++) expect(r.periods[i].start).toEqual(r.periods[i - 1].end);
    expect(r.periods.map((p) => p.overdue)).toEqual([true, true, true, true]);
    expect(iso(r.subscription.nextBillingDate)).toBe('2025-03-30T09:00:00.000Z');
    expect(r.overdue).toBe(true);
  });

  it('bills the anchor day again after a short month (Jan 31 → Feb 29 → Mar 31)', () => {
    const r = renew(
      input(start({ startedAt: d('2024-01-31T00:00:00.000Z') })),
      d('2024-04-01T00:00:00.000Z'),
    );
    expect(starts(r)).toEqual([
      '2024-01-31T00:00:00.000Z',
      '2024-02-29T00:00:00.000Z',
      '2024-03-31T00:00:00.000Z',
    ]);
  });

  it('marks the subscription overdue when an older invoice is still pending when the next period starts', () => {
    const first = renew(input(start()), NOW).subscription;
    const due = first.nextBillingDate!;
    const r = renew(input(first, {}, due), due);
    expect(r.periods).toHaveLength(1);
    expect(r.periods[0].overdue).toBe(true);
    const paid = renew(input(first, {}, null), due);
    expect(paid.periods[0].overdue).toBe(false);
  });

  it('bills nothing before the next billing date', () => {
    const first = renew(input(start()), NOW).subscription;
    const r = renew(input(first), new Date(first.nextBillingDate!.getTime() - 1));
    expect([r.periods.length, r.changed]).toEqual([0, false]);
  });

  it('bills each period at the price amount of the moment', () => {
    const first = renew(input(start()), NOW).subscription;
    const r = renew(input(first, { amount: 2500 }), first.nextBillingDate!);
    expect(r.periods[0].amount).toBe(2500);
  });

  it('continues on the new interval from the end of the current period when the price interval changed', () => {
    const first = renew(input(start()), NOW).subscription;
    const r = renew(input(first, { interval: 'weekly' }), d('2025-04-30T00:00:00.000Z'));
    expect(starts(r)).toEqual([
      '2025-04-15T12:00:00.000Z',
      '2025-04-22T12:00:00.000Z',
      '2025-04-29T12:00:00.000Z',
    ]);
    expect(r.subscription).toMatchObject({ billingInterval: 'weekly', nextPeriod: 3 });
    expect(iso(r.subscription.billingAnchor)).toBe('2025-04-15T12:00:00.000Z');
  });

  describe('trials', () => {
    it('bills nothing during the trial, then the first period from the trial end', () => {
      const s = start({ trialPeriod: 14 });
      expect(renew(input(s), d('2025-03-29T11:59:59.999Z')).changed).toBe(false);
      const r = renew(input(s), d('2025-03-29T12:00:00.000Z'));
      expect(r.periods.map((p) => [iso(p.start), iso(p.end)])).toEqual([
        ['2025-03-29T12:00:00.000Z', '2025-04-29T12:00:00.000Z'],
      ]);
      expect(r.subscription.status).toBe('active');
      expect(r.subscription.trialEnd).toEqual(s.trialEnd);
    });

    it('catches up from a trial end in the past', () => {
      const s = start({ startedAt: d('2025-01-01T00:00:00.000Z'), trialPeriod: '1_month' });
      expect(starts(renew(input(s), NOW))).toEqual(['2025-02-01T00:00:00.000Z', '2025-03-01T00:00:00.000Z']);
    });
  });

  describe('expiry', () => {
    it('bills the periods starting before expiresAt, none after, and is expired from expiresAt', () => {
      const s = start({ startedAt: d('2025-01-01T00:00:00.000Z'), expiresAt: d('2025-03-01T00:00:00.000Z') });
      const r = renew(input(s), NOW);
      expect(starts(r)).toEqual(['2025-01-01T00:00:00.000Z', '2025-02-01T00:00:00.000Z']);
      expect(r.subscription.status).toBe('expired');
      expect(r.subscription.nextBillingDate).toBeNull();
      expect(r.ended).toBe('expired');
    });

    it('stays active until expiresAt even when no period remains to bill', () => {
      const s = start({ expiresAt: d('2025-04-01T00:00:00.000Z') });
      const first = renew(input(s), NOW);
      expect(first.subscription.status).toBe('active');
      const before = renew(input(first.subscription), d('2025-03-31T23:59:59.999Z'));
      expect(before.changed).toBe(false);
      const after = renew(input(first.subscription), d('2025-04-01T00:00:00.000Z'));
      expect([after.periods.length, after.subscription.status]).toEqual([0, 'expired']);
    });

    it('expires a trial that outlives expiresAt without billing', () => {
      const s = start({ trialPeriod: '1_year', expiresAt: d('2025-06-01T00:00:00.000Z') });
      const r = renew(input(s), d('2025-06-01T00:00:00.000Z'));
      expect([r.periods.length, r.subscription.status]).toEqual([0, 'expired']);
    });

    it('expires a paused subscription too', () => {
      const s = pause(
        renew(input(start({ expiresAt: d('2025-05-01T00:00:00.000Z') })), NOW).subscription,
        NOW,
      ).subscription;
      const r = renew(input(s), d('2025-06-01T00:00:00.000Z'));
      expect([r.periods.length, r.subscription.status, r.subscription.pausedAt]).toEqual([
        0,
        'expired',
        null,
      ]);
    });
  });

  describe('catch-up in passes', () => {
    it('bills at most MAX_PERIODS_PER_PASS periods at a time and, pass after pass, exactly the started periods', () => {
      // Created in 2020, billed again only now (a long outage): 260 periods to catch up.
      const created = d('2020-03-15T12:00:00.000Z');
      let s = start({ startedAt: created }, created, { id: 'price', interval: 'weekly' });
      const all: string[] = [];
      for (let pass = 0; pass < 10; pass++) {
        const r = renew(input(s), NOW);
        expect(r.periods.length).toBeLessThanOrEqual(100);
        all.push(...starts(r).map(String));
        s = r.subscription;
        if (!r.changed) break;
      }
      expect(all).toHaveLength(periodsStartedBy(d('2020-03-15T12:00:00.000Z'), 'weekly', NOW));
      expect(new Set(all).size).toBe(all.length);
    });
  });

  it('changes nothing on a cancelled or expired subscription', () => {
    const cancelled = cancel(start(), false, NOW).subscription;
    expect(renew(input(cancelled), d('2030-01-01T00:00:00.000Z')).changed).toBe(false);
  });
});

describe('pause and resume', () => {
  const running = renew(input(start()), NOW).subscription;

  it('pauses a running subscription, and a paused one stays as it is', () => {
    const paused = pause(running, NOW);
    expect(paused.subscription).toMatchObject({ status: 'paused', pausedAt: NOW });
    expect(pause(paused.subscription, NOW).changed).toBe(false);
  });

  it('bills nothing while paused, however long', () => {
    const paused = pause(running, NOW).subscription;
    expect(renew(input(paused), d('2026-01-01T00:00:00.000Z')).changed).toBe(false);
  });

  it('refuses to pause a cancelled, expired or ending subscription (409)', () => {
    const cancelled = cancel(running, false, NOW).subscription;
    expect(code(() => pause(cancelled, NOW))).toEqual({
      code: SubscriptionError.CannotBePaused,
      status: 409,
      message: 'A cancelled subscription cannot be paused',
    });
    expect(code(() => pause(cancel(running, true, NOW).subscription, NOW)).code).toBe(
      SubscriptionError.CannotBePaused,
    );
  });

  it('resumes within the period where it left off', () => {
    const paused = pause(running, NOW).subscription;
    const later = d('2025-04-01T00:00:00.000Z');
    const resumed = resume(paused, later).subscription;
    expect(resumed).toMatchObject({
      status: 'active',
      pausedAt: null,
      nextBillingDate: running.nextBillingDate,
    });
    expect(renew(input(resumed), later).changed).toBe(false);
  });

  it('skips the periods that would have started while paused and starts a new cycle at once', () => {
    const paused = pause(running, NOW).subscription;
    const at = d('2025-07-04T08:00:00.000Z');
    const resumed = resume(paused, at).subscription;
    const r = renew(input(resumed), at);
    expect(r.periods.map((p) => [iso(p.start), iso(p.end)])).toEqual([
      ['2025-07-04T08:00:00.000Z', '2025-08-04T08:00:00.000Z'],
    ]);
  });

  it('resumes a paused trial as trialing while the trial runs', () => {
    const trial = start({ trialPeriod: '1_month' });
    const resumed = resume(pause(trial, NOW).subscription, d('2025-03-20T00:00:00.000Z')).subscription;
    expect(resumed.status).toBe('trialing');
  });

  it('withdraws a cancellation at period end, and leaves a running subscription as it is', () => {
    const ending = cancel(running, true, NOW).subscription;
    const resumed = resume(ending, NOW).subscription;
    expect(resumed.status).toBe('active');
    expect(resumed.nextBillingDate).toEqual(running.nextBillingDate);
    expect(resume(running, NOW).changed).toBe(false);
  });

  it('refuses to resume a cancelled or expired subscription (409)', () => {
    expect(code(() => resume(cancel(running, false, NOW).subscription, NOW))).toEqual({
      code: SubscriptionError.CannotBeResumed,
      status: 409,
      message: 'A cancelled subscription cannot be resumed',
    });
  });
});

describe('cancel', () => {
  const running = renew(input(start()), NOW).subscription;

  it('now: cancelled, nothing more billed, and its unpaid invoices are voided', () => {
    const c = cancel(running, false, NOW);
    expect(c.subscription).toMatchObject({ status: 'cancelled', cancelledAt: NOW, nextBillingDate: null });
    expect(c.voidInvoices).toBe(true);
  });

  it('a cancelled one again: nothing changes', () => {
    const cancelled = cancel(running, false, NOW).subscription;
    expect(cancel(cancelled, false, NOW)).toEqual({
      subscription: cancelled,
      changed: false,
      voidInvoices: false,
    });
    expect(cancel(cancelled, true, NOW).changed).toBe(false);
  });

  it('at period end: pending_cancellation until the period ends, then cancelled at its end', () => {
    const c = cancel(running, true, NOW);
    expect(c.subscription.status).toBe('pending_cancellation');
    expect(c.voidInvoices).toBe(false);
    const end = running.currentPeriodEnd!;
    expect(renew(input(c.subscription), new Date(end.getTime() - 1)).changed).toBe(false);
    const r = renew(input(c.subscription), d('2025-06-01T00:00:00.000Z'));
    expect(r.periods).toEqual([]);
    expect(r.subscription).toMatchObject({ status: 'cancelled', cancelledAt: end });
    expect(r.ended).toBe('cancelled');
  });

  it('at period end of a trial: ends with the trial, never billed', () => {
    const c = cancel(start({ trialPeriod: '1_week' }), true, NOW).subscription;
    const r = renew(input(c), d('2025-04-01T00:00:00.000Z'));
    expect([r.periods.length, r.subscription.status]).toEqual([0, 'cancelled']);
  });

  it('at period end without a running period (starting later): cancelled now', () => {
    const later = start({ startedAt: d('2025-05-01T00:00:00.000Z') });
    expect(cancel(later, true, NOW).subscription.status).toBe('cancelled');
  });

  it('now, while pending cancellation: cancelled now', () => {
    const ending = cancel(running, true, NOW).subscription;
    expect(cancel(ending, false, NOW).subscription.status).toBe('cancelled');
  });
});

describe('dueAt (what subscriptions.due_at computes)', () => {
  const s = start({ startedAt: d('2025-01-01T00:00:00.000Z') }, d('2025-01-01T00:00:00.000Z'));
  const expiresAt = d('2025-06-01T00:00:00.000Z');
  it('active or trialing: the next billing date, or the expiry when earlier', () => {
    expect(iso(dueAt(s))).toBe(iso(s.nextBillingDate));
    expect(iso(dueAt({ ...s, status: 'trialing' }))).toBe(iso(s.nextBillingDate));
    const later = d('2025-02-01T00:00:00.000Z');
    const soon = d('2025-01-05T00:00:00.000Z');
    expect(iso(dueAt({ ...s, nextBillingDate: later, expiresAt: soon }))).toBe(iso(soon));
    expect(iso(dueAt({ ...s, nextBillingDate: soon, expiresAt: later }))).toBe(iso(soon));
  });
  it('pending cancellation: the period end; paused: the expiry; ended: never', () => {
    expect(iso(dueAt({ ...s, status: 'pending_cancellation' }))).toBe(iso(s.currentPeriodEnd));
    expect(dueAt({ ...s, status: 'paused', pausedAt: NOW })).toBeNull();
    expect(iso(dueAt({ ...s, status: 'paused', pausedAt: NOW, expiresAt }))).toBe(iso(expiresAt));
    expect(dueAt({ ...s, status: 'cancelled', cancelledAt: NOW })).toBeNull();
    expect(dueAt({ ...s, status: 'expired' })).toBeNull();
  });
  it('a renewal over more periods than one pass bills leaves the subscription due', () => {
    const behind = start({ startedAt: d('2015-01-01T00:00:00.000Z') }, d('2015-01-01T00:00:00.000Z'));
    const r = renew(input(behind), NOW);
    expect(r.periods).toHaveLength(100);
    expect(dueAt(r.subscription)!.getTime()).toBeLessThanOrEqual(NOW.getTime());
    expect(dueAt(renew(input(r.subscription), NOW).subscription)!.getTime()).toBeGreaterThan(NOW.getTime());
  });
});
