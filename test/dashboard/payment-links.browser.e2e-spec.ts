import { copyFileSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { DASHBOARD_TEXTS } from '../../src/common/i18n/dashboard-texts';
import type { Language } from '../../src/common/i18n/languages';
import { newTenant, startTestApp } from '../helpers/app';
import { ARTIFACTS, expectPageFits, phoneContext, useBrowserFixture } from '../helpers/browser';
import { DASHBOARD_ENV } from '../helpers/dashboard';

/*
 * The dashboard's payment links in Chromium at 360 px, in French, Arabic and English: create a link
 * from the form, its page with the QR code (the image loads), the address to copy, the WhatsApp and
 * download buttons, deactivate it. Every page axe-clean and no wider than the screen.
 * `UPDATE_SCREENSHOTS=1` writes the link page docs/payment-links.md shows.
 */
jest.setTimeout(300_000);

const DOCS_SCREENSHOTS = resolve(__dirname, '../../docs/screenshots');
const fx = useBrowserFixture(async () => {
  const app = await startTestApp(DASHBOARD_ENV);
  const { port } = app.app.getHttpServer().address() as { port: number };
  return { app, base: `http://127.0.0.1:${port}` };
});

const check = (page: Page, lang: Language, name: string) =>
  expectPageFits(page, lang, name, `dashboard-${lang}-${name}-360`);

describe.each(['fr', 'ar', 'en'] as const)('payment links in %s', (lang) => {
  it('creates a link, shows its QR code, address, share and download buttons, and deactivates it', async () => {
    const tx = DASHBOARD_TEXTS[lang];
    const { t, b, base } = fx;
    const org = await newTenant(t, 'Épicerie Sebkha');
    const context = await phoneContext(b, lang);
    const page = await context.newPage();
    page.on('dialog', (dialog) => void dialog.accept());
    await page.goto(`${base}/dashboard/login?lang=${lang}`);
    await page.fill('#email', org.email);
    await page.fill('#password', org.password);
    await Promise.all([page.waitForURL(`${base}/dashboard`), page.click('button[type=submit]')]);

    await page.goto(`${base}/dashboard/payment-links`);
    await check(page, lang, 'payment-links-empty');
    await page.fill('#link-name', 'Thiéboudienne pour 4');
    await page.fill('#link-amount', '1500');
    await page.fill('#link-max-payments', '50');
    await page.fill('#link-message', 'Merci ! Livraison dans l’heure.');
    await Promise.all([
      page.waitForURL(/\/dashboard\/payment-links\/[0-9a-f-]+\?notice=linkCreated/),
      page.click('[data-testid=create-link]'),
    ]);
    expect((await page.textContent('[data-testid=notice]'))?.trim()).toBe(tx.notices.linkCreated);
    const url = (await page.textContent('[data-testid=link-url]'))!.trim();
    expect(url).toMatch(/\/l\/[0-9A-Za-z]{10}$/);
    const code = url.slice(-10);
    // The QR code is drawn and loaded in the page.
    await page.waitForFunction(
      `document.querySelector('[data-testid=qr-image]').complete && document.querySelector('[data-testid=qr-image]').naturalWidth > 0`,
    );
    expect(await page.getAttribute('[data-testid=download-png]', 'href')).toBe(`/l/${code}/qr.png?size=1024`);
    const share = await page.getAttribute('[data-testid=share-whatsapp]', 'href');
    expect(decodeURIComponent(share!.split('?text=')[1])).toContain(url);
    expect(await page.isVisible('[data-testid=copy-link]')).toBe(true);
    await check(page, lang, 'payment-link');
    if (process.env.UPDATE_SCREENSHOTS && lang === 'fr') {
      mkdirSync(DOCS_SCREENSHOTS, { recursive: true });
      copyFileSync(
        join(ARTIFACTS, 'dashboard-fr-payment-link-360.png'),
        join(DOCS_SCREENSHOTS, 'payment-link-dashboard-fr.png'),
      );
    }

    await Promise.all([
      page.waitForURL(/notice=linkDeactivated/),
      page.click('[data-testid=deactivate-link]'),
    ]);
    expect(await page.getAttribute('[data-testid=link-status]', 'data-status')).toBe('inactive');
    await page.goto(`${base}/dashboard/payment-links`);
    expect(await page.locator('[data-testid=payment-link]').count()).toBe(1);
    await check(page, lang, 'payment-links');
    await context.close();
  });
});
