import { ONBOARDING_TEXTS } from '../../src/common/i18n/onboarding-texts';
import type { CreatedOrganization } from '../../src/organizations/organizations.service';
import { startTestApp, TestApp } from '../helpers/app';
import { DASHBOARD_ENV, DashboardBrowser } from '../helpers/dashboard';
import { connectAccount, ConnectedAccountJson, newPlatform } from '../helpers/platforms';

/*
 * Onboarding links and the account's password (docs/platforms.md "Hand the account over"): the
 * owner of a connected account has no password until a link sets one, and a link never replaces
 * it. The browser's view of it is test/platforms/onboarding.browser.e2e-spec.ts.
 */
let t: TestApp;
let platform: CreatedOrganization;
beforeAll(async () => {
  t = await startTestApp(DASHBOARD_ENV);
  platform = await newPlatform(t, 'Souk');
});
afterAll(() => t.close());

const en = ONBOARDING_TEXTS.en;

async function linkPath(account: ConnectedAccountJson): Promise<string> {
  const res = await t.http
    .post(`/api/v1/accounts/${account.id}/onboarding-link`)
    .set('Authorization', platform.sandbox.secretKey)
    .send({ returnUrl: 'https://souk.example/done', refreshUrl: 'https://souk.example/refresh' });
  expect(res.status).toBe(200);
  return new URL(res.body.data.url).pathname;
}

/** A browser showing the link's form (its CSRF token kept for the post). */
async function openForm(path: string): Promise<DashboardBrowser> {
  const browser = new DashboardBrowser(t);
  const page = await browser.get(path);
  expect(page.status).toBe(200);
  expect(page.text).toContain('name="password"');
  return browser;
}

const passwordHashOf = async (account: ConnectedAccountJson) =>
  (await t.query('SELECT password_hash FROM users WHERE organization_id = $1', [account.id]))[0]
    .password_hash as string | null;

it('the owner of a new connected account has no password: nothing signs in until a link sets one', async () => {
  const account = await connectAccount(t, platform);
  expect(await passwordHashOf(account)).toBeNull();
  const browser = new DashboardBrowser(t);
  await browser.get('/dashboard/login');
  for (const password of ['', 'null', 'a long enough password']) {
    const res = await browser.post('/dashboard/login', { email: account.email, password });
    expect(res.status).toBe(200);
    expect(res.text).toContain('Invalid email or password');
  }
  const path = await linkPath(account);
  const form = await openForm(path);
  const set = await form.post(path, { password: 'a long enough password' });
  expect({ status: set.status, location: set.headers.location }).toEqual({
    status: 303,
    location: '/dashboard/go-live',
  });
  await new DashboardBrowser(t).signIn(account.email, 'a long enough password');
});

it('a link for an account whose owner has a password: the page says it is set up, and posting it changes nothing', async () => {
  const account = await connectAccount(t, platform, 'Boutique Nour');
  const first = await linkPath(account);
  const second = await linkPath(account);
  const early = await openForm(second);
  const owner = await openForm(first);
  expect((await owner.post(first, { password: 'the owner chose this' })).status).toBe(303);
  const hash = await passwordHashOf(account);

  const shown = await new DashboardBrowser(t).get(second);
  expect(shown.status).toBe(200);
  expect(shown.text).toContain(en.setUpTitle);
  expect(shown.text).toContain('href="/dashboard/login"');
  expect(shown.text).not.toContain('name="password"');
  const posted = await early.post(second, { password: 'someone else entirely' });
  expect(posted.status).toBe(200);
  expect(posted.text).toContain('Boutique Nour already has a password: this link does not change it.');
  expect(posted.headers['set-cookie'] ?? []).not.toEqual(
    expect.arrayContaining([expect.stringMatching(/^khoums_session=/)]),
  );

  expect(await passwordHashOf(account)).toBe(hash);
  const [link] = await t.query(
    'SELECT used_at FROM onboarding_links WHERE organization_id = $1 AND used_at IS NULL',
    [account.id],
  );
  expect(link).toEqual({ used_at: null });
  // The owner's session is open, the owner's password signs in, the other does not.
  expect((await owner.get('/dashboard')).status).toBe(200);
  await new DashboardBrowser(t).signIn(account.email, 'the owner chose this');
  const intruder = new DashboardBrowser(t);
  await intruder.get('/dashboard/login');
  expect(
    (await intruder.post('/dashboard/login', { email: account.email, password: 'someone else entirely' }))
      .status,
  ).toBe(200);
});

it('two links of one account posted at once: one sets the password, the other changes nothing', async () => {
  for (let round = 0; round < 3; round += 1) {
    const account = await connectAccount(t, platform);
    const paths = [await linkPath(account), await linkPath(account)];
    const forms = await Promise.all(paths.map(openForm));
    const answers = await Promise.all(
      forms.map((f, i) => f.post(paths[i], { password: `password number ${i} of ${round}` })),
    );
    const outcomes = answers.map((a) => (a.status === 303 ? a.headers.location : String(a.status))).sort();
    expect(outcomes).toEqual(['/dashboard/go-live', '200']);
    const won = answers.findIndex((a) => a.status === 303);
    expect(answers[1 - won].text).toContain(en.setUpTitle);
    const used = await t.query(
      'SELECT count(*)::int AS n FROM onboarding_links WHERE organization_id = $1 AND used_at IS NOT NULL',
      [account.id],
    );
    expect(used[0].n).toBe(1);
    await new DashboardBrowser(t).signIn(account.email, `password number ${won} of ${round}`);
  }
});
