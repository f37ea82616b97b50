import { Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';

/*
 * A payment link's QR code (docs/payment-links.md "The QR code"): its URL encoded by the `qrcode`
 * library (a maintained encoder, no code of ours), error correction M (15% of the symbol may be
 * lost: a printed code with a crease or a stain still reads), the standard quiet zone of 4 modules.
 */

export const QR_PNG_SIZE = { min: 128, max: 1024, default: 512 } as const;

/** The width the SVG says it has; it scales without loss. */
const SVG_WIDTH = 512;

export type QrFormat = 'svg' | 'png';

export interface QrImage {
  body: Buffer;
  contentType: string;
  etag: string;
}

/** The PNG's size from `?size=`: a whole number of pixels from 128 to 1024 (512 when absent); else null. */
export function pngSizeOf(value: unknown): number | null {
  if (value === undefined) return QR_PNG_SIZE.default;
  if (typeof value !== 'string' || !/^\d{3,4}$/.test(value)) return null;
  const size = Number(value);
  return size >= QR_PNG_SIZE.min && size <= QR_PNG_SIZE.max ? size : null;
}

/** The images most asked for, kept: a PNG of 1024 px costs tens of milliseconds of CPU to draw. */
const CACHED_IMAGES = 256;

/**
 * Draws the QR codes of links' URLs, and keeps the latest. An image depends only on its URL, format
 * and size, so its ETag is a hash of them, known before drawing: a browser or CDN that has it gets
 * 304 for nothing.
 */
@Injectable()
export class QrCodes {
  private readonly cache = new Map<string, QrImage>();

  etagOf(url: string, format: QrFormat, size: number): string {
    const hash = createHash('sha256').update(`${format}\n${size}\n${url}`).digest('base64url');
    return `"qr-${hash.slice(0, 27)}"`;
  }

  async image(url: string, format: QrFormat, size: number): Promise<QrImage> {
    const etag = this.etagOf(url, format, size);
    const cached = this.cache.get(etag);
    if (cached) {
      // Most recently used last: the first key is the one to drop.
      this.cache.delete(etag);
      this.cache.set(etag, cached);
      return cached;
    }
    // Loaded on the first image, not with the application (as invoice-pdf.ts loads it).
    const { default: QRCode } = await import('qrcode');
    const image: QrImage =
      format === 'svg'
        ? {
            body: Buffer.from(
              await QRCode.toString(url, {
                type: 'svg',
                errorCorrectionLevel: 'M',
                margin: 4,
                width: SVG_WIDTH,
              }),
            ),
            contentType: 'image/svg+xml',
            etag,
          }
        : {
            body: await QRCode.toBuffer(url, {
              type: 'png',
              errorCorrectionLevel: 'M',
              margin: 4,
              width: size,
            }),
            contentType: 'image/png',
            etag,
          };
    this.cache.set(etag, image);
    if (this.cache.size > CACHED_IMAGES) this.cache.delete(this.cache.keys().next().value!);
    return image;
  }
}
