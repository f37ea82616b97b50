import { newTenant, startTestApp, TestApp } from '../helpers/app';
import { DASHBOARD_ENV, DashboardBrowser } from '../helpers/dashboard';
import { connectAccount, newPlatform } from '../helpers/platforms';

/** The platform's dashboard lists its connected accounts with their verification and balance. */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp(DASHBOARD_ENV);
});
afterAll(() => t.close());

it("lists the platform's accounts only, with verification and the balance of the environment shown", async () => {
  const platform = await newPlatform(t, 'Souk');
  const a = await connectAccount(t, platform, 'Shop with money');
  const b = await connectAccount(t, platform, 'Shop without');
  const other = await newPlatform(t, 'Other souk');
  const theirs = await connectAccount(t, other, 'Not ours');
  await t.query("UPDATE organizations SET verification_status = 'submitted' WHERE id = $1", [b.id]);
  // A paid request of account A, made by the platform acting for it.
  const sk = platform.sandbox.secretKey;
  await t.http.post('/api/v1/payment-request').set('Authorization', sk).set('Khoums-Account', a.id).send({
    transactionId: 'dash-1',
    amount: 4200,
  });
  const methods = await t.http
    .get('/api/v1/payment-methods')
    .set('Authorization', platform.sandbox.publishableKey)
    .set('Khoums-Account', a.id);
  const masrivi = methods.body.data.find((m: { type: string }) => m.type === 'masrivi');
  const paid = await t.http
    .post('/api/v1/payment')
    .set('Authorization', platform.sandbox.publishableKey)
    .set('Khoums-Account', a.id)
    .send({ transactionId: 'dash-1', phoneNumber: '33445566', configurationId: masrivi.id });
  expect(paid.body.data.status).toBe('completed');

  const browser = new DashboardBrowser(t);
  await browser.signIn(platform.email, platform.password);
  const page = await browser.get('/dashboard/accounts');
  expect(page.status).toBe(200);
  const rows = [...page.text.matchAll(/data-testid="account" data-id="([^"]+)"/g)].map((m) => m[1]);
  expect(rows).toEqual([b.id, a.id]);
  expect(page.text).not.toContain(theirs.id);
  expect(page.text).toMatch(/data-status="submitted">Application sent/);
  expect(page.text).toMatch(/data-testid="pending">4,200 MRU/);
});

it('another organization sees that it is not a platform (404), and an empty platform says how to connect', async () => {
  const merchant = await newTenant(t);
  const browser = new DashboardBrowser(t);
  await browser.signIn(merchant.email, merchant.password);
  const page = await browser.get('/dashboard/accounts');
  expect(page.status).toBe(404);
  expect(page.text).toContain('This organization is not a platform.');

  const platform = await newPlatform(t);
  const owner = new DashboardBrowser(t);
  await owner.signIn(platform.email, platform.password);
  const empty = await owner.get('/dashboard/accounts');
  expect(empty.status).toBe(200);
  expect(empty.text).toContain('data-testid="no-accounts"');
});
