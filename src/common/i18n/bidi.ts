/** First-strong isolate and its end (U+2068, U+2069): the run between them takes its own direction. */
const FSI = '\u2068';
const PDI = '\u2069';

/** `value` as a unit that the text around it cannot reorder, nor it the text around it. */
export const isolate = (value: string): string => `${FSI}${value}${PDI}`;

/**
 * A right-to-left dictionary with every `{name}` isolated: a value filled in (an amount, an id, an
 * email, a date, a URL) keeps its own direction, and the punctuation next to it stays on the right
 * side of it, whatever the value's first and last characters are.
 */
export function isolatePlaceholders<T extends object>(texts: T): T {
  return Object.fromEntries(
    Object.entries(texts).map(([key, value]) => [
      key,
      typeof value === 'string'
        ? value.replace(/\{\w+\}/g, (placeholder) => isolate(placeholder))
        : value !== null && typeof value === 'object'
          ? isolatePlaceholders(value as object)
          : value,
    ]),
  ) as T;
}
