import { copyFileSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { OrganizationsService } from '../../src/organizations/organizations.service';
import { startTestApp, TestApp } from '../helpers/app';
import { ARTIFACTS, launchBrowser, TestBrowser, seriousViolations, brokenWords } from '../helpers/browser';
import { billingData, DASHBOARD_ENV } from '../helpers/dashboard';

/*
 * The dashboard in Arabic in real Chromium: every main page right to left, clean under axe-core
 * (no serious or critical violation) at 360 and 1280 px, nothing wider than a 360 px screen, the
 * menu on the right, amounts and ids kept left to right. `UPDATE_SCREENSHOTS=1` also writes the
 * screenshots docs/dashboard.md shows into docs/screenshots/ (a normal run leaves the tree as it was).
 */
const DOCS_SCREENSHOTS = resolve(__dirname, '../../docs/screenshots');
/** The pages docs/dashboard.md shows in Arabic, by the name `visit` gives them. */
const FOR_DOCS = ['home', 'payment-requests', 'keys', 'payment-request'];
// Each test checks five pages or so at two widths with axe: minutes on a loaded 2-core machine.
jest.setTimeout(180_000);

let t: TestApp;
let b: TestBrowser;
let base: string;

beforeAll(async () => {
  t = await startTestApp(DASHBOARD_ENV);
  const { port } = t.app.getHttpServer().address() as { port: number };
  base = `http://127.0.0.1:${port}`;
  b = await launchBrowser();
});
afterAll(async () => {
  await b?.close();
  await t?.close();
});

/** Opens `path`, checks it in Arabic at both widths and saves it at both. */
async function visit(page: Page, path: string, name: string): Promise<void> {
  await page.goto(`${base}${path}`);
  expect({
    name,
    lang: await page.getAttribute('html', 'lang'),
    dir: await page.getAttribute('html', 'dir'),
  }).toEqual({ name, lang: 'ar', dir: 'rtl' });
  for (const width of [360, 1280]) {
    await page.setViewportSize({ width, height: width === 360 ? 780 : 900 });
    expect({ name, width, violations: await seriousViolations(page) }).toEqual({
      name,
      width,
      violations: [],
    });
    // Nothing wider than the screen, on either side: usable at 360 px without sideways scrolling.
    const overflow = await page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth');
    expect({ name, width, overflow: overflow <= 0 }).toEqual({ name, width, overflow: true });
    expect({ name, width, broken: await brokenWords(page) }).toEqual({ name, width, broken: [] });
    mkdirSync(ARTIFACTS, { recursive: true });
    const file = `dashboard-ar-${name}-${width}.png`;
    await page.screenshot({ path: join(ARTIFACTS, file), fullPage: width === 360 });
    if (process.env.UPDATE_SCREENSHOTS && FOR_DOCS.includes(name)) {
      mkdirSync(DOCS_SCREENSHOTS, { recursive: true });
      copyFileSync(join(ARTIFACTS, file), join(DOCS_SCREENSHOTS, file));
    }
  }
}

let page: Page;
let ids: {
  email: string;
  password: string;
  requestId: string;
  productId: string;
  subscriptionId: string;
  invoiceId: string;
  transferId: string;
};

/** A shop with a few payment requests (one with an Arabic transactionId), an endpoint and a subscription, and a browser that prefers Arabic. */
beforeAll(async () => {
  const org = await t.app
    .get(OrganizationsService)
    .create({ name: 'متجر الميناء', email: 'mariem@matjar-elmina.mr' });
  const sk = org.sandbox.secretKey;
  const orders = ['طلب-1001', 'order-1002', 'order-1003', 'order-1004'];
  for (const [i, transactionId] of orders.entries()) {
    const created = await t.http
      .post('/api/v1/payment-request')
      .set('Authorization', sk)
      .send({ transactionId, amount: 1500 + i * 2750, phoneNumber: `2212345${i}` });
    expect(created.status).toBe(200);
  }
  const [request] = await t.query<{ id: string }>(
    'SELECT id FROM payment_requests WHERE environment_id = $1 AND transaction_id = $2',
    [org.sandbox.environmentId, 'طلب-1001'],
  );
  await t.http
    .post('/api/v1/webhook-endpoints')
    .set('Authorization', sk)
    .send({ url: 'https://example.com/khoums/webhooks' });
  const billing = await billingData(t, org);
  // The transfer method on, and a transfer nothing matches waiting in the inbox.
  await t.http
    .put('/api/v1/configuration/gimtel')
    .set('Authorization', sk)
    .send({ enabled: true })
    .expect(200);
  const transfer = await t.http
    .post('/api/v1/sandbox/transfers')
    .set('Authorization', sk)
    .send({ payerPhone: '36123456', amount: 4250, payerApp: 'click', memo: 'طلب 1001' });
  expect(transfer.status).toBe(200);
  ids = {
    email: org.email,
    password: org.password,
    requestId: request.id,
    transferId: transfer.body.data.id,
    ...billing,
  };
  const context = await b.browser.newContext({ locale: 'ar', viewport: { width: 1280, height: 900 } });
  page = await context.newPage();
});

it('shows the sign-in and sign-up pages in Arabic to a browser that prefers it, then signs in', async () => {
  await visit(page, '/dashboard/login', 'login');
  await visit(page, '/dashboard/signup', 'signup');
  await page.goto(`${base}/dashboard/login`);
  await page.fill('#email', ids.email);
  await page.fill('#password', ids.password);
  await Promise.all([page.waitForURL(`${base}/dashboard`), page.click('button[type=submit]')]);
});

it('shows the overview, the payment requests, a request and the payments, the menu on the right and amounts left to right', async () => {
  await visit(page, '/dashboard', 'home');
  await page.setViewportSize({ width: 1280, height: 900 });
  const menu = (await page.locator('nav.sidebar').boundingBox())!;
  const main = (await page.locator('main').boundingBox())!;
  expect(menu.x).toBeGreaterThan(main.x);
  await visit(page, '/dashboard/payment-requests', 'payment-requests');
  const amountDirection = `getComputedStyle(document.querySelector('[data-testid=payment-request] td.num bdi')).direction`;
  expect(await page.evaluate<string>(amountDirection)).toBe('ltr');
  await visit(page, `/dashboard/payment-requests/${ids.requestId}`, 'payment-request');
  expect(await page.textContent('h1')).toBe('طلب الدفع \u2068طلب-1001\u2069');
  await visit(page, '/dashboard/payments', 'payments');
});

it('shows the keys (a new key left to right), the webhooks and their log, the payment methods', async () => {
  await page.goto(`${base}/dashboard/keys`);
  await page.fill('#key-name', 'خادم المتجر');
  await page.click('[data-testid=create-key]');
  expect((await page.textContent('[data-testid=new-key]'))!.trim()).toMatch(/^sk_test_/);
  const keyDirection = `getComputedStyle(document.querySelector('[data-testid=new-key]')).direction`;
  expect(await page.evaluate<string>(keyDirection)).toBe('ltr');
  await visit(page, '/dashboard/keys', 'keys');
  await visit(page, '/dashboard/webhooks', 'webhooks');
  await visit(page, '/dashboard/webhooks/deliveries', 'deliveries');
  await visit(page, '/dashboard/payment-methods', 'payment-methods');
});

it('shows the transfers inbox and an unmatched transfer with its assign and return forms', async () => {
  await visit(page, '/dashboard/transfers', 'transfers');
  await visit(page, `/dashboard/transfers/${ids.transferId}`, 'transfer');
});

it('shows the billing pages: products, customers, subscriptions, invoices', async () => {
  await visit(page, `/dashboard/products/${ids.productId}`, 'product');
  await visit(page, '/dashboard/customers', 'customers');
  await visit(page, `/dashboard/subscriptions/${ids.subscriptionId}`, 'subscription');
  await visit(page, '/dashboard/invoices', 'invoices');
  await visit(page, `/dashboard/invoices/${ids.invoiceId}`, 'invoice');
});

it('shows the team, the account and the not-found page', async () => {
  await visit(page, '/dashboard/team', 'team');
  await visit(page, '/dashboard/account', 'account');
  await visit(page, '/dashboard/no-such-page', 'not-found');
});
