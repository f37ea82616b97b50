import { createHmac, randomBytes } from 'node:crypto';

/*
 * Time-based one-time passwords (RFC 6238 over RFC 4226's HOTP): HMAC-SHA-1, 6 digits, 30-second
 * steps, the secret shown to authenticator apps in base32 (RFC 4648) inside an otpauth:// URI.
 */

export const TOTP_STEP_SECONDS = 30;
export const TOTP_DIGITS = 6;
const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

export function base32Encode(data: Buffer): string {
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of data) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32[(value << (5 - bits)) & 31];
  return out;
}

/** RFC 4226: the HMAC-SHA-1 of the 8-byte counter, dynamically truncated to `digits` digits. */
export function hotp(secret: Buffer, counter: number, digits = TOTP_DIGITS): string {
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(BigInt(counter));
  const mac = createHmac('sha1', secret).update(message).digest();
  const offset = mac[mac.length - 1] & 0x0f;
  const binary = mac.readUInt32BE(offset) & 0x7fffffff;
  return String(binary % 10 ** digits).padStart(digits, '0');
}

/** The time step of a moment (Unix time / 30 s). */
export const totpStep = (atMs: number): number => Math.floor(atMs / 1000 / TOTP_STEP_SECONDS);

/** RFC 6238: the code of the step `atMs` falls in. */
export function totp(secret: Buffer, atMs: number, digits = TOTP_DIGITS): string {
  return hotp(secret, totpStep(atMs), digits);
}

/**
 * The step whose code `code` is, among the current one and one step either side (clock skew),
 * and later than `lastUsedStep` (a code is used once); null when none.
 */
export function matchTotp(
  secret: Buffer,
  code: string,
  atMs: number,
  lastUsedStep: number | null,
): number | null {
  if (!/^[0-9]{6}$/.test(code)) return null;
  const now = totpStep(atMs);
  for (const step of [now - 1, now, now + 1]) {
    if (lastUsedStep !== null && step <= lastUsedStep) continue;
    if (hotp(secret, step) === code) return step;
  }
  return null;
}

export const newTotpSecret = (): Buffer => randomBytes(20);

/** The URI an authenticator app reads (as a QR code or typed): issuer Khoums, the operator's email. */
export function otpauthUri(secret: Buffer, email: string): string {
  const label = encodeURIComponent(`Khoums:${email}`);
  const query = new URLSearchParams({
    secret: base32Encode(secret),
    issuer: 'Khoums',
    algorithm: 'SHA1',
    digits: String(TOTP_DIGITS),
    period: String(TOTP_STEP_SECONDS),
  });
  return `otpauth://totp/${label}?${query.toString()}`;
}
