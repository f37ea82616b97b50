import { newTenant, startTestApp, TestApp } from './helpers/app';
import { launchBrowser, MerchantSite, newContext, screenshot, startMerchantSite, TestBrowser } from './helpers/browser';
import { createSession, makeOverdue, txId } from './helpers/checkout';

/*
 * The hosted page in real Chromium. The app listens on 127.0.0.1; the merchant site is a local server.
 *
 * phase 2: (after payments merge) pay through the page with each bank app (Bankily with pass code,
 * Masrivi, Sedad) and land on successUrl with session_id and transactionId; meet a bank failure
 * (phone ...9001) and see the 502 message, then retry with another bank app; a pending payment
 * (...9003) polled until a simulated transfer completes it; a receipt without successUrl; the
 * pass-code field toggled by JavaScript for Bankily only.
 */
describe('hosted checkout page in Chromium', () => {
  let t: TestApp;
  let b: TestBrowser;
  let merchant: MerchantSite;
  let sk: string;
  let base: string;

  beforeAll(async () => {
    t = await startTestApp();
    const { port } = t.app.getHttpServer().address() as { port: number };
    base = `http://127.0.0.1:${port}`;
    merchant = await startMerchantSite();
    b = await launchBrowser();
    sk = (await newTenant(t, 'Épicerie Sebkha')).sandbox.secretKey;
  });
  afterAll(async () => {
    await b?.close();
    await merchant?.close();
    await t?.close();
  });

  const apiStatus = async (id: string) =>
    (await t.http.get(`/api/v1/checkout-session/${id}`).set('Authorization', sk)).body.data.status as string;

  it('shows the merchant name, the formatted amount and the prefilled phone', async () => {
    const { data } = await createSession(t, sk, { transactionId: txId(), amount: 12500, phoneNumber: '33445566' });
    const context = await newContext(b, { locale: 'fr-FR' });
    const page = await context.newPage();
    const res = await page.goto(`${base}/checkout/${data.id}`);
    expect(res?.status()).toBe(200);
    expect(await page.getAttribute('html', 'lang')).toBe('fr');
    expect(await page.textContent('[data-testid=merchant]')).toBe('Épicerie Sebkha');
    expect((await page.textContent('[data-testid=amount]'))!.replace(/\s/g, ' ')).toBe('12 500 MRU');
    expect(await page.inputValue('#phoneNumber')).toBe('33445566');
    await screenshot(page, 'checkout-open-fr');
    await context.close();
  });

  it('switches to Arabic, right to left', async () => {
    const { data } = await createSession(t, sk, { transactionId: txId(), amount: 1500 });
    const context = await newContext(b, { locale: 'fr-FR' });
    const page = await context.newPage();
    await page.goto(`${base}/checkout/${data.id}`);
    await page.click('a[hreflang=ar]');
    await page.waitForSelector('html[dir=rtl]');
    expect(await page.getAttribute('html', 'lang')).toBe('ar');
    expect(await page.textContent('[data-testid=amount]')).toBe('١٬٥٠٠ MRU');
    await screenshot(page, 'checkout-open-ar');
    // The choice is remembered.
    await page.goto(`${base}/checkout/${data.id}`);
    expect(await page.getAttribute('html', 'dir')).toBe('rtl');
    await context.close();
  });

  it('shows an expired session as expired, without a payable form', async () => {
    const { data } = await createSession(t, sk, { transactionId: txId(), amount: 1500 });
    await makeOverdue(t, data.id);
    const context = await newContext(b);
    const page = await context.newPage();
    await page.goto(`${base}/checkout/${data.id}`);
    expect(await page.getAttribute('[data-testid=state]', 'data-state')).toBe('expired');
    expect(await page.locator('form').count()).toBe(0);
    await screenshot(page, 'checkout-expired');
    await context.close();
  });

  it('cancels: back on the merchant cancelUrl, and the session is cancelled', async () => {
    const { data } = await createSession(t, sk, { transactionId: txId(), amount: 1500, cancelUrl: `${merchant.origin}/cart?from=checkout` });
    const context = await newContext(b);
    const page = await context.newPage();
    await page.goto(`${base}/checkout/${data.id}`);
    await screenshot(page, 'checkout-before-cancel');
    await Promise.all([page.waitForURL(`${merchant.origin}/cart?from=checkout`), page.click('[data-testid=cancel]')]);
    await page.waitForSelector('#merchant-page');
    expect(merchant.hits).toContain('/cart?from=checkout');
    expect(await apiStatus(data.id)).toBe('cancelled');
    await context.close();
  });

  it('works with JavaScript disabled: cancel by a plain form post, then the cancelled page', async () => {
    const { data } = await createSession(t, sk, { transactionId: txId(), amount: 1500 });
    const context = await newContext(b, { javaScriptEnabled: false, locale: 'en-US' });
    const page = await context.newPage();
    await page.goto(`${base}/checkout/${data.id}`);
    expect(await page.getAttribute('html', 'lang')).toBe('en');
    // Without JavaScript the pass-code field stays visible, with its hint.
    expect(await page.isVisible('#passCode')).toBe(true);
    expect(await page.textContent('#pass-code-hint')).toBe('Only for Bankily');
    await Promise.all([page.waitForURL(`${base}/checkout/${data.id}`), page.click('[data-testid=cancel]')]);
    await page.waitForSelector('[data-state=cancelled]');
    await screenshot(page, 'checkout-cancelled-no-js');
    expect(await apiStatus(data.id)).toBe('cancelled');
    await context.close();
  });

  it('loads nothing from another host and raises no CSP violation', async () => {
    const { data } = await createSession(t, sk, { transactionId: txId(), amount: 1500 });
    const context = await newContext(b);
    const page = await context.newPage();
    const requested: string[] = [];
    const problems: string[] = [];
    page.on('request', (r) => requested.push(r.url()));
    page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
    page.on('pageerror', (e) => problems.push(e.message));
    await page.goto(`${base}/checkout/${data.id}`);
    expect(requested.filter((u) => !u.startsWith(base) && !u.startsWith('data:'))).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  });
});
