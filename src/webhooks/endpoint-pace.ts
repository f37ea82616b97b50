/** A call in flight longer than this, or an answer that took longer, makes its endpoint slow. */
export const SLOW_CALL_MS = 1000;

/** An endpoint with no call in flight is forgotten after this long (it starts slow again). */
const FORGET_AFTER_MS = 60_000;

interface EndpointCalls {
  organizationId: string;
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
 * answered slowly, makes it slow again. Endpoints are grouped by organization, whose calls to
 * endpoints held to the small cap are capped together.
 */
export class EndpointPace {
  private readonly endpoints = new Map<string, EndpointCalls>();

  constructor(private readonly now: () => number = Date.now) {}

  started(endpointId: string, organizationId: string, deliveryId: string): void {
    let e = this.endpoints.get(endpointId);
    if (!e) {
      e = { organizationId, started: new Map(), answeredFast: false, lastSeen: 0 };
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
   * Calls in flight to endpoints that hang beyond what the claim's caps allow: an endpoint that
   * answered fast and then stopped answering holds only the small cap of the worker's slots, not
   * every call it had in flight (those end at the time-out), and an organization's hanging
   * endpoints together hold at most the organization's cap.
   */
  overflow(smallCap: number, organizationCap: number): number {
    const now = this.now();
    const byOrganization = new Map<string, { calls: number; held: number }>();
    for (const e of this.endpoints.values()) {
      if (!this.hangs(e, now)) continue;
      const o = byOrganization.get(e.organizationId) ?? { calls: 0, held: 0 };
      o.calls += e.started.size;
      o.held += Math.min(e.started.size, smallCap);
      byOrganization.set(e.organizationId, o);
    }
    let n = 0;
    for (const o of byOrganization.values()) n += o.calls - Math.min(o.held, organizationCap);
    return n;
  }

  private hangs(e: EndpointCalls, now: number): boolean {
    for (const at of e.started.values()) if (now - at > SLOW_CALL_MS) return true;
    return false;
  }
}
