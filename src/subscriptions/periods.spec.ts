import {
  addDays,
  addMonths,
  addYears,
  daysInMonth,
  isTrialPeriod,
  period,
  periodsStartedBy,
  periodStart,
  trialEnd,
} from './periods';

const d = (iso: string) => new Date(iso);
const iso = (date: Date) => date.toISOString();

/** Every day of a non-leap and a leap year, at a time of day that varies with the day. */
const ANCHORS = Array.from({ length: 365 + 366 }, (_, i) => {
  const day = addDays(d('2023-01-01T00:00:00.000Z'), i);
  return new Date(day.getTime() + ((i * 7_919_357) % 86_400_000));
});

const timeOfDay = (date: Date) => date.getTime() % 86_400_000;

describe('monthly periods', () => {
  it.each([
    ['2024-01-31T10:00:00.000Z', 1, '2024-02-29T10:00:00.000Z'],
    ['2024-01-31T10:00:00.000Z', 2, '2024-03-31T10:00:00.000Z'],
    ['2024-01-31T10:00:00.000Z', 3, '2024-04-30T10:00:00.000Z'],
    ['2023-01-31T10:00:00.000Z', 1, '2023-02-28T10:00:00.000Z'],
    ['2023-01-29T00:00:00.000Z', 1, '2023-02-28T00:00:00.000Z'],
    ['2024-01-30T23:59:59.999Z', 1, '2024-02-29T23:59:59.999Z'],
    ['2024-03-31T00:00:00.000Z', 1, '2024-04-30T00:00:00.000Z'],
    ['2024-12-31T12:00:00.000Z', 2, '2025-02-28T12:00:00.000Z'],
    ['2024-12-15T12:00:00.000Z', 1, '2025-01-15T12:00:00.000Z'],
    ['2024-05-31T00:00:00.000Z', 12, '2025-05-31T00:00:00.000Z'],
    ['2024-03-31T00:00:00.000Z', -1, '2024-02-29T00:00:00.000Z'],
    ['2024-01-15T00:00:00.000Z', -13, '2022-12-15T00:00:00.000Z'],
  ])('%s + %i month(s) = %s', (anchor, n, expected) => {
    expect(iso(addMonths(d(anchor), n))).toBe(expected);
  });

  it('comes back to the anchor day after a shorter month (Jan 31 → Feb 28/29 → Mar 31)', () => {
    const anchor = d('2023-01-31T08:30:00.000Z');
    const starts = Array.from({ length: 14 }, (_, n) => iso(periodStart(anchor, 'monthly', n)).slice(0, 10));
    expect(starts).toEqual([
      '2023-01-31',
      '2023-02-28',
      '2023-03-31',
      '2023-04-30',
      '2023-05-31',
      '2023-06-30',
      '2023-07-31',
      '2023-08-31',
      '2023-09-30',
      '2023-10-31',
      '2023-11-30',
      '2023-12-31',
      '2024-01-31',
      '2024-02-29',
    ]);
  });

  it('for every anchor day of a common and a leap year, over five years: the anchor day or the month end, same time, strictly increasing', () => {
    const wrong: string[] = [];
    for (const anchor of ANCHORS) {
      let previous = anchor;
      for (let n = 1; n <= 60; n++) {
        const start = periodStart(anchor, 'monthly', n);
        const month = anchor.getUTCMonth() + n;
        const year = anchor.getUTCFullYear() + Math.floor(month / 12);
        const days = (start.getTime() - previous.getTime()) / 86_400_000;
        if (
          start.getUTCFullYear() !== year ||
          start.getUTCMonth() !== month % 12 ||
          start.getUTCDate() !== Math.min(anchor.getUTCDate(), daysInMonth(year, month % 12)) ||
          timeOfDay(start) !== timeOfDay(anchor) ||
          // Between 28 and 31 days after the previous start, whatever the months.
          days < 28 ||
          days > 31
        )
          wrong.push(`${iso(anchor)} + ${n} months = ${iso(start)}`);
        previous = start;
      }
    }
    expect(wrong).toEqual([]);
  });
});

describe('yearly periods', () => {
  it('bills Feb 29 on Feb 28 in common years and on Feb 29 again in leap years', () => {
    const anchor = d('2024-02-29T06:00:00.000Z');
    const starts = Array.from({ length: 6 }, (_, n) => iso(periodStart(anchor, 'yearly', n)));
    expect(starts).toEqual([
      '2024-02-29T06:00:00.000Z',
      '2025-02-28T06:00:00.000Z',
      '2026-02-28T06:00:00.000Z',
      '2027-02-28T06:00:00.000Z',
      '2028-02-29T06:00:00.000Z',
      '2029-02-28T06:00:00.000Z',
    ]);
  });

  it('keeps the anchor month, day and time for every other anchor day', () => {
    const wrong: string[] = [];
    for (const anchor of ANCHORS) {
      for (let n = 1; n <= 8; n++) {
        const start = addYears(anchor, n);
        const leapDay = anchor.getUTCMonth() === 1 && anchor.getUTCDate() === 29;
        const year = anchor.getUTCFullYear() + n;
        if (
          start.getUTCFullYear() !== year ||
          start.getUTCMonth() !== anchor.getUTCMonth() ||
          start.getUTCDate() !== (leapDay ? daysInMonth(year, 1) : anchor.getUTCDate()) ||
          timeOfDay(start) !== timeOfDay(anchor)
        )
          wrong.push(`${iso(anchor)} + ${n} years = ${iso(start)}`);
      }
    }
    expect(wrong).toEqual([]);
  });
});

describe('weekly periods', () => {
  it('are exactly 7 × 24 hours, across the dates clocks change in Europe and America', () => {
    for (const anchor of [
      d('2024-03-28T01:30:00.000Z'),
      d('2024-03-08T07:00:00.000Z'),
      d('2024-10-25T23:59:59.999Z'),
      d('2024-10-31T02:30:00.000Z'),
    ]) {
      for (let n = 0; n < 10; n++) {
        const { start, end } = period(anchor, 'weekly', n);
        expect(end.getTime() - start.getTime()).toBe(7 * 86_400_000);
        expect(start.getTime() - anchor.getTime()).toBe(n * 7 * 86_400_000);
      }
    }
  });
});

describe('time zone of the process', () => {
  const original = process.env.TZ;
  afterEach(() => {
    process.env.TZ = original;
  });

  it.each(['America/New_York', 'Africa/Nouakchott', 'Asia/Kolkata', 'Pacific/Chatham'])(
    'does not change any boundary (%s)',
    (zone) => {
      const anchor = d('2024-01-31T23:30:00.000Z');
      const expected = ['weekly', 'monthly', 'yearly'].flatMap((interval) =>
        Array.from({ length: 30 }, (_, n) => iso(periodStart(anchor, interval as 'weekly', n))),
      );
      process.env.TZ = zone;
      const again = ['weekly', 'monthly', 'yearly'].flatMap((interval) =>
        Array.from({ length: 30 }, (_, n) => iso(periodStart(anchor, interval as 'weekly', n))),
      );
      expect(again).toEqual(expected);
      expect(iso(periodStart(anchor, 'monthly', 1))).toBe('2024-02-29T23:30:00.000Z');
    },
  );
});

describe('periodsStartedBy', () => {
  /** The oracle: count the starts one by one. */
  const counted = (anchor: Date, interval: 'weekly' | 'monthly' | 'yearly', at: Date) => {
    let n = 0;
    while (periodStart(anchor, interval, n) <= at) n++;
    return n;
  };

  it('counts the periods that have started, the one starting exactly at `at` included', () => {
    const anchor = d('2024-01-31T10:00:00.000Z');
    expect(periodsStartedBy(anchor, 'monthly', d('2024-01-31T09:59:59.999Z'))).toBe(0);
    expect(periodsStartedBy(anchor, 'monthly', anchor)).toBe(1);
    expect(periodsStartedBy(anchor, 'monthly', d('2024-02-29T09:59:59.999Z'))).toBe(1);
    expect(periodsStartedBy(anchor, 'monthly', d('2024-02-29T10:00:00.000Z'))).toBe(2);
    expect(periodsStartedBy(anchor, 'monthly', d('2024-03-31T10:00:00.000Z'))).toBe(3);
  });

  it('agrees with counting one by one, for every interval, anchor and a spread of instants', () => {
    const wrong: string[] = [];
    for (const interval of ['weekly', 'monthly', 'yearly'] as const) {
      for (const anchor of ANCHORS.filter((_, i) => i % 13 === 0)) {
        for (let k = 0; k < 40; k++) {
          const at = new Date(anchor.getTime() + k * 9_876_543_211 * (interval === 'yearly' ? 3 : 1));
          const n = periodsStartedBy(anchor, interval, at);
          if (n !== counted(anchor, interval, at))
            wrong.push(`${interval} ${iso(anchor)} at ${iso(at)}: ${n}`);
        }
      }
    }
    expect(wrong).toEqual([]);
  });
});

describe('trials', () => {
  it.each([
    ['1_week', '2024-01-31T10:00:00.000Z', '2024-02-07T10:00:00.000Z'],
    ['1_month', '2024-01-31T10:00:00.000Z', '2024-02-29T10:00:00.000Z'],
    ['1_year', '2024-02-29T10:00:00.000Z', '2025-02-28T10:00:00.000Z'],
    [14, '2024-02-20T10:00:00.000Z', '2024-03-05T10:00:00.000Z'],
    [730, '2024-01-01T00:00:00.000Z', '2025-12-31T00:00:00.000Z'],
  ] as const)('%p from %s ends %s', (trial, start, end) => {
    expect(iso(trialEnd(d(start), trial))).toBe(end);
  });

  it.each([
    ['1_week', true],
    ['1_month', true],
    ['1_year', true],
    [1, true],
    [730, true],
    [0, false],
    [731, false],
    [1.5, false],
    ['2_weeks', false],
    ['7', false],
    [null, false],
  ])('accepts %p as a trial period: %p', (value, ok) => {
    expect(isTrialPeriod(value)).toBe(ok);
  });
});

describe('guards', () => {
  it('refuses a negative or fractional period index and fractional months', () => {
    const anchor = d('2024-01-01T00:00:00.000Z');
    expect(() => periodStart(anchor, 'monthly', -1)).toThrow(RangeError);
    expect(() => periodStart(anchor, 'monthly', 1.5)).toThrow(RangeError);
    expect(() => addMonths(anchor, 0.5)).toThrow(RangeError);
  });
});
