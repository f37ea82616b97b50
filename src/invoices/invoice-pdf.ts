import type { InvoiceJson } from './invoice';
import { INVOICE_PDF_TEXTS, InvoicePdfLanguage } from './invoice-pdf-texts';

/*
 * The PDF invoice (docs/billing.md "The PDF invoice"), drawn by pdfkit with Cairo (a font of Latin
 * and Arabic shipped by an npm package, so nothing is installed on the machine). fontkit shapes
 * Arabic (joining forms) but lays out a string in one direction: an Arabic page is drawn word by word
 * from the right, each Arabic word shaped on its own and each run of Latin words or numbers left to
 * right, so a number or an invoice number reads the right way inside Arabic text.
 */

const FONT = require.resolve('@expo-google-fonts/cairo/400Regular/Cairo_400Regular.ttf');
const FONT_BOLD = require.resolve('@expo-google-fonts/cairo/700Bold/Cairo_700Bold.ttf');

/** What the invoice shows besides its record: the merchant (from going live) and the customer. */
export interface InvoicePdfParty {
  merchant: { name: string; legalName: string | null; address: string | null; taxId: string | null };
  customer: { externalUserId: string | null; phone: string | null };
}

const ARABIC = /[\u0600-\u06FF\u0750-\u077F\uFB50-\uFDFF\uFE70-\uFEFF]/;
const PAGE = { width: 595.28, margin: 48 };

const day = (iso: string | null) => (iso ? iso.slice(0, 10) : '');

/** The invoice as a PDF, in `lang`. */
export async function invoicePdf(
  invoice: InvoiceJson,
  party: InvoicePdfParty,
  lang: InvoicePdfLanguage,
): Promise<Buffer> {
  const t = INVOICE_PDF_TEXTS[lang];
  const rtl = lang === 'ar';
  // Loaded on the first PDF, not with the application: pdfkit with its font and image code is a
  // few hundred modules' worth of start-up (every test file that starts an app paid it).
  const [{ default: PDFDocument }, { default: QRCode }] = await Promise.all([
    import('pdfkit'),
    import('qrcode'),
  ]);
  const qr = await QRCode.toBuffer(invoice.checkoutUrl, { errorCorrectionLevel: 'M', margin: 4, width: 240 });
  const doc = new PDFDocument({
    size: 'A4',
    margin: PAGE.margin,
    info: { Title: `${t.invoice} ${invoice.number}` },
  });
  doc.registerFont('regular', FONT);
  doc.registerFont('bold', FONT_BOLD);
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve) => doc.on('end', () => resolve(Buffer.concat(chunks))));

  const left = PAGE.margin;
  const right = PAGE.width - PAGE.margin;
  /** One line of text at `y`: from the start of the line (the left, or the right on an Arabic page). */
  const line = (
    text: string,
    y: number,
    o: { size?: number; bold?: boolean; at?: number; end?: boolean } = {},
  ) => {
    doc.font(o.bold ? 'bold' : 'regular').fontSize(o.size ?? 10);
    const from = o.at ?? (rtl ? right : left);
    const towardsRight = rtl ? !!o.end : !o.end;
    if (!rtl || !ARABIC.test(text)) {
      const width = doc.widthOfString(text);
      doc.text(text, towardsRight ? from : from - width, y, { lineBreak: false });
      return;
    }
    // Visual order: each Arabic word on its own, runs of other words kept together, right to left.
    const runs: string[] = [];
    for (const word of text.split(' ')) {
      const last = runs.length - 1;
      if (last >= 0 && !ARABIC.test(word) && !ARABIC.test(runs[last])) runs[last] += ` ${word}`;
      else runs.push(word);
    }
    const space = doc.widthOfString(' ');
    const widths = runs.map((r) => doc.widthOfString(r));
    const total = widths.reduce((a, b) => a + b, 0) + space * (runs.length - 1);
    let x = (towardsRight ? from + total : from) - total;
    for (let i = runs.length - 1; i >= 0; i--) {
      doc.text(runs[i], x, y, { lineBreak: false });
      x += widths[i] + space;
    }
  };
  const money = (decimal: string) => `${decimal} ${t.currency}`;

  // Header: the title and number, the dates and status.
  line(`${t.invoice} ${invoice.number}`, 48, { size: 20, bold: true });
  line(`${t.issued}: ${day(invoice.createdAt)}   ${t.due}: ${day(invoice.dueDate)}`, 80);
  line(`${t.status}: ${t.statuses[invoice.status]}`, 96, { bold: true });

  // The merchant and the customer.
  const merchant = party.merchant;
  let y = 130;
  line(t.from, y, { bold: true });
  for (const text of [
    merchant.legalName ?? merchant.name,
    merchant.address,
    merchant.taxId === null ? null : `${t.taxId}: ${merchant.taxId}`,
  ])
    if (text) line(text, (y += 15));
  y = 130;
  const middle = PAGE.width / 2;
  line(t.billedTo, y, { bold: true, at: middle });
  if (party.customer.externalUserId !== null) line(party.customer.externalUserId, (y += 15), { at: middle });
  if (party.customer.phone) line(`${t.phone}: ${party.customer.phone}`, (y += 15), { at: middle });

  // The lines.
  y = 220;
  const columns = rtl
    ? { description: right, quantity: right - 260, unit: right - 200, amount: right - 100 }
    : { description: left, quantity: left + 260, unit: left + 300, amount: left + 400 };
  line(t.description, y, { bold: true, at: columns.description });
  line(t.quantity, y, { bold: true, at: columns.quantity });
  line(t.unitAmount, y, { bold: true, at: columns.unit });
  line(t.amount, y, { bold: true, at: columns.amount });
  doc
    .moveTo(left, y + 18)
    .lineTo(right, y + 18)
    .lineWidth(0.5)
    .stroke();
  for (const l of invoice.lines) {
    y += 24;
    line(l.proration ? `${l.description} (${t.proration})` : l.description, y, { at: columns.description });
    line(String(l.quantity), y, { at: columns.quantity });
    line(l.unitAmount, y, { at: columns.unit });
    line(l.amount, y, { at: columns.amount });
    line(`${t.period}: ${day(l.periodStart)} – ${day(l.periodEnd)}`, (y += 14), {
      size: 8,
      at: columns.description,
    });
  }

  // The totals.
  y += 30;
  const totals: [string, string, boolean][] = [[t.subtotal, money(invoice.subtotal), false]];
  if (invoice.discount !== '0.00') totals.push([t.discount, money(`-${invoice.discount}`), false]);
  if (invoice.creditApplied !== '0.00') totals.push([t.credit, money(`-${invoice.creditApplied}`), false]);
  totals.push([t.total, money(invoice.amount), true]);
  for (const [label, value, bold] of totals) {
    line(label, y, { bold, at: columns.unit });
    line(value, y, { bold, at: rtl ? left : right, end: true });
    y += 18;
  }

  // The pay link as a QR code, while there is something to pay.
  if (invoice.status === 'pending') {
    y += 20;
    doc.image(qr, rtl ? right - 120 : left, y, { width: 120 });
    line(t.pay, y + 125, { size: 9 });
    line(invoice.checkoutUrl, y + 140, { size: 8 });
  }
  doc.end();
  return done;
}
