import { ApiKeyCache, KEY_CACHE_MAX_AGE_MS } from './api-key-cache';
import type { Tenant } from './tenant';

const tenant = (keyId: string): Tenant => ({
  organizationId: 'o',
  environmentId: 'e',
  environment: 'sandbox',
  keyKind: 'secret',
  keyId,
  verification: 'verified',
});

function cacheAt(start = 1000, capacity?: number) {
  const clock = { now: start };
  const cache = new ApiKeyCache(() => clock.now, capacity);
  const store = (hash: string, keyId = hash, msLeft: number | null = null) =>
    cache.set(hash, tenant(keyId), msLeft, cache.begin());
  return { clock, cache, store };
}

describe('ApiKeyCache', () => {
  it('keeps an entry for one second when no notification can be trusted', () => {
    const { clock, cache, store } = cacheAt();
    store('h');
    clock.now += 1000;
    expect(cache.get('h')?.keyId).toBe('h');
    clock.now += 1;
    expect(cache.get('h')).toBeUndefined();
  });

  it('keeps an entry longer while listening since before its look-up and heartbeats come back within a second', () => {
    const { clock, cache, store } = cacheAt();
    cache.listening();
    clock.now += 1;
    store('h');
    for (let i = 0; i < 10; i++) {
      clock.now += 250;
      cache.heartbeat(clock.now - 5);
      expect(cache.get('h')?.keyId).toBe('h');
    }
    // Heartbeats stop coming back (a connection that died silently): trusted for one second more at most.
    const lastSent = clock.now - 5;
    clock.now = lastSent + 1000;
    expect(cache.get('h')?.keyId).toBe('h');
    clock.now += 1;
    expect(cache.get('h')).toBeUndefined();
  });

  it('never trusts notifications for an entry looked up before the connection listened', () => {
    const { clock, cache, store } = cacheAt();
    store('h');
    clock.now += 10;
    cache.listening();
    clock.now += 1000;
    cache.heartbeat(clock.now);
    expect(cache.get('h')).toBeUndefined();
  });

  it('stops trusting notifications at once when the connection is lost', () => {
    const { clock, cache, store } = cacheAt();
    cache.listening();
    store('h');
    clock.now += 1500;
    cache.heartbeat(clock.now);
    expect(cache.get('h')?.keyId).toBe('h');
    cache.lost();
    expect(cache.get('h')).toBeUndefined();
  });

  it('keeps no entry past its maximum age, even while notifications arrive', () => {
    const { clock, cache, store } = cacheAt();
    cache.listening();
    store('h');
    clock.now += KEY_CACHE_MAX_AGE_MS + 1;
    cache.heartbeat(clock.now);
    expect(cache.get('h')).toBeUndefined();
  });

  it('drops a rolled key when it expires', () => {
    const { clock, cache, store } = cacheAt();
    store('h', 'k', 300);
    clock.now += 299;
    expect(cache.get('h')?.keyId).toBe('k');
    clock.now += 1;
    expect(cache.get('h')).toBeUndefined();
  });

  it('forgets an ended key by its id, and stores no look-up that started before an invalidation', () => {
    const { cache, store } = cacheAt();
    store('h1', 'k1');
    store('h2', 'k2');
    const mark = cache.begin();
    cache.forget('k1');
    expect(cache.get('h1')).toBeUndefined();
    expect(cache.get('h2')?.keyId).toBe('k2');
    cache.set('h1', tenant('k1'), null, mark);
    expect(cache.get('h1')).toBeUndefined();
  });

  it('holds at most its capacity, dropping the oldest entry', () => {
    const { cache, store } = cacheAt(1000, 2);
    store('a');
    store('b');
    store('c');
    expect(cache.size).toBe(2);
    expect(cache.get('a')).toBeUndefined();
    expect(cache.get('c')?.keyId).toBe('c');
  });

  it("drops every key of an organization whose verification changed ('org:<id>')", () => {
    const { cache } = cacheAt();
    const other = { ...tenant('k2'), organizationId: 'o2' };
    cache.set('h1', tenant('k1'), null, cache.begin());
    cache.set('h2', other, null, cache.begin());
    cache.forget('org:o');
    expect(cache.get('h1')).toBeUndefined();
    expect(cache.get('h2')).toEqual(other);
  });
});
