import { performance } from 'node:perf_hooks';
import type { PgListener } from '../../src/database/listener';
import { OperatorActionsService } from '../../src/admin/operator-actions.service';
import { ApiKeysService } from '../../src/organizations/api-keys.service';
import { OrganizationsRepository } from '../../src/organizations/organizations.repository';
import type { CreatedOrganization } from '../../src/organizations/organizations.service';
import { newTenant, startTestApp, TestApp } from '../helpers/app';
import { waitFor } from '../helpers/poll';

/**
 * Each instance caches the keys it has looked up (docs/architecture.md, "The API-key cache"): a
 * key that ends is refused at once by the instance that ended it and within one second by every
 * other, by notification while the listening connection works, by the entries' age when not.
 */
let a: TestApp;
let b: TestApp;
beforeAll(async () => {
  [a, b] = await Promise.all([startTestApp(), startTestApp()]);
});
afterAll(() => Promise.all([a.close(), b.close()]));

const list = (t: TestApp, key: string) => t.http.get('/api/v1/payment-request').set('Authorization', key);

/** Look-ups of keys in the database by an instance, from now on. */
function lookups(t: TestApp): () => number {
  const spy = jest.spyOn(t.app.get(OrganizationsRepository), 'liveKeyByHash');
  const before = spy.mock.calls.length;
  return () => spy.mock.calls.length - before;
}
afterEach(() => jest.restoreAllMocks());

async function keyId(org: CreatedOrganization, kind: 'secret' | 'publishable'): Promise<string> {
  const rows = await a.query<{ id: string }>(
    `SELECT id FROM api_keys WHERE environment_id = $1 AND kind = $2 AND revoked_at IS NULL`,
    [org.sandbox.environmentId, kind],
  );
  return rows[0].id;
}

/** Waits until the instance trusts notifications (its listener is up and a heartbeat came back). */
async function listening(t: TestApp, org: CreatedOrganization): Promise<void> {
  expect((await list(t, org.sandbox.secretKey)).status).toBe(200);
  const count = lookups(t);
  const since = performance.now();
  await waitFor(async () => {
    expect((await list(t, org.sandbox.secretKey)).status).toBe(200);
    return performance.now() - since > 1200;
  }, 'an entry older than a second');
  expect(count()).toBe(0);
}

it('serves a key it has looked up from memory: one look-up for many requests', async () => {
  const org = await newTenant(a);
  const count = lookups(b);
  for (let i = 0; i < 5; i++) expect((await list(b, org.sandbox.secretKey)).status).toBe(200);
  expect(count()).toBe(1);
});

it('refuses a revoked key at once on the revoking instance, and on another by notification (entry older than its second)', async () => {
  const org = await newTenant(a);
  const key = org.sandbox.secretKey;
  expect((await list(a, key)).status).toBe(200);
  await listening(b, org);
  await a.app.get(ApiKeysService).revoke(org.organizationId, await keyId(org, 'secret'));
  const revokedAt = performance.now();
  expect((await list(a, key)).status).toBe(401);
  await waitFor(async () => (await list(b, key)).status === 401, 'the other instance to refuse', 1000);
  expect(performance.now() - revokedAt).toBeLessThan(1000);
});

it('refuses a key rolled to expire now, and a deleted key, on the other instance by notification', async () => {
  const org = await newTenant(a);
  await listening(b, org);
  const scope = {
    organizationId: org.organizationId,
    environmentId: org.sandbox.environmentId,
    environment: 'sandbox' as const,
  };
  const { issued } = await a.app.get(ApiKeysService).roll(scope, await keyId(org, 'secret'), 0);
  expect((await list(a, org.sandbox.secretKey)).status).toBe(401);
  await waitFor(async () => (await list(b, org.sandbox.secretKey)).status === 401, 'the roll', 1000);

  await listening(b, { ...org, sandbox: { ...org.sandbox, secretKey: issued.key } });
  await a.query(`DELETE FROM environments WHERE id = $1`, [org.sandbox.environmentId]);
  await waitFor(async () => (await list(b, issued.key)).status === 401, 'the deletion', 1000);
});

it('refuses a rolled key once its delay is over, on every instance', async () => {
  const org = await newTenant(a);
  const key = org.sandbox.publishableKey;
  const get = (t: TestApp) =>
    t.http.get('/api/v1/payment-request/by-transaction/none').set('Authorization', key);
  await a.query(`UPDATE api_keys SET expires_at = now() + interval '1500 milliseconds' WHERE id = $1`, [
    await keyId(org, 'publishable'),
  ]);
  const expiresAt = performance.now() + 1500;
  expect((await get(a)).status).toBe(404);
  expect((await get(b)).status).toBe(404);
  await waitFor(async () => (await get(b)).status === 401, 'the expiry', 3000);
  expect(performance.now()).toBeGreaterThan(expiresAt - 100);
  expect((await get(a)).status).toBe(401);
});

it('with its listening connection broken, another instance still refuses a revoked key within one second', async () => {
  const org = await newTenant(a);
  const key = org.sandbox.secretKey;
  await listening(b, org);
  // A connection that died silently: no error, no notification, no heartbeat.
  const service: unknown = b.app.get(ApiKeysService);
  await (service as { listener: PgListener }).listener.stop();
  await a.query(`UPDATE api_keys SET revoked_at = now() WHERE id = $1`, [await keyId(org, 'secret')]);
  const revokedAt = performance.now();
  await waitFor(() => performance.now() - revokedAt >= 1000, 'a second');
  expect((await list(b, key)).status).toBe(401);
});

it('opens Production on every instance as soon as an organization is verified (its gated keys are never cached)', async () => {
  const org = await newTenant(a, 'Test Merchant', { verification: 'unverified' });
  const create = (t: TestApp) =>
    t.http
      .post('/api/v1/payment-request')
      .set('Authorization', org.production.secretKey)
      .send({ transactionId: `verify-${Math.random()}`, amount: 100 });
  expect((await create(b)).status).toBe(403);
  const count = lookups(b);
  expect((await create(b)).status).toBe(403);
  expect(count()).toBe(1);
  await a.app.get(OperatorActionsService).verify({ operatorId: null, label: 'cli' }, org.organizationId);
  expect((await create(b)).status).toBe(200);
});
