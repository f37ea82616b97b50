import type { PriceInterval } from '../prices/price';

/**
 * Billing-period arithmetic (docs/billing.md), pure and in UTC:
 * weekly = +7 days; monthly = +1 calendar month on the anchor's day, or the month's last day when
 * it has none (Jan 31 → Feb 28/29 → Mar 31); yearly = +1 year (Feb 29 → Feb 28, and Feb 29 again
 * in leap years). The time of day is the anchor's. UTC has no daylight-saving shifts, so a week is
 * always 7 × 24 hours.
 *
 * Every boundary is computed from the cycle's anchor (period n starts at anchor + n intervals),
 * never from the previous boundary: stepping month by month would drift (Jan 31 → Feb 28 →
 * Mar 28) where counting from the anchor comes back to the 31st.
 */

const DAY_MS = 86_400_000;

export function daysInMonth(year: number, month: number): number {
  return utc(year, month + 1, 0).getUTCDate();
}

/** A UTC date from parts, years 0–99 included (Date.UTC reads those as 1900–1999). */
function utc(year: number, month: number, day: number, ms = 0): Date {
  const d = new Date(0);
  d.setUTCFullYear(year, month, day);
  d.setUTCHours(0, 0, 0, ms);
  return d;
}

export function addDays(date: Date, days: number): Date {
  return new Date(date.getTime() + days * DAY_MS);
}

/** `months` calendar months later (or earlier), on the same day of the month or the month's last day, same time of day. */
export function addMonths(date: Date, months: number): Date {
  if (!Number.isInteger(months)) throw new RangeError(`months must be an integer, got ${months}`);
  const total = date.getUTCFullYear() * 12 + date.getUTCMonth() + months;
  const year = Math.floor(total / 12);
  const month = total - year * 12;
  const day = Math.min(date.getUTCDate(), daysInMonth(year, month));
  const timeOfDay =
    date.getTime() - utc(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()).getTime();
  return utc(year, month, day, timeOfDay);
}

export function addYears(date: Date, years: number): Date {
  return addMonths(date, 12 * years);
}

/** The start of period `n` (0 = the anchor) of a cycle anchored at `anchor`. */
export function periodStart(anchor: Date, interval: PriceInterval, n: number): Date {
  if (!Number.isInteger(n) || n < 0)
    throw new RangeError(`period index must be a non-negative integer, got ${n}`);
  switch (interval) {
    case 'weekly':
      return addDays(anchor, 7 * n);
    case 'monthly':
      return addMonths(anchor, n);
    case 'yearly':
      return addYears(anchor, n);
  }
}

/** Period `n` of the cycle: [start, end). */
export function period(anchor: Date, interval: PriceInterval, n: number): { start: Date; end: Date } {
  return { start: periodStart(anchor, interval, n), end: periodStart(anchor, interval, n + 1) };
}

/** The periods of the cycle that have started by `at` (0 when `at` is before the anchor). */
export function periodsStartedBy(anchor: Date, interval: PriceInterval, at: Date): number {
  if (at < anchor) return 0;
  // An estimate from the average length, then corrected: exact whatever the month lengths.
  const average = { weekly: 7 * DAY_MS, monthly: 30.436875 * DAY_MS, yearly: 365.2425 * DAY_MS }[interval];
  let n = Math.max(0, Math.floor((at.getTime() - anchor.getTime()) / average) - 1);
  while (periodStart(anchor, interval, n + 1) <= at) n++;
  while (n > 0 && periodStart(anchor, interval, n) > at) n--;
  return n + 1;
}

export const TRIAL_PERIODS = ['1_week', '1_month', '1_year'] as const;
/** A named trial length, or a number of days (1 to 730). */
export type TrialPeriod = (typeof TRIAL_PERIODS)[number] | number;
export const MAX_TRIAL_DAYS = 730;

export function isTrialPeriod(value: unknown): value is TrialPeriod {
  return (
    (typeof value === 'string' && (TRIAL_PERIODS as readonly string[]).includes(value)) ||
    (typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= MAX_TRIAL_DAYS)
  );
}

/** When a trial of this length that starts at `start` ends. */
export function trialEnd(start: Date, trial: TrialPeriod): Date {
  switch (trial) {
    case '1_week':
      return addDays(start, 7);
    case '1_month':
      return addMonths(start, 1);
    case '1_year':
      return addYears(start, 1);
    default:
      return addDays(start, trial);
  }
}
