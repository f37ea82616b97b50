import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import type { InvoiceJson } from '../../src/invoices/invoice';
import type { CreatedOrganization } from '../../src/organizations/organizations.service';
import { newTenant, startTestApp, TestApp } from '../helpers/app';
import { catalog, createSubscription, invoicesOf } from '../helpers/billing';

/*
 * The invoice page's number and its PDF link: a public route beside the page (whoever has the
 * page's URL), in the page's language, read back with poppler-utils' pdftotext (installed by the
 * test set-up: a missing tool fails these tests).
 */
let t: TestApp;
let a: { org: CreatedOrganization; invoice: InvoiceJson; externalUserId: string };
let b: { org: CreatedOrganization; invoice: InvoiceJson; externalUserId: string };
const dir = mkdtempSync(join(tmpdir(), 'invoice-page-pdf-'));

async function merchant(name: string) {
  const org = await newTenant(t, name);
  const sk = org.sandbox.secretKey;
  const c = await catalog(t, org);
  const s = await createSubscription(t, sk, { customerId: c.customer.id, priceId: c.price.id });
  const [invoice] = await invoicesOf(t, sk, s.id);
  return { org, invoice, externalUserId: c.customer.externalUserId as string };
}

beforeAll(async () => {
  t = await startTestApp();
  a = await merchant('Boutique Nouadhibou');
  b = await merchant('Pharmacie Kiffa');
}, 60_000);
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await t.close();
});

const path = (url: string) => new URL(url).pathname;
const binary = (req: request.Test) =>
  req.buffer(true).parse((res, cb) => {
    const chunks: Buffer[] = [];
    res.on('data', (c: Buffer) => chunks.push(c));
    res.on('end', () => cb(null, Buffer.concat(chunks)));
  });
const html = (href: string) => href.replace(/=/g, '&#x3D;');
const get = (p: string) => request(t.app.getHttpServer()).get(p);

function textOf(pdf: Buffer, name: string): string {
  const file = join(dir, `${name}.pdf`);
  writeFileSync(file, pdf);
  return execFileSync('pdftotext', ['-enc', 'UTF-8', file, '-']).toString();
}

describe('the invoice page: number and PDF', () => {
  it.each([
    ['fr', 'Numéro de facture', 'Télécharger la facture (PDF)', 'Facture'],
    ['ar', 'رقم الفاتورة', 'تنزيل الفاتورة (PDF)', 'فاتورة'],
    ['en', 'Invoice number', 'Download the invoice (PDF)', 'Invoice'],
  ])(
    'in %s: shows the number and links to the PDF in its language, which has the number',
    async (lang, label, link, word) => {
      const page = await get(`${path(a.invoice.checkoutUrl)}?lang=${lang}`);
      expect(page.status).toBe(200);
      expect(a.invoice.number).toMatch(/^[A-Z0-9]+-\d{6}$/);
      expect(page.text).toContain(label);
      expect(page.text).toMatch(new RegExp(`data-testid="number"><bdi>${a.invoice.number}</bdi>`));
      const href = `/checkout/invoices/${a.invoice.id}/pdf?lang=${lang}`;
      // (Handlebars writes `=` as `&#x3D;` in an attribute: the browser reads the same address.)
      expect(page.text).toContain(`<a href="${html(href)}" data-testid="pdf-link">${link}</a>`);

      const pdf = await binary(get(href));
      expect(pdf.status).toBe(200);
      expect(pdf.headers['content-type']).toBe('application/pdf');
      expect(pdf.headers['content-disposition']).toBe(`inline; filename="${a.invoice.number}.pdf"`);
      expect(pdf.headers['cache-control']).toBe('no-store');
      const body = pdf.body as Buffer;
      expect(body.subarray(0, 5).toString()).toBe('%PDF-');
      const text = textOf(body, `a-${lang}`);
      expect(text).toContain(a.invoice.number);
      expect(text).toContain(word);
      expect(text).toContain('Boutique Nouadhibou');
    },
  );

  it('the link follows the language the page chose (Accept-Language)', async () => {
    const page = await get(path(a.invoice.checkoutUrl)).set('accept-language', 'ar');
    expect(page.text).toContain(html(`/checkout/invoices/${a.invoice.id}/pdf?lang=ar`));
  });

  it("an unknown id, or one that is not an invoice, is the page's 404 and no PDF", async () => {
    for (const id of ['00000000-0000-4000-8000-000000000000', a.invoice.subscriptionId, 'not-a-uuid']) {
      const res = await get(`/checkout/invoices/${id}/pdf?lang=en`);
      expect(res.status).toBe(404);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
    }
  });

  it('answers the PDF of an invoice of 0 too (paid at once, no payment request, so no page to pay)', async () => {
    const sk = a.org.sandbox.secretKey;
    const c = await catalog(t, a.org);
    const coupon = await t.http
      .post('/api/v1/coupons')
      .set('Authorization', sk)
      .send({ percentOff: 100, duration: 'once' });
    expect(coupon.status).toBe(200);
    const s = await createSubscription(t, sk, {
      customerId: c.customer.id,
      priceId: c.price.id,
      coupon: coupon.body.data.code,
    });
    const [free] = await invoicesOf(t, sk, s.id);
    expect(free).toMatchObject({ status: 'paid', amount: '0.00' });
    const res = await binary(get(`/checkout/invoices/${free.id}/pdf?lang=en`));
    expect(res.status).toBe(200);
    expect(res.headers['content-disposition']).toBe(`inline; filename="${free.number}.pdf"`);
    expect(textOf(res.body as Buffer, 'free-en')).toContain(free.number);
  });

  it('gives nothing more than the page does: its own merchant, the phone masked, no external id', async () => {
    // The other organization's invoice, by its page's URL: its own merchant and number, nothing of a's.
    const res = await binary(get(`/checkout/invoices/${b.invoice.id}/pdf?lang=fr`));
    expect(res.status).toBe(200);
    const text = textOf(res.body as Buffer, 'b-fr');
    expect(text).toContain(b.invoice.number);
    expect(text).toContain('Pharmacie Kiffa');
    expect(text).not.toContain('Boutique Nouadhibou');
    expect(text).not.toContain(a.invoice.number);
    // The page masks the customer's phone and never shows their external id: so does its PDF ...
    expect(text).not.toContain('22123456');
    expect(text).toContain('••••••56');
    expect(text).not.toContain(b.externalUserId);
    // ... while the merchant's own (secret key) PDF has both.
    const own = await binary(
      get(`/api/v1/invoices/${b.invoice.id}/pdf?lang=fr`).set('Authorization', b.org.sandbox.secretKey),
    );
    const ownText = textOf(own.body as Buffer, 'b-own');
    expect(ownText).toContain('22123456');
    expect(ownText).toContain(b.externalUserId);
    // And a's secret key does not read b's invoice through the API.
    const other = await get(`/api/v1/invoices/${b.invoice.id}/pdf?lang=fr`).set(
      'Authorization',
      a.org.sandbox.secretKey,
    );
    expect(other.status).toBe(404);
  });
});
