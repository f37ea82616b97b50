import type { Language } from '../common/i18n/languages';

/*
 * How the dashboard writes times, days and rates. Times are in UTC, which is Mauritania's time
 * (GMT all year), so merchants read their own clock, on 24 hours. Arabic is Mauritania's (`ar-MR`),
 * as on the hosted checkout: its month names and the same digits as its amounts.
 */

const LOCALES: Record<Language, string> = { fr: 'fr-FR', en: 'en-GB', ar: 'ar-MR' };

const dateTimes = new Map<Language, Intl.DateTimeFormat>();
const days = new Map<Language, Intl.DateTimeFormat>();
const dates = new Map<Language, Intl.DateTimeFormat>();
const percents = new Map<Language, Intl.NumberFormat>();
const counts = new Map<Language, Intl.NumberFormat>();

function cached<T>(map: Map<Language, T>, lang: Language, make: (locale: string) => T): T {
  let value = map.get(lang);
  if (!value) map.set(lang, (value = make(LOCALES[lang])));
  return value;
}

/** `23 Nov 2025, 14:05:09` (seconds: a log reader compares attempts a few seconds apart). */
export function formatTime(at: Date | string | null | undefined, lang: Language): string {
  if (at === null || at === undefined) return '';
  const date = typeof at === 'string' ? new Date(at) : at;
  return cached(
    dateTimes,
    lang,
    (l) =>
      new Intl.DateTimeFormat(l, {
        day: 'numeric',
        month: 'short',
        year: 'numeric',
        hour: '2-digit',
        minute: '2-digit',
        second: '2-digit',
        hourCycle: 'h23',
        timeZone: 'UTC',
      }),
  ).format(date);
}

/** A UTC day (`YYYY-MM-DD`) as `23 Nov`. */
export function formatDay(day: string, lang: Language): string {
  return cached(
    days,
    lang,
    (l) => new Intl.DateTimeFormat(l, { day: 'numeric', month: 'short', timeZone: 'UTC' }),
  ).format(new Date(`${day}T00:00:00Z`));
}

/** A UTC calendar day with its year, as billing periods are counted: `23 Nov 2026`. */
export function formatDate(at: Date, lang: Language): string {
  return cached(
    dates,
    lang,
    (l) => new Intl.DateTimeFormat(l, { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' }),
  ).format(at);
}

/** `87 %` / `87%`; `—` when there was nothing to rate. */
export function formatRate(part: number, whole: number, lang: Language): string {
  if (whole === 0) return '—';
  return cached(
    percents,
    lang,
    (l) => new Intl.NumberFormat(l, { style: 'percent', maximumFractionDigits: 0 }),
  ).format(part / whole);
}

/** A count in the language's digits and grouping, as its amounts are: `1,234`, `1 234`, `١٬٢٣٤`. */
export function formatCount(n: number, lang: Language): string {
  return cached(counts, lang, (l) => new Intl.NumberFormat(l, { maximumFractionDigits: 0 })).format(n);
}

/** Replaces `{name}` in a text by its value. */
export function fill(text: string, values: Record<string, string | number>): string {
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => (name in values ? String(values[name]) : whole));
}

/** `YYYY-MM-DDTHH:MM` of a date: the value of a datetime-local field (Nouakchott time, which is UTC). */
export function dateTimeInput(at: Date | null): string {
  return at ? at.toISOString().slice(0, 16) : '';
}

/** `YYYY-MM-DD` of a date, in UTC. */
export function utcDay(at: Date): string {
  return at.toISOString().slice(0, 10);
}
