import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { DASHBOARD_TEXTS } from '../../src/common/i18n/dashboard-texts';
import { formatMru, Language } from '../../src/common/i18n/languages';
import { newTenant, startTestApp, TestApp } from '../helpers/app';
import { formatCount } from '../../src/dashboard/format';
import {
  ARTIFACTS,
  launchBrowser,
  screenshot,
  TestBrowser,
  seriousViolations,
  brokenWords,
} from '../helpers/browser';
import { DASHBOARD_ENV } from '../helpers/dashboard';
import { paidRequest } from '../helpers/money';
import { approvedAccount } from '../helpers/payouts';

/*
 * The money pages in real Chromium, in French, Arabic and English, as an owner uses them: the
 * balance on the home page, a refund from the payment request's page, "pay out now", the payout
 * and the transactions it paid, the payout schedule, the settlement report and its CSV download.
 * Every page clean under axe-core (no serious or critical violation) at 360 and 1280 px, nothing
 * wider than a 360 px screen. `UPDATE_SCREENSHOTS=1` also writes the screenshots docs/dashboard.md
 * shows into docs/screenshots/.
 */
const DOCS_SCREENSHOTS = resolve(__dirname, '../../docs/screenshots');
/** The screenshots docs/dashboard.md shows (at 360 px), as `<lang>-<name>`. */
const FOR_DOCS = [
  'en-payment-request-refund',
  'en-payouts',
  'en-settlement',
  'ar-payout',
  'ar-payouts',
  'ar-settlement',
];
jest.setTimeout(300_000);

let t: TestApp;
let b: TestBrowser;
let base: string;

beforeAll(async () => {
  t = await startTestApp({ ...DASHBOARD_ENV, PAYOUT_DELAY_DAYS: '0', DEFAULT_FEE_BPS: '100' });
  const { port } = t.app.getHttpServer().address() as { port: number };
  base = `http://127.0.0.1:${port}`;
  b = await launchBrowser();
});
afterAll(async () => {
  await b?.close();
  await t?.close();
});

/** The page in `lang` (right to left in Arabic), clean under axe and no wider than the screen, at both widths. */
async function check(page: Page, lang: Language, name: string): Promise<void> {
  expect({
    name,
    lang: await page.getAttribute('html', 'lang'),
    dir: await page.getAttribute('html', 'dir'),
  }).toEqual({
    name,
    lang,
    dir: lang === 'ar' ? 'rtl' : 'ltr',
  });
  for (const width of [360, 1280]) {
    await page.setViewportSize({ width, height: width === 360 ? 780 : 900 });
    expect({ name, width, violations: await seriousViolations(page) }).toEqual({
      name,
      width,
      violations: [],
    });
    const overflow = await page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth');
    expect({ name, width, overflow: Math.max(overflow, 0) }).toEqual({ name, width, overflow: 0 });
    expect({ name, width, broken: await brokenWords(page) }).toEqual({ name, width, broken: [] });
    const file = `dashboard-${lang}-${name}-${width}`;
    await screenshot(page, file);
    if (process.env.UPDATE_SCREENSHOTS && width === 360 && FOR_DOCS.includes(`${lang}-${name}`)) {
      mkdirSync(DOCS_SCREENSHOTS, { recursive: true });
      copyFileSync(join(ARTIFACTS, `${file}.png`), join(DOCS_SCREENSHOTS, `${file}.png`));
    }
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

const text = async (page: Page, testId: string) =>
  (await page.textContent(`[data-testid=${testId}]`))?.trim();

describe.each(['fr', 'ar', 'en'] as const)('the money pages in %s', (lang) => {
  it('balance, refund, pay out now, the payout and its transactions, the schedule, the settlement report and its CSV', async () => {
    const tx = DASHBOARD_TEXTS[lang];
    const mru = (n: number) => formatMru(n, lang);
    const org = await newTenant(t, 'Boutique Money');
    await approvedAccount(t, org.organizationId);
    const sk = org.sandbox.secretKey;
    const sale = await paidRequest(t, sk, 12_000); // fee 120
    await paidRequest(t, sk, 3000); // fee 30

    const context = await b.browser.newContext({
      viewport: { width: 1280, height: 900 },
      acceptDownloads: true,
    });
    const page = await context.newPage();
    page.on('dialog', (dialog) => void dialog.accept());
    await page.goto(`${base}/dashboard/login?lang=${lang}`);
    await page.fill('#email', org.email);
    await page.fill('#password', org.password);
    await Promise.all([page.waitForURL(`${base}/dashboard`), page.click('button[type=submit]')]);

    // Home: the balance.
    expect(await text(page, 'balance-available')).toBe(mru(14_850));
    expect(await text(page, 'balance-pending')).toBe(mru(0));
    await check(page, lang, 'home-balance');

    // Refund part of the payment from its request's page.
    await page.goto(`${base}/dashboard/payment-requests/${sale.requestId}`);
    await page.fill('[data-testid=refund-form] input[name=amount]', '2000');
    await page.fill('[data-testid=refund-form] input[name=reason]', 'Colis abîmé');
    await Promise.all([page.waitForURL(/notice=refundCreated/), page.click('[data-testid=refund-submit]')]);
    expect(await text(page, 'notice')).toBe(tx.notices.refundCreated);
    expect(await text(page, 'refunded-amount')).toBe(mru(2000));
    expect(await text(page, 'left-to-refund')).toBe(mru(10_000));
    expect(await text(page, 'refund-status')).toBe(tx.refundStatus_succeeded);
    // More than is left: the API's rule, in the page's language.
    await page.fill('[data-testid=refund-form] input[name=amount]', '10001');
    await Promise.all([page.waitForLoadState('load'), page.click('[data-testid=refund-submit]')]);
    await page.waitForSelector('[data-testid=error]');
    expect(await text(page, 'error')).toBe(tx.apiRules.refund_amount_exceeds_left);
    await check(page, lang, 'payment-request-refund');

    // Pay out now, from the menu.
    await page.click(`nav.sidebar >> text=${tx.navPayouts}`);
    await page.waitForSelector('[data-testid=pay-now-form]');
    expect(await text(page, 'balance-available')).toBe(mru(12_850));
    await check(page, lang, 'payouts-empty');
    await Promise.all([
      page.waitForURL(/\/dashboard\/payouts\/[0-9a-f-]+\?notice=payoutCreated/),
      page.click('[data-testid=pay-now]'),
    ]);
    expect(await text(page, 'payout-amount')).toBe(mru(12_850));
    expect(await text(page, 'payout-status')).toBe(tx.payoutStatus_paid);
    // The two payments and the refund it paid, and its own payout transaction.
    expect(await page.locator('[data-testid=balance-transaction]').count()).toBe(4);
    await check(page, lang, 'payout');

    // The list, and "pay out now" again: nothing is left.
    await page.click(`nav.sidebar >> text=${tx.navPayouts}`);
    await page.waitForSelector('[data-testid=payout]');
    expect(await text(page, 'payout-amount')).toBe(mru(12_850));
    expect(await text(page, 'iban-last4')).toContain('6753');
    await Promise.all([page.waitForLoadState('load'), page.click('[data-testid=pay-now]')]);
    await page.waitForSelector('[data-testid=error]');
    expect(await text(page, 'error')).toBe(tx.apiRules.insufficient_available_balance);

    // The schedule: weekly on Friday, from 2,000 MRU.
    await page.check('input[name=interval][value=weekly]');
    await page.selectOption('#weekly-day', 'friday');
    await page.fill('#minimum-amount', '2000');
    await Promise.all([page.waitForURL(/notice=scheduleSaved/), page.click('[data-testid=schedule-save]')]);
    expect(await text(page, 'schedule-interval')).toBe(`${tx.payoutInterval_weekly} (${tx.weekday_friday})`);
    expect(await text(page, 'schedule-minimum')).toBe(mru(2000));
    await check(page, lang, 'payouts');

    // The settlement report, and its CSV.
    await page.click(`nav.sidebar >> text=${tx.navSettlement}`);
    await page.waitForSelector('[data-testid=settlement-row]');
    expect(await text(page, 'row-payments')).toBe(formatCount(2, lang));
    expect(await text(page, 'row-net')).toBe(mru(15_000 - 150 - 2000));
    await check(page, lang, 'settlement');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.click('[data-testid=download-csv]'),
    ]);
    const today = new Date().toISOString().slice(0, 10);
    expect(download.suggestedFilename()).toMatch(
      new RegExp(`^settlement-\\d{4}-\\d{2}-\\d{2}-${today}\\.csv$`),
    );
    const csv = readFileSync(await download.path(), 'utf8');
    expect(csv).toBe(
      `date,paymentMethod,payments,gross,fees,refunds,net\r\n${today},masrivi,2,15000,150,2000,12850\r\n`,
    );
    await context.close();
  });
});
