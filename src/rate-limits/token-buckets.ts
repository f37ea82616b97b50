/** What a bucket said to one request. */
export type Decision =
  | { allowed: true }
  | {
      allowed: false;
      /** Whole seconds until a request would be allowed (at least 1). */
      retryAfterSeconds: number;
      /** Set at most once per REPORT_EVERY_MS per bucket: the requests refused since the last report. */
      report?: number;
    };

interface Bucket {
  tokens: number;
  /** When `tokens` was computed. */
  at: number;
  refused: number;
  reportedAt: number;
}

/** A refused client is logged at most this often, so a flood does not flood the log. */
export const REPORT_EVERY_MS = 10_000;
const SWEEP_EVERY_MS = 10_000;

/**
 * Token buckets, one per id (an API key, a client IP), in this process's memory: each holds up to
 * `burst` tokens, refilled at `perSecond`; a request takes one or is refused. Buckets that have
 * refilled are forgotten (a full bucket and no bucket are the same), so memory holds only the
 * clients seen in the last few seconds. The clock is given, so tests move time instead of sleeping.
 */
export class TokenBuckets {
  private readonly buckets = new Map<string, Bucket>();
  private nextSweep: number;

  constructor(
    readonly perSecond: number,
    readonly burst: number,
    private readonly now: () => number,
  ) {
    if (!(perSecond > 0) || !(burst >= 1))
      throw new Error('a token bucket needs a positive rate and a burst of at least 1');
    this.nextSweep = now() + SWEEP_EVERY_MS;
  }

  take(id: string): Decision {
    const now = this.now();
    if (now >= this.nextSweep) this.sweep(now);
    let bucket = this.buckets.get(id);
    if (!bucket) {
      bucket = { tokens: this.burst, at: now, refused: 0, reportedAt: -Infinity };
      this.buckets.set(id, bucket);
    } else {
      bucket.tokens = this.level(bucket, now);
      bucket.at = now;
    }
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return { allowed: true };
    }
    bucket.refused += 1;
    const retryAfterSeconds = Math.max(1, Math.ceil((1 - bucket.tokens) / this.perSecond));
    if (now - bucket.reportedAt < REPORT_EVERY_MS) return { allowed: false, retryAfterSeconds };
    const report = bucket.refused;
    bucket.refused = 0;
    bucket.reportedAt = now;
    return { allowed: false, retryAfterSeconds, report };
  }

  /** Buckets held in memory now. */
  get size(): number {
    return this.buckets.size;
  }

  private level(bucket: Bucket, now: number): number {
    return Math.min(this.burst, bucket.tokens + (Math.max(0, now - bucket.at) * this.perSecond) / 1000);
  }

  private sweep(now: number): void {
    this.nextSweep = now + SWEEP_EVERY_MS;
    for (const [id, bucket] of this.buckets) {
      if (this.level(bucket, now) >= this.burst && now - bucket.reportedAt >= REPORT_EVERY_MS)
        this.buckets.delete(id);
    }
  }
}
