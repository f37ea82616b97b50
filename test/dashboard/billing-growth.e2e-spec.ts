import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestApp, TestApp } from '../helpers/app';
import { catalog, createPrice, invoicesOf } from '../helpers/billing';
import { formatMru } from '../../src/common/i18n/languages';
import { DASHBOARD_ENV, signedInOwner, unescapeHtml } from '../helpers/dashboard';

/**
 * The dashboard's pages show what billing that grows adds (docs/dashboard.md "Billing"): the
 * invoice's number, subtotal, discount, credit, lines and its PDF; the subscription's quantity,
 * discount and change at period end.
 */
let t: TestApp;
const dir = mkdtempSync(join(tmpdir(), 'dashboard-pdf-'));
beforeAll(async () => {
  t = await startTestApp(DASHBOARD_ENV);
});
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await t.close();
});

it('an invoice page shows its number, subtotal, discount, credit and lines, and links its PDF in the page’s language', async () => {
  const { org, browser } = await signedInOwner(t);
  const sk = org.sandbox.secretKey;
  const c = await catalog(t, org);
  await t.query(`UPDATE customers SET credit_balance = 300 WHERE id = $1`, [c.customer.id]);
  const coupon = (
    await t.http.post('/api/v1/coupons').set('Authorization', sk).send({ percentOff: 10, duration: 'once' })
  ).body.data;
  const s = (
    await t.http
      .post('/api/v1/subscriptions')
      .set('Authorization', sk)
      .send({ customerId: c.customer.id, priceId: c.price.id, quantity: 2, coupon: coupon.code })
  ).body.data;
  const [invoice] = await invoicesOf(t, sk, s.id);
  const page = await browser.get(`/dashboard/invoices/${invoice.id}`);
  expect(page.status).toBe(200);
  const html = unescapeHtml(page.text);
  expect(html).toContain(`data-testid="invoice-number">${invoice.number}<`);
  expect(html).toContain('data-testid="invoice-subtotal">3000.00<');
  expect(html).toContain('data-testid="invoice-discount">−300.00<');
  expect(html).toContain('data-testid="invoice-credit">−300.00<');
  expect(html).toMatch(
    /data-testid="invoice-line"><td>Premium<\/td><td><bdi>2<\/bdi><\/td><td><bdi>1500.00<\/bdi><\/td><td><bdi>3000.00<\/bdi>/,
  );

  const pdf = await browser.agent
    .get(`/dashboard/invoices/${invoice.id}/pdf`)
    .set('x-forwarded-for', browser.ip)
    .set('accept-language', 'en')
    .buffer(true)
    .parse((res, cb) => {
      const chunks: Buffer[] = [];
      res.on('data', (ch: Buffer) => chunks.push(ch));
      res.on('end', () => cb(null, Buffer.concat(chunks)));
    });
  expect(pdf.status).toBe(200);
  expect(pdf.headers['content-type']).toBe('application/pdf');
  const file = join(dir, 'dashboard.pdf');
  writeFileSync(file, pdf.body as Buffer);
  const text = execFileSync('pdftotext', ['-enc', 'UTF-8', file, '-']).toString();
  expect(text).toContain(invoice.number);
  expect(text).toContain('Total due');
  expect(text).toContain('2400.00');

  // Another organization's invoice is not found from this dashboard.
  const other = await signedInOwner(t, 'Other');
  expect((await other.browser.get(`/dashboard/invoices/${invoice.id}/pdf`)).status).toBe(404);
});

it('a subscription page shows its quantity, discount and change at period end', async () => {
  const { org, browser } = await signedInOwner(t);
  const sk = org.sandbox.secretKey;
  const c = await catalog(t, org);
  const pro = await createPrice(t, sk, c.product.id, { amount: 2500 });
  const coupon = (
    await t.http
      .post('/api/v1/coupons')
      .set('Authorization', sk)
      .send({ amountOff: 100, duration: 'forever' })
  ).body.data;
  const s = (
    await t.http
      .post('/api/v1/subscriptions')
      .set('Authorization', sk)
      .send({ customerId: c.customer.id, priceId: c.price.id, quantity: 12, coupon: coupon.id })
  ).body.data;
  await t.http
    .post(`/api/v1/subscriptions/${s.id}/change`)
    .set('Authorization', sk)
    .send({ priceId: pro.id, quantity: 20, at: 'period_end' });
  const html = unescapeHtml((await browser.get(`/dashboard/subscriptions/${s.id}`)).text);
  expect(html).toContain('data-testid="subscription-quantity">12<');
  expect(html).toContain(
    `data-testid="subscription-discount"><span class="mono"><bdi>${coupon.id}</bdi></span> · <bdi>1/∞</bdi>`,
  );
  expect(html).toContain(`<bdi>${pro.id}</bdi></span> × <bdi>20</bdi>`);
});

it('a customer page shows the credit a prorated downgrade left, in the page’s language', async () => {
  const { org, browser } = await signedInOwner(t);
  const sk = org.sandbox.secretKey;
  const c = await catalog(t, org);
  const s = (
    await t.http
      .post('/api/v1/subscriptions')
      .set('Authorization', sk)
      .send({ customerId: c.customer.id, priceId: c.price.id, quantity: 3 })
  ).body.data;
  const zero = unescapeHtml((await browser.get(`/dashboard/customers/${c.customer.id}`)).text);
  expect(zero).toContain(`data-testid="customer-credit">${formatMru(0, 'en')}<`);
  const change = await t.http
    .post(`/api/v1/subscriptions/${s.id}/change`)
    .set('Authorization', sk)
    .send({ quantity: 1, prorate: true });
  expect(change.status).toBe(200);
  const customer = (await t.http.get(`/api/v1/customers?id=${c.customer.id}`).set('Authorization', sk)).body
    .data[0];
  expect(customer.creditBalance).toBeGreaterThan(0);
  const html = unescapeHtml((await browser.get(`/dashboard/customers/${c.customer.id}`)).text);
  expect(html).toContain(`data-testid="customer-credit">${formatMru(customer.creditBalance, 'en')}<`);
});
