import { performance } from 'node:perf_hooks';
import type { Tenant } from './tenant';

/** Entries held at most, oldest dropped first. */
export const KEY_CACHE_SIZE = 10_000;
/** How old an entry may be when notifications cannot be trusted: a key ended elsewhere is refused within it. */
export const KEY_CACHE_UNTRUSTED_MS = 1000;
/** How old an entry may be even while notifications arrive. */
export const KEY_CACHE_MAX_AGE_MS = 60_000;

interface Entry {
  tenant: Tenant;
  /** When the look-up that filled it started (performance.now()). */
  readAt: number;
  /** When the key expires (a rolled key), or Infinity. */
  liveUntil: number;
}

/**
 * The live keys this instance has looked up, by the SHA-256 of the key (docs/architecture.md, "The
 * API-key cache"). An entry is trusted for `KEY_CACHE_UNTRUSTED_MS` after its look-up; for longer
 * (up to `KEY_CACHE_MAX_AGE_MS`) only while notifications of ended keys are known to arrive: the
 * listening connection was up before the look-up and still is, and a heartbeat it sent itself
 * less than `KEY_CACHE_UNTRUSTED_MS` ago came back (so every notification committed before it
 * came back too). Pure bookkeeping: the service feeds it look-ups, notifications and heartbeats.
 */
export class ApiKeyCache {
  private readonly entries = new Map<string, Entry>();
  /** Bumped by every invalidation: a look-up that raced one is not stored. */
  private generation = 0;
  /** Since when notifications are listened for, on the current connection; undefined while not. */
  private listeningSince?: number;
  /** When the latest heartbeat that came back was sent. */
  private heartbeatSentAt = -Infinity;

  constructor(
    private readonly now: () => number = () => performance.now(),
    private readonly capacity = KEY_CACHE_SIZE,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  /** A mark to take before a look-up and hand to `set`. */
  begin(): { generation: number; at: number } {
    return { generation: this.generation, at: this.now() };
  }

  get(hash: string): Tenant | undefined {
    const entry = this.entries.get(hash);
    if (!entry) return undefined;
    const now = this.now();
    if (now < entry.liveUntil && this.trusted(entry, now)) return entry.tenant;
    this.entries.delete(hash);
    return undefined;
  }

  /** Stores a look-up's answer, unless an invalidation happened since `mark`. */
  set(hash: string, tenant: Tenant, msLeft: number | null, mark: { generation: number; at: number }): void {
    if (mark.generation !== this.generation) return;
    this.entries.delete(hash);
    if (this.entries.size >= this.capacity) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(hash, {
      tenant,
      readAt: mark.at,
      liveUntil: msLeft === null ? Infinity : mark.at + msLeft,
    });
  }

  /**
   * A key ended (its id), or `org:<id>`: that organization's verification changed, so every key of
   * it is looked up again (the Production gate reads the verification from the cached look-up).
   */
  forget(keyIdOrOrganization: string): void {
    this.generation += 1;
    const organizationId = keyIdOrOrganization.startsWith('org:') ? keyIdOrOrganization.slice(4) : undefined;
    for (const [hash, entry] of this.entries)
      if (
        organizationId
          ? entry.tenant.organizationId === organizationId
          : entry.tenant.keyId === keyIdOrOrganization
      )
        this.entries.delete(hash);
  }

  clear(): void {
    this.generation += 1;
    this.entries.clear();
  }

  listening(): void {
    this.listeningSince = this.now();
    this.heartbeatSentAt = -Infinity;
  }

  lost(): void {
    this.listeningSince = undefined;
    this.heartbeatSentAt = -Infinity;
  }

  /** A heartbeat sent at `sentAt` (this clock) came back. */
  heartbeat(sentAt: number): void {
    if (sentAt > this.heartbeatSentAt) this.heartbeatSentAt = sentAt;
  }

  private trusted(entry: Entry, now: number): boolean {
    const age = now - entry.readAt;
    if (age <= KEY_CACHE_UNTRUSTED_MS) return true;
    return (
      age <= KEY_CACHE_MAX_AGE_MS &&
      this.listeningSince !== undefined &&
      this.listeningSince <= entry.readAt &&
      now - this.heartbeatSentAt <= KEY_CACHE_UNTRUSTED_MS
    );
  }
}
