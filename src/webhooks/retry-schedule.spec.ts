import { CONTRACT_RETRY_SCHEDULE_MS, nextRetryDelay, parseRetryAfter } from './retry-schedule';

describe('webhook retry schedule', () => {
  it('follows the CONTRACT schedule of nine retries within ±10 % jitter', () => {
    const expectedSeconds = [5, 300, 1800, 7200, 18000, 36000, 50400, 72000, 86400];
    expectedSeconds.forEach((s, i) => {
      expect(nextRetryDelay(CONTRACT_RETRY_SCHEDULE_MS, i + 1, null, () => 0)).toBe(s * 900);
      expect(nextRetryDelay(CONTRACT_RETRY_SCHEDULE_MS, i + 1, null, () => 0.5)).toBe(s * 1000);
      expect(nextRetryDelay(CONTRACT_RETRY_SCHEDULE_MS, i + 1, null, () => 1)).toBe(s * 1100);
    });
  });

  it('gives up after the last scheduled retry', () => {
    expect(nextRetryDelay(CONTRACT_RETRY_SCHEDULE_MS, 10, null)).toBeNull();
  });

  it('honours Retry-After as a lower bound, capped at 24 h', () => {
    expect(nextRetryDelay([1000], 1, 120_000, () => 0.5)).toBe(120_000);
    expect(nextRetryDelay([300_000], 1, 1000, () => 0.5)).toBe(300_000);
    expect(nextRetryDelay([1000], 1, 10 * 86_400_000, () => 0.5)).toBe(86_400_000);
  });

  it('reads Retry-After as seconds or as an HTTP date', () => {
    expect(parseRetryAfter('3')).toBe(3000);
    expect(
      parseRetryAfter('Wed, 21 Oct 2015 07:28:10 GMT', Date.parse('Wed, 21 Oct 2015 07:28:00 GMT')),
    ).toBe(10_000);
    expect(parseRetryAfter('soon')).toBeNull();
    expect(parseRetryAfter(undefined)).toBeNull();
  });
});
