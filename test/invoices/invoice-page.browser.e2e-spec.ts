import type { Page } from 'playwright-core';
import type { CreatedOrganization } from '../../src/organizations/organizations.service';
import { newTenant, startTestApp, TestApp } from '../helpers/app';
import { catalog, createSubscription, invoicesOf } from '../helpers/billing';
import { launchBrowser, newContext, screenshot, TestBrowser } from '../helpers/browser';

/*
 * A customer pays an invoice from its checkoutUrl (the link a merchant sends by SMS or WhatsApp)
 * in real Chromium, through the Sandbox bank simulator. Screenshots go to test-artifacts/.
 */
describe('paying an invoice from its checkoutUrl in Chromium', () => {
  const WAIT = { timeout: 15_000 };
  let t: TestApp;
  let b: TestBrowser;
  let org: CreatedOrganization;
  let sk: string;
  let base: string;
  let c: Awaited<ReturnType<typeof catalog>>;
  let methods: Record<'bankily' | 'masrivi' | 'sedad', string>;

  beforeAll(async () => {
    t = await startTestApp();
    const { port } = t.app.getHttpServer().address() as { port: number };
    base = `http://127.0.0.1:${port}`;
    b = await launchBrowser();
    org = await newTenant(t, 'Salle Nouadhibou Fitness');
    sk = org.sandbox.secretKey;
    c = await catalog(t, org, { amount: 2500 });
    await t.http
      .patch(`/api/v1/products/${c.product.id}`)
      .set('Authorization', sk)
      .send({ name: 'Abonnement mensuel' });
    const res = await t.http.get('/api/v1/payment-methods').set('Authorization', sk);
    methods = Object.fromEntries(
      (res.body.data as { type: string; id: string }[]).map((m) => [m.type, m.id]),
    ) as never;
  });
  afterAll(async () => {
    await b?.close();
    await t?.close();
  });

  /** A new subscription's first invoice, and its page on this test server. */
  async function invoice() {
    const s = await createSubscription(t, sk, { customerId: c.customer.id, priceId: c.price.id });
    const [inv] = await invoicesOf(t, sk, s.id);
    return { ...inv, page: `${base}${new URL(inv.checkoutUrl).pathname}` };
  }
  const apiStatus = async (id: string) =>
    (await t.http.get(`/api/v1/invoices/${id}`).set('Authorization', sk)).body.data.status as string;

  async function open(
    url: string,
    options: { locale?: string; javaScriptEnabled?: boolean } = {},
  ): Promise<Page> {
    const context = await newContext(b, options);
    const page = await context.newPage();
    const res = await page.goto(url);
    expect(res?.status()).toBe(200);
    return page;
  }

  it('shows the product, period and amount, pays with Sedad, and then shows the invoice paid', async () => {
    const inv = await invoice();
    const page = await open(inv.page, { locale: 'fr-FR' });
    expect(await page.getAttribute('html', 'lang')).toBe('fr');
    expect(await page.textContent('[data-testid=merchant]')).toBe('Salle Nouadhibou Fitness');
    expect(await page.textContent('[data-testid=product]')).toBe('Abonnement mensuel');
    expect((await page.textContent('[data-testid=amount]'))!.replace(/\s/g, ' ')).toBe('2 500 MRU');
    expect(await page.textContent('[data-testid=period]')).toMatch(
      /^du \d{1,2} \S+ \d{4} au \d{1,2} \S+ \d{4}$/,
    );
    // The customer's number masked beside an empty field; left empty, the page pays from it.
    expect(await page.inputValue('#phoneNumber')).toBe('');
    expect(await page.textContent('[data-testid=known-phone]')).toBe(
      'Laissez vide pour payer depuis le numéro ••••••56',
    );
    await screenshot(page, 'invoice-open-fr');

    await page.check(`input[name=paymentMethodId][value="${methods.sedad}"]`);
    await page.click('button.pay');
    await page.waitForSelector('[data-state=paid]', WAIT);
    expect(page.url()).toBe(inv.page);
    expect(await page.locator('form').count()).toBe(0);
    await screenshot(page, 'invoice-paid-fr');
    expect(await apiStatus(inv.id)).toBe('paid');
    await page.context().close();
  });

  it('pays with Bankily and its pass code, in Arabic, without JavaScript', async () => {
    const inv = await invoice();
    const page = await open(`${inv.page}?lang=ar`, { javaScriptEnabled: false });
    expect(await page.getAttribute('html', 'dir')).toBe('rtl');
    expect(await page.isChecked(`input[value="${methods.bankily}"]`)).toBe(true);
    await page.fill('#passCode', '4321');
    await page.click('button.pay');
    await page.waitForSelector('[data-state=paid]', WAIT);
    await screenshot(page, 'invoice-paid-ar-no-js');
    expect(await apiStatus(inv.id)).toBe('paid');
    await page.context().close();
  });

  it('waits on a payment pending at the bank, polling, and shows the invoice paid once the transfer completes', async () => {
    const inv = await invoice();
    const page = await open(inv.page, { locale: 'en-US' });
    await page.check(`input[value="${methods.masrivi}"]`);
    await page.fill('#phoneNumber', '22129003');
    await page.click('button.pay');
    await page.waitForSelector('[data-state=pending]', WAIT);
    await screenshot(page, 'invoice-pending');
    const [payment] = await t.query('SELECT id FROM payments WHERE payment_request_id = $1', [
      inv.paymentRequestId,
    ]);
    const done = await t.http
      .post(`/api/v1/payment/${payment.id}/simulate-transfer`)
      .set('Authorization', sk)
      .send({});
    expect(done.status).toBe(200);
    await page.waitForSelector('[data-state=paid]', WAIT);
    expect(await apiStatus(inv.id)).toBe('paid');
    await page.context().close();
  });

  it('shows a voided invoice as void, with nothing to pay', async () => {
    const inv = await invoice();
    await t.http.post(`/api/v1/subscriptions/${inv.subscriptionId}/cancel`).set('Authorization', sk).send({});
    const page = await open(inv.page, { locale: 'en-US' });
    expect(await page.getAttribute('[data-testid=state]', 'data-state')).toBe('void');
    expect(await page.textContent('[data-testid=message]')).toBe(
      'This invoice was voided: there is nothing to pay.',
    );
    expect(await page.locator('form').count()).toBe(0);
    await screenshot(page, 'invoice-void');
    await page.context().close();
  });

  it('loads nothing from another host and raises no CSP violation', async () => {
    const inv = await invoice();
    const context = await newContext(b);
    const page = await context.newPage();
    const requested: string[] = [];
    const problems: string[] = [];
    page.on('request', (r) => requested.push(r.url()));
    page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
    page.on('pageerror', (e) => problems.push(e.message));
    await page.goto(inv.page);
    expect(requested.filter((u) => !u.startsWith(base) && !u.startsWith('data:'))).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  });
});
