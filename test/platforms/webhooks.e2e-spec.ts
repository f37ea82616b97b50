import { Webhook } from 'standardwebhooks';
import { Messages } from '../../src/common/errors/messages';
import { ApiKeysService } from '../../src/organizations/api-keys.service';
import { newTenant, startWorkerApp, TestApp } from '../helpers/app';
import { expectText } from '../helpers/http';
import { waitFor } from '../helpers/poll';
import { connectAccount, newPlatform } from '../helpers/platforms';
import { Receiver, WORKER_ENV } from '../webhooks/receiver';

/**
 * A platform's endpoint created with `connected: true` receives its connected accounts' events
 * (with `account` in the body and `x-khoums-account`), besides its own; the accounts' own
 * endpoints receive theirs as usual; nobody receives another's.
 */
let t: TestApp;
const receivers: Receiver[] = [];
beforeAll(async () => {
  t = await startWorkerApp(WORKER_ENV);
});
afterAll(async () => {
  await Promise.all(receivers.map((r) => r.stop()));
  await t.close();
});

async function receiver(): Promise<Receiver> {
  const r = new Receiver();
  receivers.push(r);
  await r.start();
  return r;
}

const api = (path: string) => `/api/v1${path}`;

it('delivers connected accounts’ events to the platform’s connected endpoint, signed, with account and x-khoums-account', async () => {
  const platform = await newPlatform(t);
  const a = await connectAccount(t, platform, 'Shop A');
  const b = await connectAccount(t, platform, 'Shop B');
  const sk = platform.sandbox.secretKey;
  const connected = await receiver();
  const plain = await receiver();
  const own = await receiver();
  const created = await t.http
    .post(api('/webhook-endpoints'))
    .set('Authorization', sk)
    .send({
      url: connected.url,
      connected: true,
      events: ['payment-request-created'],
    });
  expect(created.status).toBe(200);
  expect(created.body.data).toMatchObject({ connected: true, environmentId: platform.sandbox.environmentId });
  const plainEndpoint = await t.http
    .post(api('/webhook-endpoints'))
    .set('Authorization', sk)
    .send({ url: plain.url, events: ['payment-request-created'] });
  expect(plainEndpoint.body.data.connected).toBe(false);
  // Account A's own endpoint, made acting for it.
  const ownEndpoint = await t.http
    .post(api('/webhook-endpoints'))
    .set('Authorization', sk)
    .set('Khoums-Account', a.id)
    .send({ url: own.url, events: ['payment-request-created'] });
  expect(ownEndpoint.status).toBe(200);

  const request = async (account: string | undefined, transactionId: string) => {
    const r = t.http.post(api('/payment-request')).set('Authorization', sk);
    const res = await (account ? r.set('Khoums-Account', account) : r).send({ transactionId, amount: 1000 });
    expect(res.status).toBe(200);
    return res.body.data.id as string;
  };
  const forA = await request(a.id, 'order-a');
  const forB = await request(b.id, 'order-b');
  const forPlatform = await request(undefined, 'order-platform');

  const byData = (r: Receiver, id: string) => r.hits.find((h) => h.body.data.id === id);
  await waitFor(
    () => byData(connected, forA) && byData(connected, forB) && byData(connected, forPlatform),
    'the connected endpoint to receive three events',
  );
  await waitFor(
    () => byData(plain, forPlatform) && byData(own, forA),
    'the other endpoints to receive theirs',
  );

  const hitA = byData(connected, forA)!;
  expect(hitA.body).toMatchObject({ event: 'payment-request-created', account: a.id });
  expect(hitA.headers['x-khoums-account']).toBe(a.id);
  expect(byData(connected, forB)!.body).toMatchObject({ account: b.id });
  expect(byData(connected, forB)!.headers['x-khoums-account']).toBe(b.id);
  // Signed with the platform endpoint's secret, over the body with `account` in it.
  const verified = new Webhook(created.body.data.secret.slice('whsec_'.length)).verify(
    hitA.raw.toString('utf8'),
    hitA.headers as Record<string, string>,
  );
  expect(verified).toMatchObject({ account: a.id });
  // The platform's own event carries no account.
  const hitPlatform = byData(connected, forPlatform)!;
  expect('account' in hitPlatform.body).toBe(false);
  expect(hitPlatform.headers['x-khoums-account']).toBeUndefined();
  // The account's own endpoint receives its event as usual (no account), and never another's.
  expect('account' in byData(own, forA)!.body).toBe(false);
  expect(byData(own, forB)).toBeUndefined();
  expect(byData(own, forPlatform)).toBeUndefined();
  // A plain endpoint of the platform receives only the platform's events.
  expect(byData(plain, forA)).toBeUndefined();
  expect(byData(plain, forB)).toBeUndefined();

  // The platform's delivery log lists the delivery; the account's does not show the platform's.
  const platformLog = await t.http
    .get(api(`/webhook-deliveries?endpointId=${created.body.data.id}`))
    .set('Authorization', sk);
  expect(platformLog.body.pagination.total).toBe(3);
  const accountLog = await t.http
    .get(api('/webhook-deliveries'))
    .set('Authorization', sk)
    .set('Khoums-Account', a.id);
  expect(accountLog.body.data.map((d: { endpointId: string }) => d.endpointId)).toEqual([
    ownEndpoint.body.data.id,
  ]);
});

it('receives the accounts’ events of the same environment kind only', async () => {
  const platform = await newPlatform(t);
  const a = await connectAccount(t, platform);
  const live = await receiver();
  await t.http
    .post(api('/webhook-endpoints'))
    .set('Authorization', platform.production.secretKey)
    .send({ url: live.url, connected: true, events: ['payment-request-created'] });
  // Account A's Sandbox event, made with its own key.
  const [env] = await t.query("SELECT id FROM environments WHERE organization_id = $1 AND kind = 'sandbox'", [
    a.id,
  ]);
  const key = (await t.app.get(ApiKeysService).issue(a.id, { id: env.id, kind: 'sandbox' }, 'secret')).key;
  const res = await t.http
    .post(api('/payment-request'))
    .set('Authorization', key)
    .send({ transactionId: 'x', amount: 5 });
  expect(res.status).toBe(200);
  const deliveries = await t.query(
    'SELECT count(*)::int AS n FROM webhook_deliveries d JOIN events e ON e.id = d.event_id WHERE e.environment_id = $1',
    [env.id],
  );
  expect(deliveries[0].n).toBe(0);
});

it('connected: true is for platforms: 403 Only platforms can connect accounts, and no endpoint is made', async () => {
  const merchant = await newTenant(t);
  const res = await t.http
    .post(api('/webhook-endpoints'))
    .set('Authorization', merchant.sandbox.secretKey)
    .send({ url: 'http://127.0.0.1:9/hook', connected: true });
  expectText(res, 403, Messages.onlyPlatformsConnectAccounts);
  const rows = await t.query('SELECT count(*)::int AS n FROM webhook_endpoints WHERE organization_id = $1', [
    merchant.organizationId,
  ]);
  expect(rows[0].n).toBe(0);
  // Acting for an account, the account is no platform either.
  const platform = await newPlatform(t);
  const a = await connectAccount(t, platform);
  expectText(
    await t.http
      .post(api('/webhook-endpoints'))
      .set('Authorization', platform.sandbox.secretKey)
      .set('Khoums-Account', a.id)
      .send({ url: 'http://127.0.0.1:9/hook', connected: true }),
    403,
    Messages.onlyPlatformsConnectAccounts,
  );
});
