import type { Page } from 'playwright-core';
import { DASHBOARD_TEXTS } from '../../src/common/i18n/dashboard-texts';
import { newTenant, startTestApp, TestApp } from '../helpers/app';
import { launchBrowser, screenshot, TestBrowser, seriousViolations, brokenWords } from '../helpers/browser';
import { billingData, DASHBOARD_ENV } from '../helpers/dashboard';

/*
 * The invoice page's manual payment form in real Chromium, in English and Arabic: clean under
 * axe-core (no serious or critical violation) at 360 and 1280 px, with and without the API's
 * refusal shown, nothing wider than a 360 px screen; a payment recorded through it is listed.
 */
jest.setTimeout(120_000);

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

/** axe and no sideways scrolling at both widths; a screenshot of each. */
async function check(page: Page, name: string): Promise<void> {
  for (const width of [360, 1280]) {
    await page.setViewportSize({ width, height: width === 360 ? 780 : 900 });
    expect({ name, width, violations: await seriousViolations(page) }).toEqual({
      name,
      width,
      violations: [],
    });
    const overflow = await page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth');
    expect({ name, width, overflow: overflow <= 0 }).toEqual({ name, width, overflow: true });
    expect({ name, width, broken: await brokenWords(page) }).toEqual({ name, width, broken: [] });
    await screenshot(page, `dashboard-${name}-${width}`);
  }
}

it.each([
  ['en', 'en-GB', 'Record the payment'],
  ['ar', 'ar', 'تسجيل الدفعة'],
])('records a payment by hand on the invoice page (%s)', async (lang, locale, button) => {
  const org = await newTenant(t);
  const { invoiceId } = await billingData(t, org);
  const context = await b.browser.newContext({ locale, viewport: { width: 360, height: 780 } });
  const page = await context.newPage();
  await page.goto(`${base}/dashboard/login`);
  await page.fill('#email', org.email);
  await page.fill('#password', org.password);
  await Promise.all([page.waitForURL(`${base}/dashboard`), page.click('button[type=submit]')]);

  await page.goto(`${base}/dashboard/invoices/${invoiceId}`);
  expect(await page.getAttribute('html', 'lang')).toBe(lang);
  await check(page, `invoice-manual-payment-${lang}`);

  // More than is due: the API's message, the form kept.
  await page.fill('#mp-amount', '2000');
  await Promise.all([page.waitForLoadState('load'), page.click(`button:has-text("${button}")`)]);
  expect(await page.textContent('[data-testid=payment-refused]')).toBe(
    DASHBOARD_TEXTS[lang as 'en' | 'ar'].apiRules.amount_exceeds_due,
  );
  expect(await page.inputValue('#mp-amount')).toBe('2000');
  await check(page, `invoice-manual-payment-refused-${lang}`);

  await page.fill('#mp-amount', '600');
  await page.selectOption('#mp-method', 'cheque');
  await page.fill('#mp-reference', 'CHQ-0042');
  await page.fill('#mp-paid-at', '2026-11-20T10:15');
  await Promise.all([
    page.waitForURL(/notice=manualPaymentRecorded/),
    page.click(`button:has-text("${button}")`),
  ]);
  expect(await page.textContent('[data-testid=amount-paid]')).toBe('600.00');
  expect(await page.textContent('[data-testid=amount-due]')).toBe('900.00');
  expect(await page.locator('[data-testid=manual-payment]').count()).toBe(1);
  expect(await page.textContent('[data-testid=manual-payment]')).toContain('CHQ-0042');
  await check(page, `invoice-manual-payment-recorded-${lang}`);
  await context.close();
});
