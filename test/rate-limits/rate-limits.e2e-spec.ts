import { randomUUID } from 'node:crypto';
import { Clock } from '../../src/common/clock';
import { Messages } from '../../src/common/errors/messages';
import type { CreatedOrganization } from '../../src/organizations/organizations.service';
import { newTenant, startTestApp, TestApp } from '../helpers/app';
import { createSession, txId } from '../helpers/checkout';
import { expectText } from '../helpers/http';

/**
 * Rate limits (docs/api.md "Rate limits"): per API key, and per client IP on the routes that take
 * no key, token buckets in each instance's memory with bursts of twice the rate; 429 `Too many requests` with
 * Retry-After. The clock is moved, never waited for. (The pay-attempt limit is in
 * idempotency-pay.e2e-spec.ts.)
 */

const PER_KEY = 5; // burst 10
const PER_IP = 3; // burst 6

/** An app with the limits above, on a clock the test moves. */
async function limitedApp(env: Record<string, string> = {}) {
  const t = await startTestApp({
    RATE_LIMIT_PER_KEY: String(PER_KEY),
    RATE_LIMIT_PER_IP: String(PER_IP),
    ...env,
  });
  let now = Date.now();
  jest.spyOn(t.app.get(Clock), 'now').mockImplementation(() => now);
  return { t, advance: (ms: number) => (now += ms) };
}

let t: TestApp;
let advance: (ms: number) => void;
let org: CreatedOrganization;
beforeAll(async () => {
  ({ t, advance } = await limitedApp());
  org = await newTenant(t);
});
afterAll(() => t.close());
// Every test starts with full buckets (they all talk from 127.0.0.1).
beforeEach(() => advance(60_000));

const methods = (app: TestApp, key: string) =>
  app.http.get('/api/v1/payment-methods').set('Authorization', key);

/** Sends `n` requests one after the other; their statuses. */
async function statuses(n: number, send: () => PromiseLike<{ status: number }>): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push((await send()).status);
  return out;
}

describe('per API key', () => {
  it('allows a burst of twice the rate, then answers 429 Too many requests with Retry-After, as text', async () => {
    expect(await statuses(2 * PER_KEY, () => methods(t, org.sandbox.secretKey))).toEqual(
      Array(2 * PER_KEY).fill(200),
    );
    const refused = await methods(t, org.sandbox.secretKey);
    expectText(refused, 429, Messages.tooManyRequests);
    expect(refused.headers['retry-after']).toBe('1');
  });

  it('recovers at its rate as time passes', async () => {
    await statuses(2 * PER_KEY + 1, () => methods(t, org.sandbox.secretKey));
    advance(1000);
    expect(await statuses(PER_KEY + 1, () => methods(t, org.sandbox.secretKey))).toEqual([
      ...Array(PER_KEY).fill(200),
      429,
    ]);
  });

  it("does not let one key's burst limit another key, of the same organization or another", async () => {
    await statuses(2 * PER_KEY + 1, () => methods(t, org.sandbox.secretKey));
    expect((await methods(t, org.sandbox.secretKey)).status).toBe(429);
    const other = await newTenant(t);
    for (const key of [org.sandbox.publishableKey, org.production.secretKey, other.sandbox.secretKey])
      expect((await methods(t, key)).status).toBe(200);
  });

  it("logs the refusal with the key's prefix, never the key", async () => {
    await statuses(2 * PER_KEY + 1, () => methods(t, org.production.publishableKey));
    const lines = t.logs.filter((l) => l.includes('rate limit exceeded'));
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.some((l) => JSON.parse(l).key === org.production.publishableKey.slice(0, 12))).toBe(true);
    expect(t.logs.join('\n')).not.toContain(org.production.publishableKey);
  });

  it('refuses before the route runs: a refused request with an Idempotency-Key records nothing', async () => {
    await statuses(2 * PER_KEY, () => methods(t, org.sandbox.secretKey));
    const key = randomUUID();
    const body = { transactionId: txId('limited'), amount: 100 };
    const create = () =>
      t.http
        .post('/api/v1/payment-request')
        .set('Authorization', org.sandbox.secretKey)
        .set('Idempotency-Key', key)
        .send(body);
    expectText(await create(), 429, Messages.tooManyRequests);
    advance(1000);
    const created = await create();
    expect(created.status).toBe(200);
    expect(created.headers['idempotent-replayed']).toBeUndefined();
  });
});

describe('per client IP, on the routes that take no key', () => {
  it('limits the hosted page and the public session views together, and not the routes with a key', async () => {
    const { data } = await createSession(t, org.sandbox.secretKey, { transactionId: txId(), amount: 100 });
    const views = [
      `/checkout/${data.id}`,
      `/api/v1/checkout-session/public/${data.id}`,
      `/api/v1/checkout-session/public/${data.id}/payment-status`,
    ];
    let i = 0;
    const seen = await statuses(2 * PER_IP, () => t.http.get(views[i++ % views.length]));
    expect(seen).toEqual(Array(2 * PER_IP).fill(200));
    for (const path of views) {
      const refused = await t.http.get(path);
      expectText(refused, 429, Messages.tooManyRequests);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    }
    expect((await methods(t, org.sandbox.secretKey)).status).toBe(200);
    advance(1000);
    expect((await t.http.get(views[0])).status).toBe(200);
  });

  it("limits the dashboard's pages too, with a page in the user's language and Retry-After", async () => {
    const login = () => t.http.get('/dashboard/login?lang=en');
    expect(await statuses(2 * PER_IP, login)).toEqual(Array(2 * PER_IP).fill(200));
    const refused = await login();
    expect(refused.status).toBe(429);
    expect(refused.headers['content-type']).toMatch(/^text\/html/);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(refused.text).toContain('Too many requests from your address');
  });

  it('leaves the health checks alone', async () => {
    expect(await statuses(3 * PER_IP, () => t.http.get('/health'))).toEqual(Array(3 * PER_IP).fill(200));
  });
});

describe('settings', () => {
  it('0 turns a limit off', async () => {
    const off = await limitedApp({ RATE_LIMIT_PER_KEY: '0', RATE_LIMIT_PER_IP: '0' });
    try {
      const tenant = await newTenant(off.t);
      expect(await statuses(4 * PER_KEY, () => methods(off.t, tenant.sandbox.secretKey))).toEqual(
        Array(4 * PER_KEY).fill(200),
      );
      expect(await statuses(4 * PER_IP, () => off.t.http.get(`/checkout/${randomUUID()}`))).toEqual(
        Array(4 * PER_IP).fill(404),
      );
    } finally {
      await off.t.close();
    }
  });

  it('counts in each instance: two instances allow twice the figure', async () => {
    const second = await limitedApp();
    try {
      await statuses(2 * PER_KEY, () => methods(t, org.sandbox.secretKey));
      expect((await methods(t, org.sandbox.secretKey)).status).toBe(429);
      expect(await statuses(2 * PER_KEY, () => methods(second.t, org.sandbox.secretKey))).toEqual(
        Array(2 * PER_KEY).fill(200),
      );
    } finally {
      await second.t.close();
    }
  });

  it('counts the client named by X-Forwarded-For only behind TRUST_PROXY', async () => {
    const proxied = await limitedApp({ TRUST_PROXY: '1' });
    try {
      const page = (app: TestApp, ip: string) =>
        app.http.get(`/checkout/${randomUUID()}`).set('X-Forwarded-For', ip);
      expect(await statuses(2 * PER_IP + 1, () => page(proxied.t, '41.188.0.1'))).toEqual([
        ...Array(2 * PER_IP).fill(404),
        429,
      ]);
      expect((await page(proxied.t, '41.188.0.2')).status).toBe(404);
      // Without TRUST_PROXY the header names nobody: a client cannot escape its limit with it.
      await statuses(2 * PER_IP, () => page(t, '41.188.0.3'));
      expect((await page(t, '41.188.0.4')).status).toBe(429);
    } finally {
      await proxied.t.close();
    }
  });

  it('with a hop count, takes the address the last proxy saw: a forged left-most X-Forwarded-For entry is ignored', async () => {
    const proxied = await limitedApp({ TRUST_PROXY: '1' });
    try {
      // The client sends its own X-Forwarded-For; the one proxy (this test) appends the address it saw.
      const page = (forged: string) =>
        proxied.t.http.get(`/checkout/${randomUUID()}`).set('X-Forwarded-For', `${forged}, 41.188.1.1`);
      await statuses(2 * PER_IP, () => page('1.1.1.1'));
      expect((await page('2.2.2.2')).status).toBe(429);
      expect((await page('3.3.3.3')).status).toBe(429);
    } finally {
      await proxied.t.close();
    }
  });

  it('with a list of proxy addresses and CIDRs, walks X-Forwarded-For from the right past the trusted proxies', async () => {
    const proxied = await limitedApp({ TRUST_PROXY: '10.0.0.0/8, 127.0.0.1' });
    try {
      const page = (xff: string) =>
        proxied.t.http.get(`/checkout/${randomUUID()}`).set('X-Forwarded-For', xff);
      // The peer (127.0.0.1) and 10.1.2.3 are trusted proxies: the client is 41.188.2.1, whatever
      // the entries left of it say.
      await statuses(2 * PER_IP, () => page('1.1.1.1, 41.188.2.1, 10.1.2.3'));
      expect((await page('2.2.2.2, 41.188.2.1, 10.9.9.9')).status).toBe(429);
      expect((await page('41.188.2.1')).status).toBe(429);
      // An untrusted hop ends the walk: 41.188.2.2 is the client, not the address it forwarded.
      expect((await page('41.188.2.1, 41.188.2.2, 10.1.2.3')).status).toBe(404);
    } finally {
      await proxied.t.close();
    }
  });
});
