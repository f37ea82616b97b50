import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Messages } from '../../src/common/errors/messages';
import type { InvoiceJson } from '../../src/invoices/invoice';
import type { CreatedOrganization } from '../../src/organizations/organizations.service';
import { APPLICATION, appliedOrganization } from '../helpers/admin';
import { newTenant, startTestApp, TestApp } from '../helpers/app';
import { catalog, invoicesOf } from '../helpers/billing';
import { expect422, expectText } from '../helpers/http';

/*
 * The PDF invoice read back with Debian's poppler-utils (pdftotext, pdftoppm), which the test
 * set-up installs: a missing tool fails these tests, it never skips them.
 */

let t: TestApp;
let org: CreatedOrganization;
let sk: string;
let invoice: InvoiceJson;
const dir = mkdtempSync(join(tmpdir(), 'invoice-pdf-'));
beforeAll(async () => {
  t = await startTestApp();
  ({ org } = await appliedOrganization(t, 'Atar Commerce'));
  sk = org.sandbox.secretKey;
  const c = await catalog(t, org);
  const coupon = await t.http
    .post('/api/v1/coupons')
    .set('Authorization', sk)
    .send({ amountOff: 500, duration: 'once' });
  const s = await t.http
    .post('/api/v1/subscriptions')
    .set('Authorization', sk)
    .send({ customerId: c.customer.id, priceId: c.price.id, quantity: 3, coupon: coupon.body.data.code });
  [invoice] = await invoicesOf(t, sk, s.body.data.id);
}, 60_000);
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await t.close();
});

const pdfOf = async (lang: string, key = sk, id = invoice.id) =>
  t.http
    .get(`/api/v1/invoices/${id}/pdf?lang=${lang}`)
    .set('Authorization', key)
    .buffer(true)
    .parse((res, cb) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => cb(null, Buffer.concat(chunks)));
    });

function textOf(pdf: Buffer, name: string): string {
  const file = join(dir, `${name}.pdf`);
  writeFileSync(file, pdf);
  return execFileSync('pdftotext', ['-enc', 'UTF-8', file, '-']).toString();
}

/** Page 1 rendered in grey at 30 dpi: the share of its pixels that are not white. */
function inkOfPageOne(pdf: Buffer, name: string): number {
  const file = join(dir, `${name}.pdf`);
  writeFileSync(file, pdf);
  execFileSync('pdftoppm', ['-gray', '-r', '30', '-f', '1', '-l', '1', file, join(dir, name)]);
  const pgm = readFileSync(join(dir, `${name}-1.pgm`));
  // Binary PGM: "P5\n<width> <height>\n<max>\n" then one byte per pixel.
  const header = pgm.toString('latin1', 0, 40).match(/^P5\s+(\d+)\s+(\d+)\s+(\d+)\s/)!;
  const pixels = pgm.subarray(header[0].length);
  expect(pixels.length).toBe(Number(header[1]) * Number(header[2]));
  return pixels.filter((p) => p < 200).length / pixels.length;
}

describe('GET /invoices/:id/pdf', () => {
  it.each([
    ['fr', ['Facture', 'Total à payer', 'Remise']],
    ['en', ['Invoice', 'Total due', 'Discount']],
    ['ar', ['فاتورة', 'المبلغ المستحق', 'الخصم', 'المجموع الفرعي']],
  ])(
    'in %s: the number, the merchant from going live, the customer, the lines and the totals',
    async (lang, words) => {
      const res = await pdfOf(lang);
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('application/pdf');
      expect(res.headers['content-disposition']).toBe(`inline; filename="${invoice.number}.pdf"`);
      const pdf = res.body as Buffer;
      expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
      const text = textOf(pdf, lang);
      for (const expected of [
        invoice.number,
        APPLICATION.legalName,
        APPLICATION.address,
        APPLICATION.nif,
        'Premium',
        '1500.00', // unit
        '4500.00', // the line and the subtotal
        '500.00', // the discount
        '4000.00', // what is due
        invoice.checkoutUrl,
        ...words,
      ])
        expect(text).toContain(expected);
      expect(inkOfPageOne(pdf, lang)).toBeGreaterThan(0.005);
      // UPDATE_SCREENSHOTS=1: the samples of docs/billing.md "The PDF invoice".
      if (process.env.UPDATE_SCREENSHOTS && lang !== 'en') {
        const out = join(__dirname, '../../docs/screenshots', `invoice-pdf-${lang}`);
        execFileSync('pdftoppm', [
          '-png',
          '-r',
          '60',
          '-f',
          '1',
          '-l',
          '1',
          '-singlefile',
          join(dir, `${lang}.pdf`),
          out,
        ]);
      }
    },
  );

  it('reads Arabic in reading order: its words shaped, right to left, numbers left to right within', async () => {
    const text = textOf((await pdfOf('ar')).body as Buffer, 'ar-order');
    // pdftotext gives the logical (reading) order of a right-to-left line: the words as written.
    const title = text.split('\n').find((l) => l.includes('فاتورة'))!;
    expect(title.replace(/[\u200e\u200f\u202a-\u202e]/g, '')).toContain(`فاتورة ${invoice.number}`);
    const total = text.split('\n').find((l) => l.includes('المبلغ المستحق'));
    expect(total).toBeDefined();
    // Shaped: the Arabic letters are drawn with their joining forms, so the text comes back as letters, not boxes.
    expect(text).not.toMatch(/\uFFFD/);
  });

  it('answers 404 for another organization’s invoice, and 422 for a language it does not write', async () => {
    const other = await newTenant(t);
    const res = await t.http
      .get(`/api/v1/invoices/${invoice.id}/pdf`)
      .set('Authorization', other.sandbox.secretKey);
    expectText(res, 404, Messages.invoiceNotFound);
    expect422(
      await t.http.get(`/api/v1/invoices/${invoice.id}/pdf?lang=de`).set('Authorization', sk),
      'query',
      '/lang',
    );
  });

  it('is French by default', async () => {
    const res = await t.http
      .get(`/api/v1/invoices/${invoice.id}/pdf`)
      .set('Authorization', sk)
      .buffer(true)
      .parse((r, cb) => {
        const chunks: Buffer[] = [];
        r.on('data', (c: Buffer) => chunks.push(c));
        r.on('end', () => cb(null, Buffer.concat(chunks)));
      });
    expect(textOf(res.body as Buffer, 'default')).toContain('Facture');
  });
});
