import type { CreatedOrganization } from '../../src/organizations/organizations.service';
import { startTestApp, TestApp } from '../helpers/app';
import {
  launchBrowser,
  MerchantSite,
  screenshot,
  startMerchantSite,
  TestBrowser,
  seriousViolations,
} from '../helpers/browser';
import { DASHBOARD_ENV } from '../helpers/dashboard';
import { connectAccount, newPlatform } from '../helpers/platforms';

/**
 * A platform's onboarding link in Chromium (docs/platforms.md): the merchant sets their password,
 * applies to go live in the dashboard, and lands on the platform's returnUrl; the link then works
 * no more (refreshUrl), nor does an expired one.
 */

let t: TestApp;
let b: TestBrowser;
let base: string;
let site: MerchantSite;
let platform: CreatedOrganization;

beforeAll(async () => {
  t = await startTestApp(DASHBOARD_ENV);
  const { port } = t.app.getHttpServer().address() as { port: number };
  base = `http://127.0.0.1:${port}`;
  b = await launchBrowser();
  site = await startMerchantSite();
  platform = await newPlatform(t, 'Souk en ligne');
});
afterAll(async () => {
  await site?.close();
  await b?.close();
  await t?.close();
});

/** A link made by the platform's API, pointed at this test's server (PUBLIC_URL is not its port). */
async function onboardingLink(accountId: string): Promise<string> {
  const res = await t.http
    .post(`/api/v1/accounts/${accountId}/onboarding-link`)
    .set('Authorization', platform.sandbox.secretKey)
    .send({
      returnUrl: `${site.origin}/onboarded?account=${accountId}`,
      refreshUrl: `${site.origin}/refresh`,
    });
  expect(res.status).toBe(200);
  return `${base}${new URL(res.body.data.url).pathname}`;
}

it('sets the password, applies to go live, lands on returnUrl; the used link then goes to refreshUrl', async () => {
  const account = await connectAccount(t, platform, 'Boutique Nour');
  const link = await onboardingLink(account.id);
  const context = await b.browser.newContext({ locale: 'en-GB', viewport: { width: 390, height: 844 } });
  const page = await context.newPage();

  await page.goto(link);
  expect(await page.textContent('h1')).toBe('Welcome to Khoums');
  expect(await page.textContent('main')).toContain('Souk en ligne opened a Khoums account for Boutique Nour');
  expect(await page.inputValue('#email')).toBe(account.email);
  expect(await seriousViolations(page)).toEqual([]);
  await screenshot(page, 'platforms-onboarding');

  // A password the rules refuse keeps the link usable.
  await page.fill('#password', 'short');
  await page.evaluate(`document.querySelector('#password').removeAttribute('minlength')`);
  await page.click('button[type=submit]');
  expect(await page.textContent('[data-testid=error]')).toContain('at least 10 characters');

  await page.fill('#password', 'a long enough password');
  await Promise.all([page.waitForURL(`${base}/dashboard/go-live`), page.click('button[type=submit]')]);
  expect(await page.getAttribute('[data-status]', 'data-status')).toBe('unverified');

  // The go-live application, as the merchant fills it in.
  await page.fill('#legalName', 'Boutique Nour SARL');
  await page.fill('#tradeName', 'Boutique Nour');
  await page.selectOption('#legalForm', 'SARL');
  await page.fill('#rccm', 'NKC 2022 B 4321');
  await page.fill('#nif', '30125479');
  await page.fill('#address', 'Tevragh Zeina, Nouakchott');
  await page.fill('#representativeName', 'Nour Mint Sidi');
  await page.fill('#representativeIdNumber', '4829173651');
  await page.fill('#representativePhone', '22 12 34 57');
  await page.selectOption('#payoutBank', 'BMCI');
  await page.fill('#payoutHolder', 'Boutique Nour SARL');
  await page.fill('#payoutIban', 'MR13 0002 0001 0100 0012 3456 753');
  await page.setInputFiles('#rccmExtract', {
    name: 'rccm.pdf',
    mimeType: 'application/pdf',
    buffer: Buffer.from('%PDF-1.7\nRCCM'),
  });
  await page.setInputFiles('#representativeIdDocument', {
    name: 'id.png',
    mimeType: 'image/png',
    buffer: Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from('ID')]),
  });
  await Promise.all([
    page.waitForURL(`${site.origin}/onboarded?account=${account.id}`),
    page.click('form[enctype] button[type=submit]'),
  ]);
  expect(await page.textContent('#merchant-page')).toBe('Back at the shop');
  const [org] = await t.query('SELECT verification_status FROM organizations WHERE id = $1', [account.id]);
  expect(org.verification_status).toBe('submitted');
  // The platform sees it.
  const seen = await t.http
    .get(`/api/v1/accounts/${account.id}`)
    .set('Authorization', platform.sandbox.secretKey);
  expect(seen.body.data.verification).toEqual({
    status: 'submitted',
    submittedAt: expect.any(String),
    decidedAt: null,
    reason: null,
  });

  // Single use: the same link now goes to refreshUrl, in this browser and any other.
  await page.goto(link);
  expect(page.url()).toBe(`${site.origin}/refresh`);
  const other = await (await b.browser.newContext()).newPage();
  await other.goto(link);
  expect(other.url()).toBe(`${site.origin}/refresh`);

  // The link's token never reaches the log (anyone reading it could use the link).
  const token = new URL(link).pathname.split('/').pop()!;
  expect(t.logs.filter((line) => line.includes('/dashboard/onboarding/')).length).toBeGreaterThan(0);
  expect(t.logs.filter((line) => line.includes(token))).toEqual([]);

  // The merchant signs in with the password they chose.
  const again = await (await b.browser.newContext({ locale: 'en-GB' })).newPage();
  await again.goto(`${base}/dashboard/login`);
  await again.fill('#email', account.email);
  await again.fill('#password', 'a long enough password');
  await Promise.all([again.waitForURL(`${base}/dashboard`), again.click('button[type=submit]')]);
  expect(await again.textContent('[data-testid=organization]')).toBe('Boutique Nour');
  await context.close();
});

it('an expired link goes to refreshUrl and changes nothing; an unknown one is a 404 page', async () => {
  const account = await connectAccount(t, platform, 'Épicerie Atar');
  const link = await onboardingLink(account.id);
  await t.query(
    "UPDATE onboarding_links SET expires_at = now() - interval '1 second' WHERE organization_id = $1",
    [account.id],
  );
  const page = await (await b.browser.newContext()).newPage();
  await page.goto(link);
  expect(page.url()).toBe(`${site.origin}/refresh`);
  const [link_] = await t.query('SELECT used_at FROM onboarding_links WHERE organization_id = $1', [
    account.id,
  ]);
  expect(link_.used_at).toBeNull();

  const unknown = await page.goto(`${base}/dashboard/onboarding/not-a-real-token`);
  expect(unknown?.status()).toBe(404);
  expect(await page.textContent('h1')).toBeTruthy();
});

it('two submissions of one link: one sets the password, the other goes to refreshUrl', async () => {
  const account = await connectAccount(t, platform, 'Quincaillerie');
  const link = await onboardingLink(account.id);
  const pages = await Promise.all([0, 1].map(async () => (await b.browser.newContext()).newPage()));
  for (const p of pages) {
    await p.goto(link);
    await p.fill('#password', 'another long password');
  }
  await Promise.all(pages.map((p) => Promise.all([p.waitForLoadState(), p.click('button[type=submit]')])));
  await Promise.all(pages.map((p) => p.waitForURL((u) => !u.pathname.startsWith('/dashboard/onboarding'))));
  const urls = pages.map((p) => new URL(p.url()));
  expect(urls.map((u) => (u.origin === site.origin ? u.pathname : u.pathname)).sort()).toEqual(
    ['/dashboard/go-live', '/refresh'].sort(),
  );
});

it("a later link for an onboarded account: the page says it is set up and links to sign-in; a form opened before changes nothing, and the owner's session stays", async () => {
  const account = await connectAccount(t, platform, 'Librairie Kiffa');
  const first = await onboardingLink(account.id);
  // A second link made before the owner onboards, its form opened (and left open) in another browser.
  const early = await onboardingLink(account.id);
  const intruder = await (await b.browser.newContext({ locale: 'en-GB' })).newPage();
  await intruder.goto(early);
  expect(await intruder.inputValue('#email')).toBe(account.email);

  // The owner onboards with the first link and is signed in.
  const ownerContext = await b.browser.newContext({ locale: 'en-GB' });
  const owner = await ownerContext.newPage();
  await owner.goto(first);
  await owner.fill('#password', 'the owner chose this');
  await Promise.all([owner.waitForURL(`${base}/dashboard/go-live`), owner.click('button[type=submit]')]);
  const [before] = await t.query('SELECT password_hash FROM users WHERE organization_id = $1', [account.id]);

  // The early form, posted now: the account is set up, nothing changes.
  await intruder.fill('#password', 'someone else entirely');
  await intruder.click('button[type=submit]');
  expect(await intruder.textContent('h1')).toBe('Account already set up');
  expect(await intruder.textContent('[data-testid=already-set-up]')).toBe(
    'Librairie Kiffa already has a password: this link does not change it. Sign in with your password.',
  );
  expect(await intruder.getAttribute('[data-testid=sign-in]', 'href')).toBe('/dashboard/login');
  expect(await intruder.locator('#password').count()).toBe(0);
  expect(await seriousViolations(intruder)).toEqual([]);
  await screenshot(intruder, 'platforms-onboarding-set-up');

  // A link made after onboarding says the same on arrival, in Arabic too, and no form is offered.
  const later = await onboardingLink(account.id);
  const visitor = await (await b.browser.newContext({ locale: 'en-GB' })).newPage();
  await visitor.goto(later);
  expect(await visitor.textContent('h1')).toBe('Account already set up');
  expect(await visitor.locator('form[action^="/dashboard/onboarding"]').count()).toBe(0);
  await visitor.goto(`${later}?lang=ar`);
  expect(await visitor.getAttribute('html', 'dir')).toBe('rtl');
  expect(await visitor.textContent('[data-testid=already-set-up]')).toContain('\u2068Librairie Kiffa\u2069');
  expect(await seriousViolations(visitor)).toEqual([]);
  await visitor.click('[data-testid=sign-in]');
  expect(new URL(visitor.url()).pathname).toBe('/dashboard/login');

  // Nothing changed: the owner's password, the links (still unused), and the owner's session.
  const [after] = await t.query('SELECT password_hash FROM users WHERE organization_id = $1', [account.id]);
  expect(after.password_hash).toBe(before.password_hash);
  const links = await t.query(
    'SELECT used_at IS NOT NULL AS used FROM onboarding_links WHERE organization_id = $1 ORDER BY created_at',
    [account.id],
  );
  expect(links.map((l) => l.used).sort()).toEqual([false, false, true]);
  await owner.goto(`${base}/dashboard`);
  expect(new URL(owner.url()).pathname).toBe('/dashboard');
  expect(await owner.textContent('[data-testid=organization]')).toBe('Librairie Kiffa');
  // The intruder's password signs nobody in; the owner's does.
  await visitor.goto(`${base}/dashboard/login`);
  await visitor.fill('#email', account.email);
  await visitor.fill('#password', 'someone else entirely');
  await visitor.click('button[type=submit]');
  expect(new URL(visitor.url()).pathname).toBe('/dashboard/login');
  await visitor.fill('#email', account.email);
  await visitor.fill('#password', 'the owner chose this');
  await Promise.all([visitor.waitForURL(`${base}/dashboard`), visitor.click('button[type=submit]')]);
  await ownerContext.close();
});

it("the platform's accounts and an account's payments: linked, axe-clean and no wider than 360 px, in English and Arabic", async () => {
  const account = await connectAccount(t, platform, 'Boutique Nour');
  const sk = platform.sandbox.secretKey;
  const pk = platform.sandbox.publishableKey;
  await t.http
    .post('/api/v1/payment-request')
    .set('Authorization', sk)
    .set('Khoums-Account', account.id)
    .send({
      transactionId: 'browser-account-payment',
      amount: 12500,
    });
  const methods = await t.http
    .get('/api/v1/payment-methods')
    .set('Authorization', pk)
    .set('Khoums-Account', account.id);
  const masrivi = methods.body.data.find((m: { type: string }) => m.type === 'masrivi');
  const paid = await t.http
    .post('/api/v1/payment')
    .set('Authorization', pk)
    .set('Khoums-Account', account.id)
    .send({ transactionId: 'browser-account-payment', phoneNumber: '33445566', configurationId: masrivi.id });
  expect(paid.body.data.status).toBe('completed');

  const context = await b.browser.newContext({ locale: 'en-GB', viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await page.goto(`${base}/dashboard/login`);
  await page.fill('#email', platform.email);
  await page.fill('#password', platform.password);
  await Promise.all([page.waitForURL(`${base}/dashboard`), page.click('button[type=submit]')]);

  const check = async (name: string) => {
    for (const width of [360, 1280]) {
      await page.setViewportSize({ width, height: width === 360 ? 780 : 900 });
      expect(await seriousViolations(page)).toEqual([]);
      const overflow = await page.evaluate<number>(
        'document.documentElement.scrollWidth - window.innerWidth',
      );
      expect(overflow).toBeLessThanOrEqual(0);
      await screenshot(page, `platforms-${name}-${width}`);
    }
  };
  await page.goto(`${base}/dashboard/accounts`);
  await check('accounts');
  await Promise.all([
    page.waitForURL(`${base}/dashboard/accounts/${account.id}/payments`),
    page.click(`[data-testid=account][data-id="${account.id}"] [data-testid=account-payments]`),
  ]);
  expect(await page.textContent('h1')).toBe('Payments of Boutique Nour');
  expect(await page.textContent('[data-testid=payments]')).toContain('browser-account-payment');
  await check('account-payments');
  await page.goto(`${base}/dashboard/accounts/${account.id}/payments?lang=ar`);
  expect(await page.getAttribute('html', 'dir')).toBe('rtl');
  await check('account-payments-ar');
  await context.close();
});
