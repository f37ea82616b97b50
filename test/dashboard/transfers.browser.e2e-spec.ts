import type { Page } from 'playwright-core';
import { DASHBOARD_TEXTS } from '../../src/common/i18n/dashboard-texts';
import type { Language } from '../../src/common/i18n/languages';
import type { CreatedOrganization } from '../../src/organizations/organizations.service';
import { newTenant, startTestApp } from '../helpers/app';
import { brokenWords, screenshot, seriousViolations, useBrowserFixture } from '../helpers/browser';
import { DASHBOARD_ENV } from '../helpers/dashboard';
import { txId } from '../helpers/checkout';

/*
 * The dashboard's side of transfers (docs/transfers.md) in Chromium at 360 px, in French, Arabic
 * and English: "Payment methods" turns the transfer method on with its receiving wallet (the
 * refusals of PUT /configuration/gimtel, in the page's language); the transfers inbox filters by
 * status, and a transfer's page assigns an unmatched transfer to a pending request of its amount
 * found by search, or marks one returned. Every page axe-clean, no wider than the screen, no
 * word broken.
 */
jest.setTimeout(300_000);

const f = useBrowserFixture(async () => {
  const app = await startTestApp(DASHBOARD_ENV);
  const { port } = app.app.getHttpServer().address() as { port: number };
  return { app, base: `http://127.0.0.1:${port}` };
});

async function check(page: Page, lang: Language, name: string): Promise<void> {
  await screenshot(page, `dashboard-${lang}-${name}-360`);
  expect({
    name,
    lang: await page.getAttribute('html', 'lang'),
    dir: await page.getAttribute('html', 'dir'),
  }).toEqual({ name, lang, dir: lang === 'ar' ? 'rtl' : 'ltr' });
  expect({ name, violations: await seriousViolations(page) }).toEqual({ name, violations: [] });
  const overflow = await page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth');
  expect({ name, overflow: Math.max(overflow, 0) }).toEqual({ name, overflow: 0 });
  expect({ name, broken: await brokenWords(page) }).toEqual({ name, broken: [] });
}

async function signIn(org: CreatedOrganization, lang: Language): Promise<Page> {
  const context = await f.b.browser.newContext({ viewport: { width: 360, height: 780 } });
  const page = await context.newPage();
  await page.goto(`${f.base}/dashboard/login?lang=${lang}`);
  await page.fill('#email', org.email);
  await page.fill('#password', org.password);
  await Promise.all([page.waitForURL(`${f.base}/dashboard`), page.click('button[type=submit]')]);
  return page;
}

/** A transfer injected into the Sandbox wallet (POST /sandbox/transfers). */
async function inject(sk: string, body: Record<string, unknown>): Promise<{ id: string; status: string }> {
  const res = await f.t.http.post('/api/v1/sandbox/transfers').set('Authorization', sk).send(body);
  expect(res.status).toBe(200);
  return res.body.data;
}

const text = async (page: Page, selector: string) =>
  ((await page.textContent(selector)) ?? '').replace(/\s+/g, ' ').trim();

describe.each(['fr', 'ar', 'en'] as const)('transfers in the dashboard, in %s', (lang) => {
  const tx = DASHBOARD_TEXTS[lang];

  it('turns the transfer method on with its wallet, refusing a bad number in the page language', async () => {
    const org = await newTenant(f.t, 'Boutique Ksar');
    const page = await signIn(org, lang);
    await page.goto(`${f.base}/dashboard/payment-methods`);
    expect(await page.isChecked('#gimtelEnabled')).toBe(false);
    // Sandbox's wallet is preset.
    expect(await page.inputValue('#receivingBank')).toBe('BANKILY');
    expect(await page.inputValue('#receivingPhone')).toBe('22220000');
    await check(page, lang, 'payment-methods-gimtel');

    await page.check('#gimtelEnabled');
    await page.fill('#receivingPhone', '1234');
    await page.click('[data-testid=gimtel-save]');
    await page.waitForSelector('[data-testid=gimtel-error]');
    expect(await text(page, '[data-testid=gimtel-error]')).toBe(tx.apiRules.invalid_phone_number);
    expect(await page.getAttribute('#receivingPhone', 'aria-invalid')).toBe('true');
    await check(page, lang, 'payment-methods-gimtel-error');

    await page.selectOption('#receivingBank', 'SEDAD');
    await page.fill('#receivingPhone', '33445566');
    await Promise.all([page.waitForURL(/notice=gimtelSaved/), page.click('[data-testid=gimtel-save]')]);
    expect(await text(page, '[data-testid=notice]')).toBe(tx.notices.gimtelSaved);
    expect(await page.isChecked('#gimtelEnabled')).toBe(true);
    const config = await f.t.http.get('/api/v1/payment-methods').set('Authorization', org.sandbox.secretKey);
    expect((config.body.data as { type: string }[]).map((m) => m.type)).toContain('gimtel');
    const [method] = await f.t.query<{ receiving_bank: string; receiving_phone: string; enabled: boolean }>(
      `SELECT receiving_bank, receiving_phone, enabled FROM payment_methods WHERE environment_id = $1 AND type = 'gimtel'`,
      [org.sandbox.environmentId],
    );
    expect(method).toEqual({ receiving_bank: 'SEDAD', receiving_phone: '33445566', enabled: true });
    await page.context().close();
  });

  it('lists transfers by status, assigns an unmatched one to a pending request found by search, and returns another', async () => {
    const org = await newTenant(f.t, 'Épicerie Sebkha');
    const sk = org.sandbox.secretKey;
    await f.t.http
      .put('/api/v1/configuration/gimtel')
      .set('Authorization', sk)
      .send({ enabled: true })
      .expect(200);
    const transactionId = txId('assign');
    const request = await f.t.http
      .post('/api/v1/payment-request')
      .set('Authorization', sk)
      .send({ transactionId, amount: 2750, phoneNumber: '22123456' });
    expect(request.status).toBe(200);
    // Another pending request of another amount: never offered.
    await f.t.http
      .post('/api/v1/payment-request')
      .set('Authorization', sk)
      .send({ transactionId: txId('other'), amount: 999 })
      .expect(200);
    const toAssign = await inject(sk, {
      payerPhone: '36111111',
      amount: 2750,
      payerApp: 'click',
      memo: 'commande',
    });
    const toReturn = await inject(sk, { payerPhone: '36222222', amount: 400 });
    expect([toAssign.status, toReturn.status]).toEqual(['unmatched', 'unmatched']);

    const page = await signIn(org, lang);
    await page.goto(`${f.base}/dashboard/transfers`);
    expect(await page.locator('[data-testid=transfer]').count()).toBe(2);
    await check(page, lang, 'transfers');

    await page.goto(`${f.base}/dashboard/transfers/${toAssign.id}`);
    expect(await page.getAttribute('[data-testid=transfer-status]', 'data-status')).toBe('unmatched');
    expect(await page.locator('[data-testid=candidate]').count()).toBe(1);
    await page.fill('#q', transactionId);
    await Promise.all([page.waitForURL(/\?q=/), page.click('form[role=search] button[type=submit]')]);
    expect(await page.locator('[data-testid=candidate]').count()).toBe(1);
    await check(page, lang, 'transfer-unmatched');
    await Promise.all([page.waitForURL(/notice=transferAssigned/), page.click('[data-testid=assign]')]);
    expect(await text(page, '[data-testid=notice]')).toBe(tx.notices.transferAssigned);
    expect(await page.getAttribute('[data-testid=transfer-status]', 'data-status')).toBe('assigned');
    expect(await page.locator('[data-testid=assign]').count()).toBe(0);
    await check(page, lang, 'transfer-assigned');
    const paid = await f.t.http
      .get(`/api/v1/payment-request/by-transaction/${transactionId}`)
      .set('Authorization', sk);
    expect(paid.body.data?.status ?? paid.body.status).toBe('paid');

    await page.goto(`${f.base}/dashboard/transfers/${toReturn.id}`);
    expect(await page.locator('[data-testid=no-candidates]').count()).toBe(1);
    await Promise.all([page.waitForURL(/notice=transferReturned/), page.click('[data-testid=return]')]);
    expect(await page.getAttribute('[data-testid=transfer-status]', 'data-status')).toBe('returned');

    // The filter by status: each list holds only its own.
    for (const [status, id] of [
      ['assigned', toAssign.id],
      ['returned', toReturn.id],
    ] as const) {
      await page.goto(`${f.base}/dashboard/transfers?status=${status}`);
      expect(
        await page
          .locator('[data-testid=transfer]')
          .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-id'))),
      ).toEqual([id]);
      expect(
        await page.getAttribute(`[data-testid=transfer-filters] a[data-status=${status}]`, 'aria-current'),
      ).toBe('page');
    }
    await page.goto(`${f.base}/dashboard/transfers?status=unmatched`);
    expect(await page.locator('[data-testid=no-results]').count()).toBe(1);
    await check(page, lang, 'transfers-unmatched-empty');
    await page.context().close();
  });
});
