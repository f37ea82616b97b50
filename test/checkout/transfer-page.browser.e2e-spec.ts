import type { Page } from 'playwright-core';
import { newTenant, startTestApp, TestApp } from '../helpers/app';
import { catalog, createSubscription, invoicesOf } from '../helpers/billing';
import {
  brokenWords,
  launchBrowser,
  MerchantSite,
  newContext,
  screenshot,
  seriousViolations,
  startMerchantSite,
  TestBrowser,
} from '../helpers/browser';
import { createSession, txId } from '../helpers/checkout';

/** What the page's own function reads in the browser (the tests compile without the DOM's types). */
type PageGlobals = { document: { getElementById(id: string): { textContent: string | null } | null } };

/*
 * Paying by transfer from any app of the national switch (GIMTEL) on the hosted pages, in real
 * Chromium at 360 px: the pay form posts, the page shows the instructions (the amount, the
 * merchant's wallet with a copy button, the steps of the app the customer picks, the countdown to
 * the claim's end), polls, and shows the payment complete once a simulated transfer matched it;
 * without JavaScript it refreshes itself to the payment's state. Sandbox's receiving wallet is
 * BANKILY / 22220000. Screenshots go to test-artifacts/.
 */
jest.setTimeout(120_000);

const WAIT = { timeout: 20_000 };
const PHONE_360 = { width: 360, height: 780 };

let t: TestApp;
let b: TestBrowser;
let merchant: MerchantSite;
let sk: string;
let base: string;
let gimtelId: string;

beforeAll(async () => {
  t = await startTestApp();
  const { port } = t.app.getHttpServer().address() as { port: number };
  base = `http://127.0.0.1:${port}`;
  merchant = await startMerchantSite();
  b = await launchBrowser();
  const org = await newTenant(t, 'Boutique Ksar');
  sk = org.sandbox.secretKey;
  const on = await t.http
    .put('/api/v1/configuration/gimtel')
    .set('Authorization', sk)
    .send({ enabled: true });
  expect(on.status).toBe(200);
  const res = await t.http.get('/api/v1/payment-methods').set('Authorization', sk);
  gimtelId = (res.body.data as { type: string; id: string }[]).find((m) => m.type === 'gimtel')!.id;
});
afterAll(async () => {
  await b?.close();
  await merchant?.close();
  await t?.close();
});

async function open(
  url: string,
  options: { locale?: string; javaScriptEnabled?: boolean } = {},
): Promise<Page> {
  const context = await newContext(b, options);
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });
  const page = await context.newPage();
  await page.setViewportSize(PHONE_360);
  const res = await page.goto(url);
  expect(res?.status()).toBe(200);
  return page;
}

/** Chooses the transfer method, types the payer's number and pays (a plain form post). */
async function payByTransfer(page: Page, payerPhone: string): Promise<void> {
  await page.check(`input[name=paymentMethodId][value="${gimtelId}"]`);
  await page.fill('#phoneNumber', payerPhone);
  await Promise.all([page.waitForURL(/\/pay$/, WAIT), page.click('button.pay')]);
  await page.waitForSelector('[data-flow=transfer]', WAIT);
}

/** The request's pending transfer payment, through the API. */
async function pendingPayment(transactionId: string): Promise<{ id: string; claimExpiresAt: string }> {
  const list = await t.http.get(`/api/v1/payment?transactionId=${transactionId}`).set('Authorization', sk);
  const [payment] = list.body.data as { id: string; status: string; claimExpiresAt: string }[];
  expect(payment.status).toBe('pending');
  return payment;
}

async function simulateTransfer(paymentId: string): Promise<void> {
  const res = await t.http
    .post(`/api/v1/payment/${paymentId}/simulate-transfer`)
    .set('Authorization', sk)
    .send({});
  expect(res.status).toBe(200);
}

/** The page at 360 px: axe-clean, nothing wider than the screen, no word broken across lines. */
async function expectReadableOnAPhone(page: Page, name: string): Promise<void> {
  expect({ name, violations: await seriousViolations(page) }).toEqual({ name, violations: [] });
  const overflow = await page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth');
  expect({ name, overflow: overflow <= 0 }).toEqual({ name, overflow: true });
  expect({ name, broken: await brokenWords(page) }).toEqual({ name, broken: [] });
  await screenshot(page, name);
}

const text = async (page: Page, selector: string) =>
  ((await page.textContent(selector)) ?? '').replace(/\s+/g, ' ').trim();

describe('the hosted checkout page', () => {
  it('pays by transfer in French: instructions, copy, countdown, then the payment complete on successUrl', async () => {
    const transactionId = txId('gimtel-fr');
    const { data } = await createSession(t, sk, {
      transactionId,
      amount: 12500,
      successUrl: `${merchant.origin}/thanks`,
    });
    const page = await open(`${base}/checkout/${data.id}`, { locale: 'fr-FR' });
    expect(await page.textContent(`label.method:has(input[value="${gimtelId}"])`)).toContain('GIMTEL');
    await payByTransfer(page, '36123456');

    expect(await text(page, 'h1')).toBe('Envoyez le virement');
    expect(await text(page, '[data-testid=transfer-amount]')).toBe('12 500 MRU');
    expect(await text(page, '[data-testid=receiving-bank]')).toBe('Bankily');
    expect(await text(page, '[data-testid=receiving-phone]')).toBe('22220000');
    expect(await text(page, '[data-testid=payer-phone]')).toBe('36123456');
    // The steps of the merchant's own bank's app first, with the values in <bdi>.
    expect(await page.getAttribute('[data-testid=steps]', 'data-app')).toBe('bankily');
    const steps = await page.locator('[data-testid=steps] li').allTextContents();
    expect(steps).toHaveLength(5);
    expect(steps[0]).toBe('Ouvrez Bankily sur votre téléphone.');
    expect(steps[2]).toBe('Choisissez la banque Bankily et saisissez le numéro 22220000.');
    expect(await page.locator('[data-testid=steps] bdi', { hasText: '22220000' }).count()).toBe(1);

    // The countdown runs to claimExpiresAt (the deadline's time is there for a page without script).
    const payment = await pendingPayment(transactionId);
    const claim = new Date(payment.claimExpiresAt);
    expect(await text(page, '[data-testid=deadline]')).toContain(claim.toISOString().slice(11, 16));
    await page.waitForSelector('[data-testid=countdown]', { state: 'visible', ...WAIT });
    const left = async () => (await page.textContent('#countdown-left'))!;
    expect(await left()).toMatch(/^\d\d:\d\d$/);
    const [mm, ss] = (await left()).split(':').map(Number);
    const seconds = mm * 60 + ss;
    expect(Math.abs(seconds - (claim.getTime() - Date.now()) / 1000)).toBeLessThan(5);
    // The page's CSP refuses string evaluation: a function is passed.
    await page.waitForFunction(
      (before) =>
        (globalThis as unknown as PageGlobals).document.getElementById('countdown-left')!.textContent !==
        before,
      await left(),
      WAIT,
    );

    // Copy: the number lands on the clipboard, and the button says so.
    await page.click('[data-testid=copy-phone]');
    await page.waitForSelector('[data-testid=copy-phone]:text("Numéro copié")', WAIT);
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe('22220000');

    // Another app's steps: a link (works without JavaScript), the choice kept on the page.
    await Promise.all([page.waitForURL(/app=click/, WAIT), page.click('[data-testid=app][data-app=click]')]);
    expect(await page.getAttribute('[data-testid=steps]', 'data-app')).toBe('click');
    expect((await page.locator('[data-testid=steps] li').allTextContents())[0]).toBe(
      'Ouvrez Click sur votre téléphone.',
    );
    await expectReadableOnAPhone(page, 'checkout-transfer-fr-360');

    await simulateTransfer(payment.id);
    await page.waitForURL((u) => u.origin === merchant.origin && u.pathname === '/thanks', WAIT);
    const session = await t.http.get(`/api/v1/checkout-session/${data.id}`).set('Authorization', sk);
    expect(session.body.data.status).toBe('completed');
    await page.context().close();
  });

  it('pays by transfer in Arabic, right to left with the Latin values isolated, then shows the receipt', async () => {
    const transactionId = txId('gimtel-ar');
    const { data } = await createSession(t, sk, { transactionId, amount: 4300 });
    const page = await open(`${base}/checkout/${data.id}?lang=ar`, { locale: 'ar' });
    expect(await page.getAttribute('html', 'dir')).toBe('rtl');
    await payByTransfer(page, '46123456');
    expect(await text(page, 'h1')).toBe('أرسل التحويل');
    expect(await text(page, '[data-testid=transfer-amount]')).toBe('٤٬٣٠٠ MRU');
    // Every Latin value of the instructions sits in a <bdi>, drawn left to right.
    for (const value of ['22220000', '46123456', 'Bankily', 'GIMTEL']) {
      const inBdi = await page.evaluate<boolean>(
        `[...document.querySelectorAll('main bdi')].some((e) => e.textContent === ${JSON.stringify(value)} && getComputedStyle(e).direction === 'ltr')`,
      );
      expect({ value, inBdi }).toEqual({ value, inBdi: true });
    }
    await page.waitForSelector('[data-testid=countdown]', { state: 'visible', ...WAIT });
    await expectReadableOnAPhone(page, 'checkout-transfer-ar-360');

    await simulateTransfer((await pendingPayment(transactionId)).id);
    await page.waitForSelector('[data-state=completed]', WAIT);
    expect(await page.getAttribute('html', 'dir')).toBe('rtl');
    await expectReadableOnAPhone(page, 'checkout-transfer-ar-completed-360');
    await page.context().close();
  });

  it('in English without JavaScript: the steps by link, the deadline as a time, and the page refreshes itself to the receipt', async () => {
    const transactionId = txId('gimtel-nojs');
    const { data } = await createSession(t, sk, { transactionId, amount: 700 });
    const page = await open(`${base}/checkout/${data.id}`, { locale: 'en-US', javaScriptEnabled: false });
    await payByTransfer(page, '22123456');
    expect(await text(page, 'h1')).toBe('Send the transfer');
    // No script: no copy button, no countdown, the time to send it by.
    expect(await page.isVisible('[data-testid=copy-phone]')).toBe(false);
    expect(await page.isVisible('[data-testid=countdown]')).toBe(false);
    expect(await text(page, '[data-testid=deadline]')).toMatch(
      /^Send the transfer before \d\d:\d\d \(Nouakchott time\)\.$/,
    );
    await page.click('[data-testid=app][data-app=sedad]');
    await page.waitForURL(/\/checkout\/[^/]+\?app=sedad$/, WAIT);
    expect(await page.getAttribute('[data-testid=steps]', 'data-app')).toBe('sedad');
    const refresh = await page.getAttribute('meta[http-equiv=refresh]', 'content');
    expect(refresh).toBe(`15; url=/checkout/${data.id}?app=sedad`);
    // (axe runs on the same view with its script above: here the page refreshes itself meanwhile.)
    expect(await brokenWords(page)).toEqual([]);
    await screenshot(page, 'checkout-transfer-en-nojs-360');

    await simulateTransfer((await pendingPayment(transactionId)).id);
    // Nothing is clicked: the page's own refresh brings the receipt.
    await page.waitForSelector('[data-state=completed]', { timeout: 40_000 });
    await page.context().close();
  });

  it('says the time ran out when the claim expired, with the form to pay again', async () => {
    const transactionId = txId('gimtel-expired');
    const { data } = await createSession(t, sk, { transactionId, amount: 900 });
    const page = await open(`${base}/checkout/${data.id}`, { locale: 'fr-FR' });
    await payByTransfer(page, '22123456');
    const payment = await pendingPayment(transactionId);
    // The expiry job's outcome (docs/transfers.md "Claim expiry"), as the page then finds it.
    await t.query(`UPDATE payments SET status = 'failed', failure_reason = 'expired' WHERE id = $1`, [
      payment.id,
    ]);
    await page.waitForSelector('[data-testid=error]', WAIT);
    expect(await text(page, '[data-testid=error]')).toContain(
      'Le délai pour envoyer le virement est dépassé',
    );
    expect(await page.locator('button.pay').count()).toBe(1);
    await expectReadableOnAPhone(page, 'checkout-transfer-expired-fr-360');
    await page.context().close();
  });
});

describe('the invoice page', () => {
  it('pays an invoice by transfer in Arabic: the instructions, then the invoice paid', async () => {
    const org = await newTenant(t, 'Salle Atar Sport');
    const key = org.sandbox.secretKey;
    await t.http
      .put('/api/v1/configuration/gimtel')
      .set('Authorization', key)
      .send({ enabled: true })
      .expect(200);
    const methods = await t.http.get('/api/v1/payment-methods').set('Authorization', key);
    const gimtel = (methods.body.data as { type: string; id: string }[]).find((m) => m.type === 'gimtel')!.id;
    const c = await catalog(t, org, { amount: 2500 });
    const s = await createSubscription(t, key, { customerId: c.customer.id, priceId: c.price.id });
    const [inv] = await invoicesOf(t, key, s.id);
    const page = await open(`${base}${new URL(inv.checkoutUrl).pathname}?lang=ar`, { locale: 'ar' });
    await page.check(`input[name=paymentMethodId][value="${gimtel}"]`);
    await page.fill('#phoneNumber', '36987654');
    await page.click('button.pay');
    await page.waitForSelector('[data-flow=transfer]', WAIT);
    expect(await text(page, '[data-testid=transfer-amount]')).toBe('٢٬٥٠٠ MRU');
    await page.waitForSelector('[data-testid=countdown]', { state: 'visible', ...WAIT });
    await expectReadableOnAPhone(page, 'invoice-transfer-ar-360');
    const [payment] = await t.query<{ id: string }>(
      `SELECT p.id FROM payments p JOIN invoices i ON i.payment_request_id = p.payment_request_id
        WHERE i.id = $1 AND p.status = 'pending'`,
      [inv.id],
    );
    await t.http
      .post(`/api/v1/payment/${payment.id}/simulate-transfer`)
      .set('Authorization', key)
      .send({})
      .expect(200);
    await page.waitForSelector('[data-state=paid]', WAIT);
    await page.context().close();
  });
});
