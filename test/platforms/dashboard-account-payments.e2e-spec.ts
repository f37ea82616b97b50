import type { CreatedOrganization } from '../../src/organizations/organizations.service';
import { hashPassword } from '../../src/organizations/secrets';
import { newTenant, startTestApp, TestApp } from '../helpers/app';
import { DASHBOARD_ENV, DashboardBrowser, invitedMember, relLink, unescapeHtml } from '../helpers/dashboard';
import { connectAccount, ConnectedAccountJson, newPlatform } from '../helpers/platforms';

/*
 * The platform's dashboard links each connected account to a read-only page of the account's
 * payments (the environment shown, newest first, paged like /dashboard/payments). Only the
 * platform that connected the account reaches it: any other organization gets the 404 page.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp(DASHBOARD_ENV);
});
afterAll(() => t.close());

/** A payment request and a completed payment of `transactionId`, made with the keys given (acting for `account` when set). */
async function pay(org: CreatedOrganization, transactionId: string, amount: number, account?: string) {
  const as = (req: ReturnType<typeof t.http.get>, key: string) =>
    account ? req.set('Authorization', key).set('Khoums-Account', account) : req.set('Authorization', key);
  const created = await as(t.http.post('/api/v1/payment-request'), org.sandbox.secretKey).send({
    transactionId,
    amount,
  });
  expect(created.status).toBe(200);
  const methods = await as(t.http.get('/api/v1/payment-methods'), org.sandbox.publishableKey);
  const masrivi = methods.body.data.find((m: { type: string }) => m.type === 'masrivi');
  const paid = await as(t.http.post('/api/v1/payment'), org.sandbox.publishableKey).send({
    transactionId,
    phoneNumber: '33445566',
    configurationId: masrivi.id,
  });
  expect(paid.body.data.status).toBe('completed');
}

const rowIds = (html: string) =>
  [...html.matchAll(/data-testid="payment" data-id="([^"]+)"/g)].map((m) => m[1]);
const transactionIds = (html: string) =>
  [
    ...html.matchAll(/data-testid="payment" data-id="[^"]+">\s*<td[^>]*>(?:<a [^>]*>)?<bdi>([^<]+)<\/bdi>/g),
  ].map((m) => m[1]);

/** A browser signed in as the connected account's owner (whose password an onboarding link would set). */
async function accountOwner(account: ConnectedAccountJson): Promise<DashboardBrowser> {
  const password = 'the merchant chose this one';
  await t.query('UPDATE users SET password_hash = $1 WHERE organization_id = $2', [
    await hashPassword(password),
    account.id,
  ]);
  const browser = new DashboardBrowser(t);
  await browser.signIn(account.email, password);
  return browser;
}

it("links each account to its payments: the account's only, newest first, in the environment shown, read only", async () => {
  const platform = await newPlatform(t, 'Souk');
  const a = await connectAccount(t, platform, 'Boutique Nour');
  const b = await connectAccount(t, platform, 'Sibling shop');
  await pay(platform, 'a-first', 1000, a.id);
  await pay(platform, 'a-second', 2500, a.id);
  await pay(platform, 'b-only', 700, b.id);
  await pay(platform, 'platform-own', 900);

  const browser = new DashboardBrowser(t);
  await browser.signIn(platform.email, platform.password);
  const list = await browser.get('/dashboard/accounts');
  expect(list.status).toBe(200);
  const links = [...list.text.matchAll(/href="([^"]+)" data-testid="account-payments"/g)].map((m) =>
    unescapeHtml(m[1]),
  );
  expect(links).toEqual([`/dashboard/accounts/${b.id}/payments`, `/dashboard/accounts/${a.id}/payments`]);
  expect(list.text).toContain('aria-label="See the payments of Boutique Nour"');

  const page = await browser.get(links[1]);
  expect(page.status).toBe(200);
  expect(page.text).toContain('<h1 data-testid="account"');
  expect(page.text).toContain('Payments of Boutique Nour');
  expect(transactionIds(page.text)).toEqual(['a-second', 'a-first']);
  expect(page.text).toContain('2,500');
  // Read only: no form posts, and no link to a request page (the request is the account's own).
  expect(page.text).not.toMatch(/<form method="post"[^>]*action="\/dashboard\/(accounts|payment)/);
  expect(page.text).not.toContain('/dashboard/payment-requests/');
  // The search works on the account's payments, and the form points back at this page.
  expect(page.text).toContain(`action="/dashboard/accounts/${a.id}/payments"`);
  const searched = await browser.get(`${links[1]}?transactionId=a-first`);
  expect(transactionIds(searched.text)).toEqual(['a-first']);
  const none = await browser.get(`${links[1]}?transactionId=b-only`);
  expect(rowIds(none.text)).toEqual([]);
  expect(none.text).toContain('data-testid="no-results"');

  // The platform's own list shows none of the account's payments, nor the account's its own.
  const own = await browser.get('/dashboard/payments');
  expect(transactionIds(own.text)).toEqual(['platform-own']);

  // In Production, the account has no payment.
  await browser.post('/dashboard/environment', { environment: 'production', return: '/dashboard' });
  const production = await browser.get(links[1]);
  expect(production.status).toBe(200);
  expect(rowIds(production.text)).toEqual([]);

  // French and Arabic.
  const fr = await browser.get(`${links[1]}?lang=fr`);
  expect(fr.text).toContain('Paiements de Boutique Nour');
  expect(fr.text).toContain('Retour aux comptes connectés');
  const ar = await browser.get(`${links[1]}?lang=ar`);
  expect(ar.text).toContain('dir="rtl"');
  // The Latin name isolated in the Arabic sentence (docs/dashboard.md "Left-to-right values kept whole").
  expect(ar.text).toContain('مدفوعات \u2068Boutique Nour\u2069');
});

it('pages the payments like /dashboard/payments (25 a page, newest first)', async () => {
  const platform = await newPlatform(t, 'Busy souk');
  const a = await connectAccount(t, platform, 'Busy shop');
  for (let i = 1; i <= 27; i += 1) await pay(platform, `busy-${String(i).padStart(2, '0')}`, 100 + i, a.id);
  const browser = new DashboardBrowser(t);
  await browser.signIn(platform.email, platform.password);
  const first = await browser.get(`/dashboard/accounts/${a.id}/payments`);
  const firstIds = transactionIds(first.text);
  expect(firstIds).toHaveLength(25);
  expect(firstIds[0]).toBe('busy-27');
  const next = relLink(first.text, 'next');
  expect(next).toMatch(new RegExp(`^/dashboard/accounts/${a.id}/payments\\?after=`));
  const second = await browser.get(next!);
  expect(transactionIds(second.text)).toEqual(['busy-02', 'busy-01']);
});

it("reaches only the platform's own accounts: every other id is the 404 page, and an account sees nothing of its platform", async () => {
  const platform = await newPlatform(t, 'Souk');
  const mine = await connectAccount(t, platform, 'Mine');
  const sibling = await newPlatform(t, 'Sibling souk');
  const theirs = await connectAccount(t, sibling, 'Theirs');
  await pay(sibling, 'theirs-paid', 1234, theirs.id);
  const merchant = await newTenant(t, 'Plain merchant');

  const owner = new DashboardBrowser(t);
  await owner.signIn(platform.email, platform.password);
  for (const id of [
    theirs.id, // a sibling platform's account
    sibling.organizationId, // another organization (a platform)
    merchant.organizationId, // an unrelated organization
    platform.organizationId, // the platform itself
    '00000000-0000-4000-8000-000000000000', // nothing
    'not-a-uuid',
  ]) {
    const res = await owner.get(`/dashboard/accounts/${id}/payments`);
    expect({ id, status: res.status }).toEqual({ id, status: 404 });
    expect(res.text).not.toContain('theirs-paid');
  }
  expect((await owner.get(`/dashboard/accounts/${mine.id}/payments`)).status).toBe(200);

  // A non-platform organization reaches no account, whatever the id.
  const plain = new DashboardBrowser(t);
  await plain.signIn(merchant.email, merchant.password);
  for (const id of [mine.id, theirs.id, merchant.organizationId]) {
    const res = await plain.get(`/dashboard/accounts/${id}/payments`);
    expect({ id, status: res.status }).toEqual({ id, status: 404 });
  }

  // The account's own users: nothing of the platform, nor of a sibling account.
  const accountUser = await accountOwner(mine);
  expect((await accountUser.get('/dashboard/accounts')).status).toBe(404);
  for (const id of [platform.organizationId, mine.id, theirs.id]) {
    const res = await accountUser.get(`/dashboard/accounts/${id}/payments`);
    expect({ id, status: res.status }).toEqual({ id, status: 404 });
  }

  // The operator removes the platform flag: its accounts' pages go with it.
  await t.query('UPDATE organizations SET platform = false WHERE id = $1', [platform.organizationId]);
  expect((await owner.get(`/dashboard/accounts/${mine.id}/payments`)).status).toBe(404);
});

it("is the platform's members' to read (a viewer too), signed out goes to sign in, and bad filters or cursors are no 500", async () => {
  const platform = await newPlatform(t, 'Souk');
  const a = await connectAccount(t, platform, 'Shop');
  await pay(platform, 'viewer-sees', 4100, a.id);
  const path = `/dashboard/accounts/${a.id}/payments`;

  const signedOut = await new DashboardBrowser(t).get(path);
  expect({ status: signedOut.status, location: signedOut.headers.location }).toEqual({
    status: 303,
    location: '/dashboard/login',
  });

  const owner = new DashboardBrowser(t);
  await owner.signIn(platform.email, platform.password);
  const { browser: viewer } = await invitedMember(t, owner, 'viewer');
  const seen = await viewer.get(path);
  expect(seen.status).toBe(200);
  expect(transactionIds(seen.text)).toEqual(['viewer-sees']);

  for (const name of [
    'q',
    'status',
    'method',
    'from',
    'to',
    'amountMin',
    'amountMax',
    'transactionId',
    'phone',
  ])
    expect({ name, status: (await owner.get(`${path}?${name}=a%00b`)).status }).toEqual({
      name,
      status: 200,
    });
  const forged = await owner.get(`${path}?after=forged`);
  expect(forged.status).toBe(400);
  expect(forged.text).toContain('Invalid cursor');
});
