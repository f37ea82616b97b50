import type { Page } from 'playwright-core';
import { TestClockAdvance } from '../../src/billing/test-clock-advance';
import { DASHBOARD_TEXTS } from '../../src/common/i18n/dashboard-texts';
import type { Language } from '../../src/common/i18n/languages';
import { formatTime } from '../../src/dashboard/format';
import { newTenant, startTestApp } from '../helpers/app';
import { createPrice, createProduct, invoicesOf, uniqueId } from '../helpers/billing';
import { expectPageFits, phoneContext, useBrowserFixture } from '../helpers/browser';
import { DASHBOARD_ENV } from '../helpers/dashboard';

/*
 * The dashboard's Sandbox test clocks in Chromium at 360 px, in French, Arabic and English: create a
 * clock from the form, add a customer on it (the customer's page links to it, the clock's page lists
 * the customer), a subscription through the API, advance with the date and time picker (a refusal
 * in the form first), the page saying it is advancing until it is ready, then delete the clock; in
 * Production the page says test clocks are Sandbox's. Every page axe-clean, no wider than the
 * screen, no word broken; in Arabic right to left with the dates and ids isolated. The advance job
 * is off in this app: the test does its work when the page says advancing.
 */
jest.setTimeout(300_000);

const fx = useBrowserFixture(async () => {
  const app = await startTestApp(DASHBOARD_ENV);
  const { port } = app.app.getHttpServer().address() as { port: number };
  return { app, base: `http://127.0.0.1:${port}` };
});

const check = (page: Page, lang: Language, name: string) =>
  expectPageFits(page, lang, name, `dashboard-${lang}-${name}-360`);

const text = async (page: Page, selector: string) =>
  ((await page.textContent(selector)) ?? '').replace(/\s+/g, ' ').trim();

/** Whether the element's text is set apart from the text around it (a `<bdi>`, or inside one). */
const isolated = (page: Page, selector: string) => page.$eval(selector, (el) => el.closest('bdi') !== null);

describe.each(['fr', 'ar', 'en'] as const)('test clocks in the dashboard, in %s', (lang) => {
  const tx = DASHBOARD_TEXTS[lang];

  it('creates a clock, puts a customer on it, advances it with the picker (refusal first), and deletes it', async () => {
    const { t, b, base } = fx;
    const org = await newTenant(t, 'Boutique Ksar');
    const sk = org.sandbox.secretKey;
    const context = await phoneContext(b, lang);
    const page = await context.newPage();
    page.on('dialog', (dialog) => void dialog.accept());
    await page.goto(`${base}/dashboard/login?lang=${lang}`);
    await page.fill('#email', org.email);
    await page.fill('#password', org.password);
    await Promise.all([page.waitForURL(`${base}/dashboard`), page.click('button[type=submit]')]);

    // The menu's entry, in Sandbox.
    await Promise.all([
      page.waitForURL(`${base}/dashboard/test-clocks`),
      page.click(`nav.sidebar a[href="/dashboard/test-clocks"]`),
    ]);
    expect(await text(page, 'h1')).toBe(tx.testClocksTitle);
    expect(await page.locator('[data-testid=no-results]').count()).toBe(1);
    await check(page, lang, 'test-clocks-empty');

    await page.fill('#clock-name', 'Renouvellements mensuels');
    await page.fill('#clock-start', '2025-01-31T10:00');
    await Promise.all([
      page.waitForURL(/\/dashboard\/test-clocks\/[0-9a-f-]{36}\?notice=testClockCreated/),
      page.click('[data-testid=create-clock]'),
    ]);
    const clockId = /test-clocks\/([0-9a-f-]{36})/.exec(page.url())![1];
    expect(await text(page, '[data-testid=notice]')).toBe(tx.notices.testClockCreated);
    expect(await page.getAttribute('[data-testid=clock-status]', 'data-status')).toBe('ready');
    expect(await text(page, '[data-testid=clock-time]')).toBe(
      formatTime(new Date('2025-01-31T10:00:00Z'), lang),
    );
    expect(await isolated(page, '[data-testid=clock-time]')).toBe(true);
    expect(await page.inputValue('#advance-to')).toBe('2025-02-28T10:00');
    await check(page, lang, 'test-clock-new');

    // A customer on the clock, from the customers' form.
    await page.goto(`${base}/dashboard/customers`);
    const externalUserId = uniqueId('client');
    await page.fill('#externalUserId', externalUserId);
    await page.fill('#customer-phone', '22123456');
    expect(await page.inputValue('#customer-clock')).toBe('');
    await page.selectOption('#customer-clock', clockId);
    await check(page, lang, 'customers-clock-select');
    await Promise.all([
      page.waitForURL(/\/dashboard\/customers\/[0-9a-f-]{36}\?notice=customerCreated/),
      page.click('[data-testid=create-customer]'),
    ]);
    const customerId = /customers\/([0-9a-f-]{36})/.exec(page.url())![1];
    expect(await text(page, '[data-testid=customer-clock] a')).toBe('Renouvellements mensuels');
    await check(page, lang, 'customer-on-clock');
    await Promise.all([
      page.waitForURL(`${base}/dashboard/test-clocks/${clockId}`),
      page.click('[data-testid=customer-clock] a'),
    ]);
    expect(
      await page
        .locator('[data-testid=clock-customer]')
        .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-id'))),
    ).toEqual([customerId]);

    const product = await createProduct(t, sk);
    const price = await createPrice(t, sk, product.id);
    const sub = await t.http
      .post('/api/v1/subscriptions')
      .set('Authorization', sk)
      .send({ customerId, priceId: price.id });
    expect(sub.status).toBe(200);

    // Backwards: the API's rule, in the form, in the page's language.
    await page.fill('#advance-to', '2025-01-01T00:00');
    await Promise.all([
      page.waitForURL(`${base}/dashboard/test-clocks/${clockId}/advance`),
      page.click('[data-testid=advance-clock]'),
    ]);
    expect(await text(page, '[data-testid=error]')).toBe(tx.apiRules.test_clock_forward_only);
    expect(await page.getAttribute('#advance-to', 'aria-invalid')).toBe('true');
    await check(page, lang, 'test-clock-advance-refused');

    await page.fill('#advance-to', '2025-04-30T10:00');
    await Promise.all([
      page.waitForURL(/\?notice=testClockAdvancing/),
      page.click('[data-testid=advance-clock]'),
    ]);
    expect(await text(page, '[data-testid=notice]')).toBe(tx.notices.testClockAdvancing);
    expect(await page.getAttribute('[data-testid=clock-status]', 'data-status')).toBe('advancing');
    expect(await page.locator('[data-testid=clock-advancing]').count()).toBe(1);
    expect(await page.locator('[data-testid=advance-clock]').count()).toBe(0);
    await check(page, lang, 'test-clock-advancing');

    await t.app.get(TestClockAdvance).run();
    await Promise.all([
      page.waitForURL(`${base}/dashboard/test-clocks/${clockId}`),
      page.click('[data-testid=reload]'),
    ]);
    expect(await page.getAttribute('[data-testid=clock-status]', 'data-status')).toBe('ready');
    expect(await page.locator('[data-testid=clock-advancing]').count()).toBe(0);
    expect(await page.inputValue('#advance-to')).toBe('2025-05-30T10:00');
    await check(page, lang, 'test-clock-ready');
    // Billed as of each month of the clock: the first period and three more.
    expect(await invoicesOf(t, sk, sub.body.data.id)).toHaveLength(4);

    await Promise.all([
      page.waitForURL(/\/dashboard\/test-clocks\?notice=testClockDeleted/),
      page.click('[data-testid=delete-clock]'),
    ]);
    expect(await text(page, '[data-testid=notice]')).toBe(tx.notices.testClockDeleted);
    expect(await page.locator('[data-testid=no-results]').count()).toBe(1);
    expect((await t.http.get(`/api/v1/test-clocks/${clockId}`).set('Authorization', sk)).status).toBe(404);

    // Production: no entry in the menu, and the page says why.
    await Promise.all([page.waitForURL(`${base}/dashboard`), page.click('[data-testid=env-production]')]);
    expect(await page.locator('nav.sidebar a[href="/dashboard/test-clocks"]').count()).toBe(0);
    const res = await page.goto(`${base}/dashboard/test-clocks`);
    expect(res!.status()).toBe(404);
    expect(await text(page, '[data-testid=error-title]')).toBe(tx.testClocksSandboxOnlyTitle);
    await check(page, lang, 'test-clocks-production');
    await context.close();
  });
});
