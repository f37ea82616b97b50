import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { freePort } from '../../src/common/net';
import type { Language } from '../../src/common/i18n/languages';
import { LINK_TEXTS } from '../../src/common/i18n/link-texts';
import { newTenant, startTestApp } from '../helpers/app';
import { ARTIFACTS, expectPageFits, phoneContext, useBrowserFixture } from '../helpers/browser';
import { createLink } from '../helpers/payment-links';

/*
 * A customer pays through a payment link in real Chromium at 360 px (docs/payment-links.md): the
 * link's page, the hosted page, the merchant's message; in French with a fixed amount and without
 * JavaScript, in Arabic (right to left) with an amount the customer types; and the 410 of a link
 * paid its maximum number of times. Every page axe-clean and no wider than the screen; the link's
 * page and all it loads under 60 KB. PUBLIC_URL is this server's own address, so the hosted page's
 * redirects land back here. `UPDATE_SCREENSHOTS=1` writes docs/payment-links.md's screenshots.
 */
jest.setTimeout(300_000);

const DOCS_SCREENSHOTS = resolve(__dirname, '../../docs/screenshots');
let sk: string;
const fx = useBrowserFixture(async () => {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const app = await startTestApp({ PUBLIC_URL: base, PORT: String(port) });
  sk = (await newTenant(app, 'Épicerie Sebkha')).sandbox.secretKey;
  return { app, base };
});

const context = (lang: Language, javaScriptEnabled = true): Promise<BrowserContext> =>
  phoneContext(fx.b, lang, javaScriptEnabled);

/** The page in `lang`, axe-clean and no wider than 360 px; a screenshot in test-artifacts/. */
const check = (page: Page, lang: Language, name: string) =>
  expectPageFits(page, lang, name, `payment-link-${name}`);

/** Bytes of every response the page's load received (the document, its icon, anything else). */
async function loadWeight(page: Page, url: string): Promise<{ bytes: number; urls: string[] }> {
  const responses: Promise<{ url: string; bytes: number }>[] = [];
  const listener = (res: import('playwright-core').Response) =>
    responses.push(
      res
        .body()
        .then((body) => ({ url: res.url(), bytes: body.length + JSON.stringify(res.headers()).length })),
    );
  page.on('response', listener);
  await page.goto(url, { waitUntil: 'networkidle' });
  page.off('response', listener);
  const all = await Promise.all(responses);
  return { bytes: all.reduce((sum, r) => sum + r.bytes, 0), urls: all.map((r) => r.url) };
}

/** On the hosted page: the first method that needs no pass code (Masrivi), then pay. */
async function payOnHostedPage(page: Page): Promise<void> {
  await page.waitForURL(/\/checkout\/[0-9a-f-]{36}/);
  await page.check('input[name=paymentMethodId][data-pass-code=false]');
  await Promise.all([page.waitForURL(/\/l\/\w{10}\/paid\?/), page.click('button.pay')]);
}

it('pays a fixed amount in French at 360 px, without JavaScript, and shows the merchant message', async () => {
  const link = await createLink(fx.t, sk, {
    name: 'Thiéboudienne pour 4',
    description: 'Livrée à Tevragh Zeina avant 13 h',
    amount: 1500,
    successMessage: 'Merci ! Votre plat part dans l’heure.',
  });
  const ctx = await context('fr', false);
  const page = await ctx.newPage();
  const weight = await loadWeight(page, link.url);
  expect(weight.bytes).toBeLessThan(60 * 1024);
  expect(weight.urls.every((u) => u.startsWith(fx.base))).toBe(true);
  expect(await page.textContent('[data-testid=merchant]')).toBe('Épicerie Sebkha');
  expect(await page.textContent('[data-testid=link-name]')).toBe('Thiéboudienne pour 4');
  expect((await page.textContent('[data-testid=amount]'))!.replace(/\s/g, ' ')).toBe('1 500 MRU');
  expect(await page.locator('[data-testid=method]').count()).toBe(3);

  // A wrong phone: the form again, with the error.
  await page.fill('#phoneNumber', '1234');
  await page.click('[data-testid=continue]');
  expect(await page.textContent('[data-testid=error]')).toBe(LINK_TEXTS.fr.invalidPhone);

  await page.fill('#phoneNumber', '22 12 34 56');
  await page.click('[data-testid=continue]');
  await page.waitForURL(/\/checkout\/[0-9a-f-]{36}\?lang=fr/);
  expect(await page.getAttribute('html', 'lang')).toBe('fr');
  // The phone typed on the link's page is the session's: shown masked, the field left empty pays from it.
  expect(await page.inputValue('#phoneNumber')).toBe('');
  expect(await page.textContent('body')).toContain('••••••56');
  await payOnHostedPage(page);
  expect(await page.textContent('[data-testid=success-message]')).toBe(
    'Merci ! Votre plat part dans l’heure.',
  );
  const paidUrl = page.url();
  await ctx.close();

  // The same pages under axe (which needs a script of its own to run).
  const checked = await context('fr');
  const again = await checked.newPage();
  await again.goto(link.url);
  await check(again, 'fr', 'fr-fixed');
  if (process.env.UPDATE_SCREENSHOTS) {
    mkdirSync(DOCS_SCREENSHOTS, { recursive: true });
    copyFileSync(join(ARTIFACTS, 'payment-link-fr-fixed.png'), join(DOCS_SCREENSHOTS, 'payment-link-fr.png'));
  }
  await again.fill('#phoneNumber', '1234');
  await again.click('[data-testid=continue]');
  await again.waitForSelector('[data-testid=error]');
  await check(again, 'fr', 'fr-error');
  await again.goto(paidUrl);
  await check(again, 'fr', 'fr-paid');
  await checked.close();
});

it('pays an amount the customer types, in Arabic (right to left) at 360 px', async () => {
  const link = await createLink(fx.t, sk, {
    name: 'تبرع للمسجد',
    amount: undefined,
    minAmount: 100,
    maxAmount: 100_000,
    language: 'ar',
    successMessage: 'جزاكم الله خيرا',
  });
  const ctx = await context('ar');
  const page = await ctx.newPage();
  await page.goto(link.url);
  expect(await page.getAttribute('html', 'dir')).toBe('rtl');
  expect(await page.locator('#amount').count()).toBe(1);
  await check(page, 'ar', 'ar-chosen');
  if (process.env.UPDATE_SCREENSHOTS)
    copyFileSync(
      join(ARTIFACTS, 'payment-link-ar-chosen.png'),
      join(DOCS_SCREENSHOTS, 'payment-link-ar.png'),
    );

  await page.fill('#amount', '٢٥٠٠');
  await page.fill('#phoneNumber', '36123456');
  await page.click('[data-testid=continue]');
  await page.waitForURL(/\/checkout\/[0-9a-f-]{36}\?lang=ar/);
  expect(await page.getAttribute('html', 'dir')).toBe('rtl');
  expect(await page.textContent('[data-testid=amount]')).toBe('٢٬٥٠٠ MRU');
  await payOnHostedPage(page);
  expect(await page.textContent('[data-testid=success-message]')).toBe('جزاكم الله خيرا');
  await check(page, 'ar', 'ar-paid');
  const record = (await fx.t.http.get(`/api/v1/payment-links/${link.id}`).set('Authorization', sk)).body.data;
  expect(record).toMatchObject({ paymentsCount: 1, amountCollected: 2500 });
  await ctx.close();
});

it('shows the 410 of a link paid its maximum number of times, in English', async () => {
  const link = await createLink(fx.t, sk, { name: 'Concert ticket', amount: 300, maxPayments: 1 });
  const ctx = await context('en');
  const page = await ctx.newPage();
  await page.goto(link.url);
  await check(page, 'en', 'en-open');
  await page.fill('#phoneNumber', '44123456');
  await page.click('[data-testid=continue]');
  await payOnHostedPage(page);
  await page.click(`text=${LINK_TEXTS.en.payAgain}`);
  await page.waitForURL(link.url);
  expect(await page.getAttribute('[data-testid=state]', 'data-state')).toBe('exhausted');
  expect(await page.textContent('[data-testid=reason]')).toBe(LINK_TEXTS.en.closed_exhausted);
  const res = await page.goto(link.url);
  expect(res?.status()).toBe(410);
  await check(page, 'en', 'en-exhausted');
  await ctx.close();
});

it('draws its QR code for the merchant guide', async () => {
  const link = await createLink(fx.t, sk, { name: 'Thiéboudienne pour 4' });
  const png = await fx.t.http.get(`/l/${link.code}/qr.png?size=256`).buffer(true);
  expect(png.status).toBe(200);
  if (process.env.UPDATE_SCREENSHOTS)
    writeFileSync(join(DOCS_SCREENSHOTS, 'payment-link-qr.png'), png.body as Buffer);
});
