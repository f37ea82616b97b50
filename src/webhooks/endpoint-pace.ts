/** A call in flight longer than this, or an answer that took longer, makes its endpoint slow. */
export const SLOW_CALL_MS = 1000;

/** An endpoint with no call in flight is forgotten after this long (it starts slow again). */
const FORGET_AFTER_MS = 60_000;

interface EndpointCalls {
  /** Start times of this worker's calls in flight, by delivery id. */
  started: Map<string, number>;
  /** The last call this worker made to it was answered (or failed) within SLOW_CALL_MS. */
  answeredFast: boolean;
  lastSeen: number;
}

/**
 * What one worker knows of the pace of the endpoints it calls, so that the cap on an endpoint's
 * deliveries in flight limits the ones that hang, not the throughput of those that answer
 * (docs/architecture.md, "Webhook delivery"). An endpoint starts slow, held to the small cap; once a call
 * to it is answered fast it may take the large cap; a call in flight longer than SLOW_CALL_MS, or
 * answered slowly, makes it slow again.
 */
export class EndpointPace {
  private readonly endpoints = new Map<string, EndpointCalls>();

  constructor(private readonly now: () => number = Date.now) {}

  started(endpointId: string, deliveryId: string): void {
    let e = this.endpoints.get(endpointId);
    if (!e) {
      e = { started: new Map(), answeredFast: false, lastSeen: 0 };
      this.endpoints.set(endpointId, e);
    }
    e.started.set(deliveryId, this.now());
    e.lastSeen = this.now();
  }

  finished(endpointId: string, deliveryId: string, durationMs: number): void {
    const e = this.endpoints.get(endpointId);
    if (!e) return;
    e.started.delete(deliveryId);
    e.answeredFast = durationMs < SLOW_CALL_MS;
    e.lastSeen = this.now();
  }

  /** The endpoints that may take the large cap: answered fast, and no call of this worker's hangs. */
  fastEndpoints(): string[] {
    const now = this.now();
    const fast: string[] = [];
    for (const [id, e] of this.endpoints) {
      if (e.started.size === 0 && now - e.lastSeen > FORGET_AFTER_MS) this.endpoints.delete(id);
      else if (e.answeredFast && !this.hangs(e, now)) fast.push(id);
    }
    return fast;
  }

  /**
   * Calls in flight beyond the small cap to endpoints that hang: an endpoint that answered fast and
   * then stopped answering holds only the small cap of the worker's slots, not every call it had
   * in flight (those end at the time-out).
   */
  overflow(smallCap: number): number {
    const now = this.now();
    let n = 0;
    for (const e of this.endpoints.values()) {
      if (this.hangs(e, now)) n += Math.max(0, e.started.size - smallCap);
    }
    return n;
  }

  private hangs(e: EndpointCalls, now: number): boolean {
    for (const at of e.started.values()) if (now - at > SLOW_CALL_MS) return true;
    return false;
  }
}
