import type { Page } from 'playwright-core';
import { newTenant, startTestApp, TestApp } from '../helpers/app';
import {
  createCustomer,
  createPrice,
  createProduct,
  createSubscription,
  invoicesOf,
} from '../helpers/billing';
import { launchBrowser, screenshot, TestBrowser, seriousViolations, brokenWords } from '../helpers/browser';

/*
 * A customer uses the portal in real Chromium at 360 px, in French, Arabic and English: signs in
 * with their phone and the code Sandbox shows, sees their subscription and invoice, pays the
 * pending invoice on its page (Sandbox bank simulator), and cancels at period end. Each page is
 * checked with axe-core (no serious or critical violation), holds no script and fits the screen.
 * Screenshots go to test-artifacts/.
 */
const WAIT = { timeout: 15_000 };
let t: TestApp;
let b: TestBrowser;
let base: string;
beforeAll(async () => {
  t = await startTestApp();
  const { port } = t.app.getHttpServer().address() as { port: number };
  base = `http://127.0.0.1:${port}`;
  b = await launchBrowser();
});
afterAll(async () => {
  await b?.close();
  await t?.close();
});

/** A portal page: accessible, scriptless, no wider than the 360 px screen; saved. */
async function check(page: Page, name: string): Promise<void> {
  expect(await page.locator('script').count()).toBe(0);
  expect(await seriousViolations(page)).toEqual([]);
  expect(
    await page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth'),
  ).toBeLessThanOrEqual(0);
  expect({ name, broken: await brokenWords(page) }).toEqual({ name, broken: [] });
  await screenshot(page, `portal-${name}`);
}

const LANGUAGES = [
  { lang: 'fr', locale: 'fr-FR', dir: 'ltr', phone: '22450001' },
  { lang: 'ar', locale: 'ar', dir: 'rtl', phone: '22450002' },
  { lang: 'en', locale: 'en-GB', dir: 'ltr', phone: '22450003' },
] as const;

describe.each(LANGUAGES)('the customer portal in $lang at 360 px', ({ lang, locale, dir, phone }) => {
  it('signs in by phone and code, lists the subscription and invoice, pays the invoice and cancels at period end', async () => {
    const org = await newTenant(t, 'Salle Nouadhibou Fitness');
    const sk = org.sandbox.secretKey;
    const product = await createProduct(t, sk, { name: 'Abonnement mensuel' });
    const price = await createPrice(t, sk, product.id, { amount: 2500 });
    const customer = await createCustomer(t, sk, { phone });
    const subscription = await createSubscription(t, sk, { customerId: customer.id, priceId: price.id });
    const [invoice] = await invoicesOf(t, sk, subscription.id);
    const sedad = (
      (await t.http.get('/api/v1/payment-methods').set('Authorization', sk)).body.data as {
        type: string;
        id: string;
      }[]
    ).find((m) => m.type === 'sedad')!.id;

    const context = await b.browser.newContext({ locale, viewport: { width: 360, height: 740 } });
    const page = await context.newPage();
    // The language comes from the browser (Accept-Language); Sandbox by the address.
    await page.goto(`${base}/portal/${org.organizationId}?environment=sandbox`);
    expect(await page.getAttribute('html', 'lang')).toBe(lang);
    expect(await page.getAttribute('html', 'dir')).toBe(dir);
    expect(await page.textContent('[data-testid=merchant]')).toBe('Salle Nouadhibou Fitness');
    await check(page, `phone-${lang}`);

    await page.fill('#phone', phone);
    await page.click('button.pay');
    const code = await page.getAttribute('[data-testid=sandbox-code]', 'data-code', WAIT);
    expect(code).toMatch(/^\d{6}$/);
    await check(page, `code-${lang}`);
    // A wrong code first: the form says so.
    await page.fill('#code', code === '000000' ? '111111' : '000000');
    await page.click('button.pay');
    await page.waitForSelector('[data-testid=error]', WAIT);
    await page.fill('#code', code!);
    await page.click('button.pay');

    await page.waitForSelector('[data-testid=subscriptions]', WAIT);
    expect(page.url()).toBe(`${base}/portal/${org.organizationId}`);
    expect(await page.getAttribute('[data-testid=subscription]', 'data-id')).toBe(subscription.id);
    expect(await page.getAttribute('[data-testid=invoice]', 'data-id')).toBe(invoice.id);
    expect(await page.getAttribute('[data-testid=invoice]', 'data-status')).toBe('pending');
    await check(page, `overview-${lang}`);

    // The pending invoice's page pays it (the Sandbox bank completes Sedad at once).
    await page.click('[data-testid=invoice] a.button');
    await page.waitForSelector('[data-state=pending]', WAIT);
    expect(new URL(page.url()).pathname).toBe(`/checkout/invoices/${invoice.id}`);
    expect(await page.getAttribute('html', 'lang')).toBe(lang);
    await page.check(`input[name=paymentMethodId][value="${sedad}"]`);
    await page.click('button.pay');
    await page.waitForSelector('[data-state=paid]', WAIT);
    await page.goto(`${base}/portal/${org.organizationId}`);
    expect(await page.getAttribute('[data-testid=invoice]', 'data-status')).toBe('paid');
    expect(await page.locator('[data-testid=invoice] a.button').count()).toBe(0);

    // Cancel at period end.
    await page.click('[data-testid=subscription] button.secondary');
    await page.waitForSelector('[data-testid=message]', WAIT);
    expect(await page.getAttribute('[data-testid=subscription]', 'data-status')).toBe('pending_cancellation');
    expect(await page.locator('[data-testid=subscription] button.secondary').count()).toBe(0);
    await check(page, `cancelled-${lang}`);
    const api = await t.http.get(`/api/v1/subscriptions/${subscription.id}`).set('Authorization', sk);
    expect(api.body.data.status).toBe('pending_cancellation');
    await context.close();
  });
});
