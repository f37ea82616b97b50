import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Khoums } from '../../sdk/src';
import type { CreatedOrganization } from '../../src/organizations/organizations.service';
import { newTenant, startTestApp, TestApp } from '../helpers/app';
import { baseUrlOf, client, FaultyProxy, orderId, ProxiedRequest } from './helpers';

/*
 * The library's billing methods against the real service: the invoice PDF downloaded as bytes (in
 * French, Arabic and English, read back with pdftotext), retried on a dropped connection, and its
 * errors; a prorated plan change; coupons applied, replaced and removed.
 */

let t: TestApp;
let org: CreatedOrganization;
let sk: Khoums;
let proxy: FaultyProxy;
let proxied: string;
const dir = mkdtempSync(join(tmpdir(), 'sdk-pdf-'));
beforeAll(async () => {
  t = await startTestApp();
  org = await newTenant(t, 'Librairie Nouakchott');
  sk = client(baseUrlOf(t), org.sandbox.secretKey);
  proxy = new FaultyProxy(`http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`);
  proxied = await proxy.start();
});
afterAll(async () => {
  await proxy.stop();
  await t.close();
  rmSync(dir, { recursive: true, force: true });
});

const textOf = (bytes: Uint8Array, name: string): string => {
  const file = join(dir, `${name}.pdf`);
  writeFileSync(file, bytes);
  return execFileSync('pdftotext', ['-enc', 'UTF-8', file, '-']).toString();
};

async function subscribed(quantity = 1) {
  const product = await sk.products.create({ name: 'Cahiers' });
  const price = await sk.prices.create({ productId: product.id, amount: 1200, interval: 'monthly' });
  const customer = await sk.customers.create({ externalUserId: orderId('user'), phone: '22123456' });
  const subscription = await sk.subscriptions.create({
    customerId: customer.id,
    priceId: price.id,
    quantity,
  });
  return { product, price, customer, subscription };
}

describe('invoices.pdf', () => {
  it.each([
    ['fr', 'Facture'],
    ['ar', 'فاتورة'],
    ['en', 'Invoice'],
  ] as const)('in %s: the PDF’s bytes, with the invoice’s number and amount', async (lang, title) => {
    const { subscription } = await subscribed(2);
    const [invoice] = (await sk.invoices.list({ subscriptionId: subscription.id })).data;
    const bytes = await sk.invoices.pdf(invoice.id, { lang });
    expect(bytes).toBeInstanceOf(Uint8Array);
    expect(Buffer.from(bytes.subarray(0, 5)).toString('latin1')).toBe('%PDF-');
    const text = textOf(bytes, `sdk-${lang}`);
    expect(text).toContain(title);
    expect(text).toContain(invoice.number);
    expect(text.replace(/[\s\u202f\u00a0,.]/g, '')).toContain('2400');
  });

  it('defaults to French', async () => {
    const { subscription } = await subscribed();
    const [invoice] = (await sk.invoices.list({ subscriptionId: subscription.id })).data;
    expect(textOf(await sk.invoices.pdf(invoice.id), 'sdk-default')).toContain('Facture');
  });

  it('is retried as a read when the connection drops, and gives the whole document', async () => {
    const { subscription } = await subscribed();
    const [invoice] = (await sk.invoices.list({ subscriptionId: subscription.id })).data;
    const route = `/api/v1/invoices/${invoice.id}/pdf`;
    const on = (r: ProxiedRequest) => r.method === 'GET' && new URL(r.url, 'http://x').pathname === route;
    proxy.fault({ kind: 'drop-before' }, on, 1);
    const k = client(proxied, org.sandbox.secretKey, { sleep: () => Promise.resolve() });
    const bytes = await k.invoices.pdf(invoice.id, { lang: 'en' });
    expect(proxy.count('GET', route)).toBe(2);
    expect(textOf(bytes, 'sdk-retried')).toContain(invoice.number);
  });

  it('throws the API’s error: 404 Invoice not found, 422 for a language it does not write', async () => {
    const missing = await sk.invoices.pdf('00000000-0000-4000-8000-000000000000').catch((e: unknown) => e);
    expect(missing).toMatchObject({ status: 404, message: 'Invoice not found' });
    const { subscription } = await subscribed();
    const [invoice] = (await sk.invoices.list({ subscriptionId: subscription.id })).data;
    const wrong = await sk.invoices.pdf(invoice.id, { lang: 'de' as 'fr' }).catch((e: unknown) => e);
    expect(wrong).toMatchObject({ status: 422 });
  });
});

describe('subscriptions.change and coupons', () => {
  it('a prorated change now: the new terms, and the prorated invoice listed with its line', async () => {
    const { product, subscription } = await subscribed();
    const bigger = await sk.prices.create({ productId: product.id, amount: 3000, interval: 'monthly' });
    const changed = await sk.subscriptions.change(subscription.id, { priceId: bigger.id, quantity: 2 });
    expect(changed).toMatchObject({ priceId: bigger.id, quantity: 2, pendingChange: null });
    const prorated = (await sk.invoices.list({ subscriptionId: subscription.id })).data.filter(
      (i) => i.lines[0].proration,
    );
    expect(prorated).toHaveLength(1);
    expect(Number(prorated[0].amount)).toBeGreaterThan(0);
    const later = await sk.subscriptions.change(subscription.id, { quantity: 3, at: 'period_end' });
    expect(later.pendingChange).toMatchObject({ priceId: bigger.id, quantity: 3 });
  });

  it('coupons: created, applied, replaced and removed; archived ones are refused', async () => {
    const { subscription } = await subscribed();
    const tenOff = await sk.coupons.create({ percentOff: 10, duration: 'forever' });
    const flat = await sk.coupons.create({
      code: orderId('FLAT')
        .toUpperCase()
        .slice(-30)
        .replace(/[^A-Z0-9_-]/g, ''),
      amountOff: 100,
      duration: 'repeating',
      durationInPeriods: 2,
    });
    expect((await sk.coupons.get(tenOff.id)).code).toBe(tenOff.code);
    const listed = (await sk.coupons.list()).data.map((c) => c.id);
    expect(listed).toEqual(expect.arrayContaining([tenOff.id, flat.id]));
    expect(
      (await sk.subscriptions.applyDiscount(subscription.id, { coupon: tenOff.code })).discount,
    ).toMatchObject({
      couponId: tenOff.id,
    });
    expect(
      (await sk.subscriptions.applyDiscount(subscription.id, { coupon: flat.id })).discount,
    ).toMatchObject({
      couponId: flat.id,
      endsAfterPeriods: 2,
      periodsApplied: 0,
    });
    expect((await sk.subscriptions.removeDiscount(subscription.id)).discount).toBeNull();
    expect((await sk.coupons.archive(tenOff.id)).archived).toBe(true);
    const refused = await sk.subscriptions
      .applyDiscount(subscription.id, { coupon: tenOff.id })
      .catch((e: unknown) => e);
    expect(refused).toMatchObject({ status: 400, message: 'Coupon is not valid' });
  });
});
