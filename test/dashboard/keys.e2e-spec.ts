import { ApiKeysService } from '../../src/organizations/api-keys.service';
import { startTestApp, TestApp } from '../helpers/app';
import { DASHBOARD_ENV, DashboardBrowser, signedInOwner } from '../helpers/dashboard';
import { waitFor } from '../helpers/poll';

/** API keys are listed, created (shown once), revoked (401 at once) and rolled on the keys page. */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp(DASHBOARD_ENV);
});
afterAll(() => t.close());

const newKeyOf = (html: string) => /data-testid="new-key">([^<]+)</.exec(html)?.[1];
const keyIdOf = async (key: string) =>
  (await t.query(`SELECT id FROM api_keys WHERE key_hash = sha256($1::bytea)`, [Buffer.from(key)]))[0]
    .id as string;
const status = async (key: string) =>
  (await t.http.get('/api/v1/payment-request').set('Authorization', key)).status;

async function createKey(b: DashboardBrowser, type: 'secret' | 'publishable', name = '') {
  await b.get('/dashboard/keys');
  const res = await b.post('/dashboard/keys', { type, name });
  expect(res.status).toBe(200);
  return newKeyOf(res.text)!;
}

it('creates a secret or publishable key of the session environment, shows it once, then only its prefix and last four', async () => {
  const { browser } = await signedInOwner(t);
  const secret = await createKey(browser, 'secret', 'Shop server');
  expect(secret).toMatch(/^sk_test_[0-9A-Za-z]{40}$/);
  expect(await status(secret)).toBe(200);
  const publishable = await createKey(browser, 'publishable');
  expect(publishable).toMatch(/^pk_test_[0-9A-Za-z]{40}$/);
  expect((await t.http.get('/api/v1/payment-methods').set('Authorization', publishable)).status).toBe(200);

  const list = await browser.get('/dashboard/keys');
  expect(list.text).not.toContain(secret);
  expect(list.text).not.toContain(publishable);
  const row = new RegExp(`data-id="${await keyIdOf(secret)}"[\\s\\S]*?</tr>`).exec(list.text)![0];
  expect(row).toContain('Shop server');
  expect(row).toContain('<span data-testid="key-prefix">sk_test_</span>');
  expect(row).toContain(`<span data-testid="key-last-four">${secret.slice(-4)}</span>`);
  expect(row).toContain('Never'); // not used yet... until the last-use times are written
  await t.app.get(ApiKeysService).flushLastUsed();
  const used = new RegExp(`data-id="${await keyIdOf(secret)}"[\\s\\S]*?</tr>`).exec(
    (await browser.get('/dashboard/keys')).text,
  )![0];
  expect(used.match(/\d{4}, \d\d:\d\d:\d\d/g)).toHaveLength(2); // created and last used

  await browser.post('/dashboard/environment', { environment: 'production', return: '/dashboard/keys' });
  const live = await createKey(browser, 'secret');
  expect(live).toMatch(/^sk_live_/);
  const production = await browser.get('/dashboard/keys');
  expect(production.text).toContain('data-environment="production"');
  expect(production.text).not.toContain(`data-id="${await keyIdOf(secret)}"`);
  expect(production.text).toContain(`data-id="${await keyIdOf(live)}"`);
});

it('revokes: the key answers 401 from its very next request', async () => {
  const { browser } = await signedInOwner(t);
  const key = await createKey(browser, 'secret');
  expect(await status(key)).toBe(200);
  await browser.get('/dashboard/keys');
  const res = await browser.post(`/dashboard/keys/${await keyIdOf(key)}/revoke`);
  expect({ status: res.status, location: res.headers.location }).toEqual({
    status: 303,
    location: '/dashboard/keys?notice=keyRevoked',
  });
  expect(await status(key)).toBe(401);
  const list = await browser.get(res.headers.location);
  expect(list.text).toContain('Key revoked: it is refused from now on.');
  expect(list.text).not.toContain(`data-id="${await keyIdOf(key)}"`);
});

it('rolls with "now": a new key of the same kind and name, and the old one is refused at once', async () => {
  const { browser } = await signedInOwner(t);
  const old = await createKey(browser, 'publishable', 'Mobile app');
  await browser.get('/dashboard/keys');
  const res = await browser.post(`/dashboard/keys/${await keyIdOf(old)}/roll`, { delay: '0' });
  const next = newKeyOf(res.text)!;
  expect(next).toMatch(/^pk_test_/);
  expect(next).not.toBe(old);
  expect(res.text).toContain('The old key “Mobile app” is refused from now on.');
  expect((await t.http.get('/api/v1/payment-methods').set('Authorization', old)).status).toBe(401);
  expect((await t.http.get('/api/v1/payment-methods').set('Authorization', next)).status).toBe(200);
  const [row] = await t.query('SELECT name FROM api_keys WHERE id = $1', [await keyIdOf(next)]);
  expect(row.name).toBe('Mobile app');
});

it.each([
  ['3600', 3600],
  ['86400', 86_400],
  ['604800', 604_800],
])(
  'rolls with a delay of %s s: both keys work until the old one expires, then it answers 401',
  async (delay, seconds) => {
    const { browser } = await signedInOwner(t);
    const old = await createKey(browser, 'secret');
    await browser.get('/dashboard/keys');
    const res = await browser.post(`/dashboard/keys/${await keyIdOf(old)}/roll`, { delay });
    const next = newKeyOf(res.text)!;
    expect(res.text).toMatch(/The old key “Unnamed” works until \d/);
    expect(await status(old)).toBe(200);
    expect(await status(next)).toBe(200);
    const [{ left }] = await t.query(
      `SELECT extract(epoch FROM expires_at - now())::int AS left FROM api_keys WHERE id = $1`,
      [await keyIdOf(old)],
    );
    expect(Math.abs(left - seconds)).toBeLessThan(30);
    // The list shows when it expires.
    expect((await browser.get('/dashboard/keys')).text).toContain('class="badge pending"');
    // The clock runs on past the expiry: the database announces the change, and the instance's
    // cached key is dropped within a second (docs/architecture.md, "The API-key cache").
    await t.query(`UPDATE api_keys SET expires_at = now() - interval '1 second' WHERE id = $1`, [
      await keyIdOf(old),
    ]);
    await waitFor(async () => (await status(old)) === 401, 'the expired key to be refused', 1000);
    expect(await status(next)).toBe(200);
    expect((await browser.get('/dashboard/keys')).text).not.toContain(`data-id="${await keyIdOf(old)}"`);
  },
);

it('refuses to roll a revoked or expired key, and a delay not offered', async () => {
  const { browser } = await signedInOwner(t);
  const key = await createKey(browser, 'secret');
  const id = await keyIdOf(key);
  await browser.get('/dashboard/keys');
  expect((await browser.post(`/dashboard/keys/${id}/roll`, { delay: '60' })).status).toBe(400);
  await browser.post(`/dashboard/keys/${id}/revoke`);
  await browser.get('/dashboard/keys');
  expect((await browser.post(`/dashboard/keys/${id}/roll`, { delay: '0' })).status).toBe(404);
  expect((await browser.post(`/dashboard/keys/${id}/revoke`)).status).toBe(404);
});

it('never extends an expiring key: a second roll keeps the earlier expiry', async () => {
  const { browser } = await signedInOwner(t);
  const key = await createKey(browser, 'secret');
  const id = await keyIdOf(key);
  const expiry = async () =>
    (
      await t.query(
        `SELECT extract(epoch FROM expires_at - now())::int AS left FROM api_keys WHERE id = $1`,
        [id],
      )
    )[0].left as number;
  await browser.get('/dashboard/keys');
  expect((await browser.post(`/dashboard/keys/${id}/roll`, { delay: '3600' })).status).toBe(200);
  await browser.get('/dashboard/keys');
  expect((await browser.post(`/dashboard/keys/${id}/roll`, { delay: '604800' })).status).toBe(200);
  expect(await expiry()).toBeLessThanOrEqual(3600);
  await browser.get('/dashboard/keys');
  await browser.post(`/dashboard/keys/${id}/roll`, { delay: '0' });
  expect(await status(key)).toBe(401);
});

it('answered every page once: nothing in the log says a reply was sent twice, nor any error of the dashboard', () => {
  expect(t.logs.filter((l) => /FST_ERR_REP_ALREADY_SENT|DashboardErrorFilter/.test(l))).toEqual([]);
});
