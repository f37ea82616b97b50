/**
 * The languages of the server-rendered pages: French (the default), Arabic (right to left) and
 * English. Each surface offers a subset (the hosted checkout and the dashboard all three) and
 * keeps its texts in a typed dictionary beside this file, so a missing translation is a compile
 * error rather than a blank on the page.
 */
export const LANGUAGES = ['fr', 'ar', 'en'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'fr';

const NUMBER_LOCALES: Record<Language, string> = { fr: 'fr-MR', ar: 'ar-MR', en: 'en' };
const formatters = new Map(
  LANGUAGES.map((l) => [l, new Intl.NumberFormat(NUMBER_LOCALES[l], { maximumFractionDigits: 0 })]),
);

/** Whole MRU with the language's digit grouping (and digits), then the currency code. */
export function formatMru(amount: number, language: Language): string {
  return `${formatters.get(language)!.format(amount)} MRU`;
}

const dateFormatters = new Map(
  LANGUAGES.map((l) => [
    l,
    new Intl.DateTimeFormat(NUMBER_LOCALES[l], {
      day: 'numeric',
      month: 'long',
      year: 'numeric',
      timeZone: 'UTC',
    }),
  ]),
);

/** A day in the language's words and digits (the UTC calendar day, as billing periods are UTC). */
export function formatDate(date: Date, language: Language): string {
  return dateFormatters.get(language)!.format(date);
}

export function isLanguage(value: unknown, supported: readonly Language[] = LANGUAGES): value is Language {
  return typeof value === 'string' && (supported as readonly string[]).includes(value);
}

/** The first supported language of an Accept-Language header, by quality then order. */
export function fromAcceptLanguage(
  header: string | undefined,
  supported: readonly Language[] = LANGUAGES,
): Language | undefined {
  if (!header) return undefined;
  const ranked = header
    .split(',')
    .map((part, index) => {
      const [tag, ...params] = part.trim().split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      const quality = q ? Number(q.slice(2)) : 1;
      return {
        primary: tag.trim().toLowerCase().split('-')[0],
        quality: Number.isFinite(quality) ? quality : 0,
        index,
      };
    })
    .filter((r) => r.quality > 0)
    .sort((a, b) => b.quality - a.quality || a.index - b.index);
  return ranked.map((r) => r.primary).find((l): l is Language => isLanguage(l, supported));
}

/** ?lang= first (the switcher), then the remembered choice, then the browser's preference, then `fallback`. */
export function chooseLanguage(
  input: { query?: unknown; cookie?: unknown; acceptLanguage?: string },
  supported: readonly Language[] = LANGUAGES,
  fallback: Language = DEFAULT_LANGUAGE,
): Language {
  if (isLanguage(input.query, supported)) return input.query;
  if (isLanguage(input.cookie, supported)) return input.cookie;
  return fromAcceptLanguage(input.acceptLanguage, supported) ?? fallback;
}

export function direction(language: Language): 'rtl' | 'ltr' {
  return language === 'ar' ? 'rtl' : 'ltr';
}
