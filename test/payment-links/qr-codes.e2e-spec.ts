import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import type { Response } from 'supertest';
import { newTenant, startTestApp, TestApp } from '../helpers/app';
import { createLink } from '../helpers/payment-links';

/*
 * A payment link's QR code (docs/payment-links.md): decoded back to the link's URL by a real
 * decoder (jsQR, reading the PNG's pixels as pngjs decodes them), with error correction M, and
 * cacheable by its ETag.
 */

// Drawing and decoding megapixel images is CPU work: minutes on a loaded machine.
jest.setTimeout(240_000);

const PUBLIC_URL = 'https://pay.example.mr';
let t: TestApp;
let sk: string;
beforeAll(async () => {
  t = await startTestApp({ PUBLIC_URL });
  sk = (await newTenant(t)).sandbox.secretKey;
});
afterAll(() => t.close());

/** supertest gives binary bodies as Buffers with this parser. */
const binary = (res: Response, done: (err: Error | null, body: Buffer) => void) => {
  const chunks: Buffer[] = [];
  res.on('data', (c: Buffer) => chunks.push(c));
  res.on('end', () => done(null, Buffer.concat(chunks)));
};

async function png(path: string) {
  const res = await t.http.get(path).buffer(true).parse(binary);
  return { res, image: res.status === 200 ? PNG.sync.read(res.body as Buffer) : null };
}

/**
 * The error correction level written in the symbol's format information (ISO/IEC 18004 §7.9):
 * the 15 bits beside the top-left finder pattern, read down column 8 (skipping the timing row),
 * unmasked with 101010000010010; their first two bits are the level (01 L, 00 M, 11 Q, 10 H).
 */
function errorCorrectionLevel(image: PNG): string {
  const dark = (x: number, y: number) => image.data[(y * image.width + x) * 4] < 128;
  // The symbol's top-left corner and module size, from the first finder pattern's top row.
  let top = -1;
  let left = -1;
  for (let y = 0; y < image.height && top < 0; y++)
    for (let x = 0; x < image.width; x++)
      if (dark(x, y)) {
        top = y;
        left = x;
        break;
      }
  let width = 0;
  while (dark(left + width, top)) width++;
  const module = width / 7;
  const at = (col: number, row: number) =>
    dark(Math.floor(left + (col + 0.5) * module), Math.floor(top + (row + 0.5) * module));
  const rows = [0, 1, 2, 3, 4, 5, 7, 8];
  let bits = 0;
  rows.forEach((row, i) => {
    if (at(8, row)) bits |= 1 << i;
  });
  // Bits 8 to 14 are beside the bottom-left finder pattern, column 8 too: the level is in 13 and 14.
  const size = Math.round((image.width - 2 * left) / module);
  for (let i = 8; i < 15; i++) if (at(8, size - 15 + i)) bits |= 1 << i;
  const level = ((bits ^ 0b101010000010010) >> 13) & 0b11;
  return { 0b01: 'L', 0b00: 'M', 0b11: 'Q', 0b10: 'H' }[level]!;
}

it('serves the PNG (512 px by default) that a decoder reads back to the link URL, error correction M', async () => {
  const link = await createLink(t, sk);
  const { res, image } = await png(`/l/${link.code}/qr.png`);
  expect(res.status).toBe(200);
  expect(res.headers['content-type']).toBe('image/png');
  expect([image!.width, image!.height]).toEqual([512, 512]);
  const decoded = jsQR(new Uint8ClampedArray(image!.data), image!.width, image!.height);
  expect(decoded?.data).toBe(`${PUBLIC_URL}/l/${link.code}`);
  expect(decoded?.data).toBe(link.url);
  expect(errorCorrectionLevel(image!)).toBe('M');
});

it('draws the sizes asked for, 128 to 1024 pixels, each readable; other sizes are 400', async () => {
  const link = await createLink(t, sk);
  for (const size of [128, 1024]) {
    const { image } = await png(`/l/${link.code}/qr.png?size=${size}`);
    expect([image!.width, image!.height]).toEqual([size, size]);
    expect(jsQR(new Uint8ClampedArray(image!.data), size, size)?.data).toBe(link.url);
  }
  for (const size of ['127', '1025', 'abc', '512.5', ''])
    expect((await t.http.get(`/l/${link.code}/qr.png?size=${size}`)).status).toBe(400);
});

it('serves the SVG of qrCodeUrl, the same symbol as the PNG', async () => {
  const link = await createLink(t, sk);
  const path = new URL(link.qrCodeUrl).pathname;
  expect(path).toBe(`/l/${link.code}/qr.svg`);
  const res = await t.http.get(path).buffer(true).parse(binary);
  expect(res.status).toBe(200);
  expect(res.headers['content-type']).toBe('image/svg+xml');
  const svg = (res.body as Buffer).toString();
  expect(svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" width="512" height="512"/);
  expect(svg).not.toMatch(/<script|on\w+=/i);
  // Its modules are the PNG's: the SVG's viewBox is the symbol and its quiet zone, module for module.
  const modules = Number(/viewBox="0 0 (\d+) \d+"/.exec(svg)![1]);
  const { image } = await png(`/l/${link.code}/qr.png?size=${modules * 10}`);
  expect(jsQR(new Uint8ClampedArray(image!.data), image!.width, image!.height)?.data).toBe(link.url);
});

it('is cacheable: a day, with an ETag that answers 304 when the browser has it', async () => {
  const link = await createLink(t, sk);
  for (const path of [`/l/${link.code}/qr.svg`, `/l/${link.code}/qr.png?size=256`]) {
    const first = await t.http.get(path);
    expect(first.headers['cache-control']).toBe('public, max-age=86400');
    const etag = first.headers.etag;
    expect(etag).toMatch(/^"qr-[\w-]+"$/);
    const again = await t.http.get(path).set('if-none-match', etag);
    expect(again.status).toBe(304);
    expect(again.headers.etag).toBe(etag);
  }
  const svg = (await t.http.get(`/l/${link.code}/qr.svg`)).headers.etag;
  const png512 = (await t.http.get(`/l/${link.code}/qr.png`)).headers.etag;
  const png256 = (await t.http.get(`/l/${link.code}/qr.png?size=256`)).headers.etag;
  expect(new Set([svg, png512, png256]).size).toBe(3);
});

it('answers 404 for an unknown code, and still draws the code of a link that takes no payment', async () => {
  expect((await t.http.get('/l/ZZZZZZZZZZ/qr.svg')).status).toBe(404);
  expect((await t.http.get('/l/nope/qr.png')).status).toBe(404);
  const link = await createLink(t, sk);
  await t.http.patch(`/api/v1/payment-links/${link.id}`).set('Authorization', sk).send({ active: false });
  expect((await t.http.get(`/l/${link.code}/qr.svg`)).status).toBe(200);
});
