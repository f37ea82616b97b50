import { REPORT_EVERY_MS, TokenBuckets } from './token-buckets';

function clock(start = 1_000_000) {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

describe('TokenBuckets', () => {
  it('allows a burst, then refuses with the seconds until the next token', () => {
    const c = clock();
    const buckets = new TokenBuckets(5, 10, c.now);
    for (let i = 0; i < 10; i++) expect(buckets.take('k')).toEqual({ allowed: true });
    expect(buckets.take('k')).toMatchObject({ allowed: false, retryAfterSeconds: 1 });
  });

  it('refills at its rate, never above the burst', () => {
    const c = clock();
    const buckets = new TokenBuckets(5, 10, c.now);
    for (let i = 0; i < 10; i++) buckets.take('k');
    c.advance(1000);
    for (let i = 0; i < 5; i++) expect(buckets.take('k').allowed).toBe(true);
    expect(buckets.take('k').allowed).toBe(false);
    c.advance(60_000);
    for (let i = 0; i < 10; i++) expect(buckets.take('k').allowed).toBe(true);
    expect(buckets.take('k').allowed).toBe(false);
  });

  it("keeps one client's burst from limiting another", () => {
    const buckets = new TokenBuckets(1, 2, clock().now);
    buckets.take('a');
    buckets.take('a');
    expect(buckets.take('a').allowed).toBe(false);
    expect(buckets.take('b').allowed).toBe(true);
  });

  it('says how long to wait when the rate is below one per second', () => {
    const buckets = new TokenBuckets(0.25, 1, clock().now);
    buckets.take('k');
    expect(buckets.take('k')).toMatchObject({ allowed: false, retryAfterSeconds: 4 });
  });

  it('reports a refused client at most once per period, with the number refused since', () => {
    const c = clock();
    const buckets = new TokenBuckets(0.05, 1, c.now); // a token every 20 s
    buckets.take('k');
    expect(buckets.take('k')).toMatchObject({ allowed: false, report: 1 });
    const quiet = buckets.take('k');
    expect(quiet.allowed === false && quiet.report).toBeUndefined();
    buckets.take('k');
    c.advance(REPORT_EVERY_MS);
    expect(buckets.take('k')).toMatchObject({ allowed: false, report: 3 });
  });

  it('forgets buckets that have refilled, so memory holds recent clients only', () => {
    const c = clock();
    const buckets = new TokenBuckets(10, 20, c.now);
    for (let i = 0; i < 100; i++) buckets.take(`client-${i}`);
    expect(buckets.size).toBe(100);
    c.advance(60_000);
    buckets.take('new');
    expect(buckets.size).toBe(1);
  });

  it('refuses a rate that is not positive', () => {
    expect(() => new TokenBuckets(0, 1, Date.now)).toThrow();
  });
});
