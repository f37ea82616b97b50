/**
 * Text PostgreSQL cannot store: a NUL character (refused by `text` and `json`) or a UTF-16 half
 * without its other half (a lone surrogate: `json` refuses its escape, `text` would silently store
 * U+FFFD instead of what was sent). Input holding either is the client's error, never a 500.
 */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

export function isStorableText(text: string): boolean {
  return !text.includes('\u0000') && !LONE_SURROGATE.test(text);
}

/**
 * The paths (property names from the root) of every string in `value`, and every object key,
 * that is not storable text. Arrays and plain or class objects are walked to `maxDepth`.
 */
export function unstorablePaths(value: unknown, maxDepth = 64): string[][] {
  const found: string[][] = [];
  const walk = (v: unknown, path: string[]): void => {
    if (typeof v === 'string') {
      if (!isStorableText(v)) found.push(path);
      return;
    }
    if (v === null || typeof v !== 'object' || path.length >= maxDepth) return;
    for (const [key, child] of Object.entries(v)) {
      if (!isStorableText(key)) found.push([...path, key]);
      else walk(child, [...path, key]);
    }
  };
  walk(value, []);
  return found;
}
