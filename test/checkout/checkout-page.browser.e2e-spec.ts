import type { Page } from 'playwright-core';
import { Messages } from '../../src/common/errors/messages';
import { newTenant, startTestApp, TestApp } from '../helpers/app';
import {
  launchBrowser,
  MerchantSite,
  newContext,
  screenshot,
  startMerchantSite,
  TestBrowser,
} from '../helpers/browser';
import { createSession, makeOverdue, txId } from '../helpers/checkout';

/*
 * The hosted page in real Chromium, paying through the Sandbox bank simulator (by phone number:
 * ...9001 declined, ...9003 pending until a simulated transfer, else completed). The app listens
 * on 127.0.0.1; the merchant site is a local server. Screenshots go to test-artifacts/.
 */
describe('hosted checkout page in Chromium', () => {
  let t: TestApp;
  let b: TestBrowser;
  let merchant: MerchantSite;
  let sk: string;
  let base: string;
  let methods: Record<'bankily' | 'masrivi' | 'sedad', string>;

  beforeAll(async () => {
    t = await startTestApp();
    const { port } = t.app.getHttpServer().address() as { port: number };
    base = `http://127.0.0.1:${port}`;
    merchant = await startMerchantSite();
    b = await launchBrowser();
    sk = (await newTenant(t, 'Épicerie Sebkha')).sandbox.secretKey;
    const res = await t.http.get('/api/v1/payment-methods').set('Authorization', sk);
    methods = Object.fromEntries(
      (res.body.data as { type: string; id: string }[]).map((m) => [m.type, m.id]),
    ) as never;
  });
  afterAll(async () => {
    await b?.close();
    await merchant?.close();
    await t?.close();
  });

  const apiStatus = async (id: string) =>
    (await t.http.get(`/api/v1/checkout-session/${id}`).set('Authorization', sk)).body.data.status as string;

  it("shows the merchant name, the formatted amount and the payer's phone masked beside an empty field", async () => {
    const { data } = await createSession(t, sk, {
      transactionId: txId(),
      amount: 12500,
      phoneNumber: '33445566',
    });
    const context = await newContext(b, { locale: 'fr-FR' });
    const page = await context.newPage();
    const res = await page.goto(`${base}/checkout/${data.id}`);
    expect(res?.status()).toBe(200);
    expect(await page.getAttribute('html', 'lang')).toBe('fr');
    expect(await page.textContent('[data-testid=merchant]')).toBe('Épicerie Sebkha');
    expect((await page.textContent('[data-testid=amount]'))!.replace(/\s/g, ' ')).toBe('12 500 MRU');
    expect(await page.inputValue('#phoneNumber')).toBe('');
    expect(await page.textContent('[data-testid=known-phone]')).toBe(
      'Laissez vide pour payer depuis le numéro ••••••66',
    );
    expect(await page.content()).not.toContain('33445566');
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
    const { data } = await createSession(t, sk, {
      transactionId: txId(),
      amount: 1500,
      cancelUrl: `${merchant.origin}/cart?from=checkout`,
    });
    const context = await newContext(b);
    const page = await context.newPage();
    await page.goto(`${base}/checkout/${data.id}`);
    await screenshot(page, 'checkout-before-cancel');
    await Promise.all([
      page.waitForURL(`${merchant.origin}/cart?from=checkout`),
      page.click('[data-testid=cancel]'),
    ]);
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

  describe('paying', () => {
    const WAIT = { timeout: 15_000 };
    type Method = keyof typeof methods;

    const requestStatus = async (transactionId: string) =>
      (
        await t.query<{ status: string }>('SELECT status FROM payment_requests WHERE transaction_id = $1', [
          transactionId,
        ])
      )[0].status;
    const sessionRow = async (id: string) =>
      (await t.http.get(`/api/v1/checkout-session/${id}`).set('Authorization', sk)).body.data as Record<
        string,
        unknown
      >;

    async function fillAndPay(
      page: Page,
      method: Method,
      phoneNumber: string,
      passCode?: string,
    ): Promise<void> {
      await page.check(`input[name=paymentMethodId][value="${methods[method]}"]`);
      await page.fill('#phoneNumber', phoneNumber);
      if (passCode !== undefined) await page.fill('#passCode', passCode);
      await page.click('button.pay');
    }

    /** Waits for the merchant's successUrl and returns its query. */
    async function landedOnSuccess(page: Page): Promise<Record<string, string>> {
      await page.waitForURL((u) => u.origin === merchant.origin && u.pathname === '/thanks', WAIT);
      await page.waitForSelector('#merchant-page', WAIT);
      return Object.fromEntries(new URL(page.url()).searchParams);
    }

    async function expectPaid(sessionId: string, transactionId: string, method: Method): Promise<void> {
      expect(await sessionRow(sessionId)).toMatchObject({
        status: 'completed',
        selectedConfigurationId: methods[method],
      });
      expect(await requestStatus(transactionId)).toBe('paid');
    }

    for (const [method, passCode] of [
      ['bankily', '1234'],
      ['masrivi', undefined],
      ['sedad', undefined],
    ] as const) {
      it(`pays with ${method} and lands on successUrl with session_id and transactionId`, async () => {
        const transactionId = txId(method);
        const { data } = await createSession(t, sk, {
          transactionId,
          amount: 2300,
          phoneNumber: '22123456',
          successUrl: `${merchant.origin}/thanks?order=${transactionId}`,
        });
        const context = await newContext(b, { locale: 'en-US' });
        const page = await context.newPage();
        await page.goto(`${base}/checkout/${data.id}`);
        await page.check(`input[name=paymentMethodId][value="${methods[method]}"]`);
        if (passCode) await page.fill('#passCode', passCode);
        await screenshot(page, `checkout-pay-${method}`);
        await page.click('button.pay');
        expect(await landedOnSuccess(page)).toEqual({
          order: transactionId,
          session_id: data.id,
          transactionId,
        });
        await expectPaid(data.id, transactionId, method);
        await context.close();
      });
    }

    it('shows the pass-code field only for Bankily, toggled by JavaScript', async () => {
      const { data } = await createSession(t, sk, { transactionId: txId(), amount: 1500 });
      const context = await newContext(b, { locale: 'en-US' });
      const page = await context.newPage();
      await page.goto(`${base}/checkout/${data.id}`);
      expect(await page.isChecked(`input[value="${methods.bankily}"]`)).toBe(true);
      expect(await page.isVisible('#passCode')).toBe(true);
      await page.check(`input[value="${methods.masrivi}"]`);
      await page.waitForSelector('#passCode', { state: 'hidden', ...WAIT });
      expect(await page.isDisabled('#passCode')).toBe(true);
      await screenshot(page, 'checkout-masrivi-no-pass-code');
      await page.check(`input[value="${methods.bankily}"]`);
      await page.waitForSelector('#passCode', { state: 'visible', ...WAIT });
      await context.close();
    });

    it('meets a bank failure with the 502 bank-failure message, then pays with another bank app', async () => {
      const transactionId = txId('retry');
      const { data } = await createSession(t, sk, {
        transactionId,
        amount: 4000,
        successUrl: `${merchant.origin}/thanks`,
      });
      const context = await newContext(b, { locale: 'en-US' });
      const page = await context.newPage();
      await page.goto(`${base}/checkout/${data.id}`);
      await fillAndPay(page, 'masrivi', '22129001');
      const error = await page.waitForSelector('[data-testid=error]', WAIT);
      expect(await error.textContent()).toContain(Messages.bankFailure);
      expect(await page.isChecked(`input[value="${methods.masrivi}"]`)).toBe(true);
      await screenshot(page, 'checkout-bank-failure');
      expect(await sessionRow(data.id)).toMatchObject({ status: 'open' });

      await fillAndPay(page, 'sedad', '22123456');
      expect(await landedOnSuccess(page)).toEqual({ session_id: data.id, transactionId });
      await expectPaid(data.id, transactionId, 'sedad');
      await context.close();
    });

    it('waits on a pending payment, polling, and moves to successUrl once a simulated transfer completes it', async () => {
      const transactionId = txId('pending');
      const { data } = await createSession(t, sk, {
        transactionId,
        amount: 900,
        successUrl: `${merchant.origin}/thanks`,
      });
      const context = await newContext(b, { locale: 'en-US' });
      const page = await context.newPage();
      await page.goto(`${base}/checkout/${data.id}`);
      await fillAndPay(page, 'masrivi', '22129003');
      await page.waitForSelector('[data-state=pending]', WAIT);
      await screenshot(page, 'checkout-pending');
      const list = await t.http
        .get(`/api/v1/payment?transactionId=${transactionId}`)
        .set('Authorization', sk);
      const [payment] = list.body.data as { id: string; status: string }[];
      expect(payment.status).toBe('pending');
      const done = await t.http
        .post(`/api/v1/payment/${payment.id}/simulate-transfer`)
        .set('Authorization', sk)
        .send({});
      expect(done.status).toBe(200);
      expect(await landedOnSuccess(page)).toEqual({ session_id: data.id, transactionId });
      await expectPaid(data.id, transactionId, 'masrivi');
      await context.close();
    });

    it('shows a receipt when the merchant gave no successUrl', async () => {
      const transactionId = txId('receipt');
      const { data } = await createSession(t, sk, { transactionId, amount: 1250 });
      const context = await newContext(b, { locale: 'fr-FR' });
      const page = await context.newPage();
      await page.goto(`${base}/checkout/${data.id}`);
      await fillAndPay(page, 'sedad', '22123456');
      await page.waitForSelector('[data-state=completed]', WAIT);
      expect(page.url()).toBe(`${base}/checkout/${data.id}`);
      expect(await page.textContent('main')).toContain(transactionId);
      expect(await page.locator('form').count()).toBe(0);
      await screenshot(page, 'checkout-receipt');
      await expectPaid(data.id, transactionId, 'sedad');
      await context.close();
    });

    it('pays with JavaScript disabled: a plain form post with Bankily and its pass code', async () => {
      const transactionId = txId('nojs');
      const { data } = await createSession(t, sk, {
        transactionId,
        amount: 500,
        phoneNumber: '22123456',
        successUrl: `${merchant.origin}/thanks`,
      });
      const context = await newContext(b, { javaScriptEnabled: false, locale: 'ar' });
      const page = await context.newPage();
      await page.goto(`${base}/checkout/${data.id}`);
      expect(await page.getAttribute('html', 'dir')).toBe('rtl');
      await page.fill('#passCode', '4321');
      await page.click('button.pay');
      expect(await landedOnSuccess(page)).toEqual({ session_id: data.id, transactionId });
      await expectPaid(data.id, transactionId, 'bankily');
      await context.close();
    });

    it('with JavaScript disabled, the pending page reloads itself (meta refresh) and shows the receipt once paid', async () => {
      const transactionId = txId('nojs-pending');
      const { data } = await createSession(t, sk, { transactionId, amount: 650 });
      const context = await newContext(b, { javaScriptEnabled: false, locale: 'fr-FR' });
      const page = await context.newPage();
      await page.goto(`${base}/checkout/${data.id}`);
      await page.check(`input[name=paymentMethodId][value="${methods.masrivi}"]`);
      await page.fill('#phoneNumber', '22129003');
      await page.click('button.pay');
      await page.waitForSelector('[data-state=pending]', WAIT);
      const list = await t.http
        .get(`/api/v1/payment?transactionId=${transactionId}`)
        .set('Authorization', sk);
      const [payment] = list.body.data as { id: string }[];
      await t.http
        .post(`/api/v1/payment/${payment.id}/simulate-transfer`)
        .set('Authorization', sk)
        .send({})
        .expect(200);
      // Nothing is clicked: the page's own refresh brings the receipt.
      await page.waitForSelector('[data-state=completed]', WAIT);
      expect(page.url()).toBe(`${base}/checkout/${data.id}`);
      await context.close();
    });
  });
});
