/** A failed delivery is retried after about 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h. */
export const CONTRACT_RETRY_SCHEDULE_MS = [5, 300, 1800, 7200, 18000, 36000, 50400, 72000, 86400].map(
  (s) => s * 1000,
);

const JITTER = 0.1;
const MAX_RETRY_AFTER_MS = 24 * 3600 * 1000;

/**
 * The delay before the next attempt after the `failedSoFar`-th failure (1-based), or null when
 * the schedule is exhausted. ±10 % jitter spreads a burst of failures; a receiver's Retry-After
 * is honoured as a lower bound (never earlier than it asked, never later than 24 h).
 */
export function nextRetryDelay(
  schedule: readonly number[],
  failedSoFar: number,
  retryAfterMs: number | null,
  random: () => number = Math.random,
): number | null {
  if (failedSoFar > schedule.length) return null;
  const base = schedule[failedSoFar - 1];
  const jittered = Math.round(base * (1 - JITTER + 2 * JITTER * random()));
  return retryAfterMs === null ? jittered : Math.max(jittered, Math.min(retryAfterMs, MAX_RETRY_AFTER_MS));
}

/** `Retry-After` as milliseconds: delta-seconds or an HTTP date; null when absent or unreadable. */
export function parseRetryAfter(
  value: string | string[] | undefined,
  now: number = Date.now(),
): number | null {
  const v = Array.isArray(value) ? value[0] : value;
  if (!v) return null;
  if (/^\s*\d+\s*$/.test(v)) return Number(v) * 1000;
  const at = Date.parse(v);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

export function parseSchedule(text: string): number[] {
  return text.split(',').map((s) => Number(s.trim()));
}
