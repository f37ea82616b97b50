import { DASHBOARD_TEXTS } from '../../src/common/i18n/dashboard-texts';
import { OrganizationsService } from '../../src/organizations/organizations.service';
import { startTestApp, TestApp } from '../helpers/app';
import { billingData, csrfOf, DASHBOARD_ENV, DashboardBrowser } from '../helpers/dashboard';

/**
 * The dashboard in Arabic (docs/dashboard.md "Languages"): every page, signed in or not, error pages
 * included, answers in Arabic, right to left, when `?lang=ar` chooses it or when the browser prefers
 * Arabic; the choice holds across the dashboard's redirects.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp(DASHBOARD_ENV);
});
afterAll(() => t.close());

const ar = DASHBOARD_TEXTS.ar;
const ARABIC = /[\u0600-\u06ff]/;

/** The page is the Arabic one: the html element says so, and its title and first heading are Arabic. */
function expectArabic(path: string, res: { status: number; text: string }, status = 200): void {
  const title = /<title>([^<]*)<\/title>/.exec(res.text)?.[1] ?? '';
  const heading = /<h1[^>]*>([\s\S]*?)<\/h1>/.exec(res.text)?.[1] ?? '';
  expect({
    path,
    status: res.status,
    html: /<html [^>]*>/.exec(res.text)?.[0],
    title: ARABIC.test(title),
    heading: ARABIC.test(heading),
  }).toEqual({ path, status, html: '<html lang="ar" dir="rtl">', title: true, heading: true });
}

/** An organization with something on every page: a paid request, an endpoint and its deliveries, billing, an invitation. */
async function merchant(language: string) {
  const b = new DashboardBrowser(t, undefined, language);
  const org = await t.app.get(OrganizationsService).create({
    name: 'متجر نواكشوط',
    email: `ar-${Date.now()}-${Math.random().toString(36).slice(2)}@test.khoums`,
  });
  await b.signIn(org.email, org.password);
  const sk = org.sandbox.secretKey;
  const endpoint = (
    await t.http
      .post('/api/v1/webhook-endpoints')
      .set('Authorization', sk)
      .send({ url: 'http://127.0.0.1:9/hook' })
  ).body.data;
  const session = await t.http
    .post('/api/v1/checkout-session')
    .set('Authorization', sk)
    .send({ transactionId: 'طلب-42', amount: 4321, phoneNumber: '33445566' });
  const paymentRequestId = session.body.data.paymentRequestId as string;
  const methods = (await t.http.get('/api/v1/payment-methods').set('Authorization', sk)).body.data;
  const masrivi = methods.find((m: { type: string }) => m.type === 'masrivi');
  await t.http
    .post('/api/v1/payment')
    .set('Authorization', org.sandbox.publishableKey)
    .send({ transactionId: 'طلب-42', phoneNumber: '33445566', configurationId: masrivi.id });
  // Disabled, so that no delivery is attempted while the pages are read.
  await t.http
    .patch(`/api/v1/webhook-endpoints/${endpoint.id}`)
    .set('Authorization', sk)
    .send({ enabled: false });
  const [delivery] = await t.query('SELECT id FROM webhook_deliveries WHERE endpoint_id = $1 LIMIT 1', [
    endpoint.id,
  ]);
  const billing = await billingData(t, org);
  await b.get('/dashboard/team');
  const invited = await b.post('/dashboard/team/invitations', {
    email: `invited-${Date.now()}@test.khoums`,
    role: 'viewer',
  });
  const invitationLink = /data-testid="invitation-link">([^<]+)</.exec(invited.text)![1];
  const pages = [
    '/dashboard',
    '/dashboard/payment-requests',
    '/dashboard/payment-requests?q=33445566',
    `/dashboard/payment-requests/${paymentRequestId}`,
    '/dashboard/payments',
    '/dashboard/keys',
    '/dashboard/webhooks',
    `/dashboard/webhooks/${endpoint.id}`,
    '/dashboard/webhooks/deliveries',
    `/dashboard/webhooks/deliveries/${delivery.id}`,
    '/dashboard/payment-methods',
    '/dashboard/products',
    `/dashboard/products/${billing.productId}`,
    '/dashboard/customers',
    `/dashboard/customers/${billing.customerId}`,
    '/dashboard/subscriptions',
    `/dashboard/subscriptions/${billing.subscriptionId}`,
    '/dashboard/invoices',
    `/dashboard/invoices/${billing.invoiceId}`,
    '/dashboard/team',
    '/dashboard/account',
    '/dashboard/payouts',
    '/dashboard/reports/settlement',
  ];
  return { b, org, pages, paymentRequestId, billing, invitationPath: new URL(invitationLink).pathname };
}

const withLang = (path: string) => `${path}${path.includes('?') ? '&' : '?'}lang=ar`;

describe.each([
  ['?lang=ar', 'en-GB,en;q=0.9', withLang],
  ['Accept-Language: ar', 'ar-MR,ar;q=0.9,fr;q=0.5', (path: string) => path],
])('under %s', (_how, acceptLanguage, url) => {
  it('answers every signed-in page in Arabic, right to left, its menu in Arabic', async () => {
    const { b, pages } = await merchant(acceptLanguage);
    for (const path of pages) {
      const res = await b.get(url(path));
      expectArabic(path, res);
      expect({ path, menu: res.text.includes(`>${ar.navPaymentRequests}</a>`) }).toEqual({
        path,
        menu: true,
      });
    }
  });

  it('answers the error pages and the answer of a form in Arabic: not found, security check, a refused change', async () => {
    const { b, paymentRequestId, billing } = await merchant(acceptLanguage);
    for (const path of ['/dashboard/no-such-page', '/dashboard/payment-requests/not-an-id']) {
      const res = await b.get(url(path));
      expectArabic(path, res, 404);
      expect(res.text).toContain(ar.notFoundBody);
    }
    const forged = await b.post(url('/dashboard/keys'), { type: 'secret', _csrf: 'forged' });
    expectArabic('POST /dashboard/keys (forged token)', forged, 403);
    expect(forged.text).toContain(ar.securityBody);
    // A POST's answer page: the new key, in Arabic.
    await b.get(url(`/dashboard/payment-requests/${paymentRequestId}`));
    const created = await b.post(url('/dashboard/keys'), { type: 'secret', name: 'خادم المتجر' });
    expectArabic('POST /dashboard/keys', created);
    expect(created.text).toContain(ar.newKeyOnce);
    // A rule of the API an action broke (pausing a cancelled subscription): in Arabic too.
    const subscription = `/dashboard/subscriptions/${billing.subscriptionId}`;
    await b.get(url(subscription));
    expect((await b.post(url(`${subscription}/cancel`), { atPeriodEnd: 'false' })).status).toBe(303);
    const refused = await b.post(url(`${subscription}/pause`));
    expectArabic('POST pause (refused)', refused, 409);
    expect(refused.text).toContain(
      `<p data-testid="error-message">${ar.apiRules.subscription_cannot_be_paused}</p>`,
    );
  });

  it('answers the sign-in, sign-up and invitation pages in Arabic, and a wrong password in Arabic', async () => {
    const { invitationPath } = await merchant(acceptLanguage);
    const anonymous = new DashboardBrowser(t, undefined, acceptLanguage);
    for (const path of [
      '/dashboard/login',
      '/dashboard/signup',
      invitationPath,
      '/dashboard/invite/no-such-token',
    ])
      expectArabic(path, await anonymous.get(url(path)), path.endsWith('no-such-token') ? 404 : 200);
    await anonymous.get(url('/dashboard/login'));
    const wrong = await anonymous.post(url('/dashboard/login'), {
      email: 'nobody@test.khoums',
      password: 'not the password',
    });
    expectArabic('POST /dashboard/login', wrong);
    expect(wrong.text).toContain(ar.invalidCredentials);
  });
});

it('isolates amounts, ids and phone numbers from the Arabic text around them, and the values filled into a text', async () => {
  const { b, paymentRequestId } = await merchant('ar');
  const res = await b.get(`/dashboard/payment-requests/${paymentRequestId}`);
  expect(res.text).toContain('<dd><bdi>٤٬٣٢١ MRU</bdi></dd>');
  expect(res.text).toContain(`<dd class="mono"><bdi>${paymentRequestId}</bdi></dd>`);
  expect(res.text).toContain('<dd><bdi>33445566</bdi></dd>');
  expect(res.text).toContain('<h1>طلب الدفع \u2068طلب-42\u2069</h1>');
});

it('keeps the language chosen with ?lang= across the redirects: to the sign-in page, after signing in, after a form', async () => {
  const { org } = await merchant('en');
  // A browser that prefers English follows a link in Arabic to a page that needs signing in.
  const b = new DashboardBrowser(t, undefined, 'en-GB,en;q=0.9');
  const first = await b.get('/dashboard/payments?lang=ar');
  expect({ status: first.status, location: first.headers.location }).toEqual({
    status: 303,
    location: '/dashboard/login',
  });
  expectArabic('/dashboard/login after the redirect', await b.get('/dashboard/login'));
  const signedIn = await b.post('/dashboard/login', { email: org.email, password: org.password });
  expect({ status: signedIn.status, location: signedIn.headers.location }).toEqual({
    status: 303,
    location: '/dashboard',
  });
  expectArabic('/dashboard after signing in', await b.get('/dashboard'));
  const switched = await b.post('/dashboard/environment', {
    environment: 'production',
    return: '/dashboard/keys',
  });
  expect(switched.status).toBe(303);
  const keys = await b.get(switched.headers.location);
  expectArabic('/dashboard/keys after switching environment', keys);
  expect(keys.text).toContain(`>${ar.production}</strong>`);
  // The language links keep the page and its query, and switch back.
  expect(keys.text).toContain('href="/dashboard/keys?lang&#x3D;fr"');
  const french = await b.get('/dashboard/keys?lang=fr');
  expect(french.text).toContain('<html lang="fr" dir="ltr">');
  expect((await b.get('/dashboard/keys')).text).toContain('<html lang="fr" dir="ltr">');
  expect(csrfOf(french.text)).toBeTruthy();
});
