import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * How a bank gateway signs what it sends to Khoums (docs/bank-gateway.md "Incoming transfers"):
 * `x-khoums-signature: t=<unix seconds>,v1=<hex of HMAC-SHA256(secret, "<t>.<raw body>")>`.
 * Pure functions: the simulator signs with them, the API verifies with them.
 */

export const SIGNATURE_HEADER = 'x-khoums-signature';

/** How far a signature's time may be from ours, either way. */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

function mac(secret: string, timestamp: number, body: string | Buffer): Buffer {
  return createHmac('sha256', secret).update(`${timestamp}.`).update(body).digest();
}

/** The header's value for `body` sent at `timestamp` (unix seconds). */
export function signNotification(secret: string, body: string | Buffer, timestamp: number): string {
  return `t=${timestamp},v1=${mac(secret, timestamp, body).toString('hex')}`;
}

/**
 * Whether `header` signs `body` under `secret` within the tolerance of `nowSeconds`. Every `v1`
 * of the header is compared in constant time with the expected MAC (as bytes of equal length: a
 * value of another length or not hex never matches), so the time taken says nothing of how much
 * of a guess was right. A missing or malformed header, a stale or future time: false.
 */
export function verifyNotification(
  secret: string,
  header: string | undefined,
  body: string | Buffer,
  nowSeconds: number,
  toleranceSeconds = SIGNATURE_TOLERANCE_SECONDS,
): boolean {
  if (!secret || typeof header !== 'string' || header.length > 1000) return false;
  let timestamp: number | undefined;
  const given: string[] = [];
  for (const part of header.split(',')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const key = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (key === 't' && /^\d{1,12}$/.test(value)) timestamp = Number(value);
    else if (key === 'v1') given.push(value);
  }
  if (timestamp === undefined || given.length === 0) return false;
  if (Math.abs(nowSeconds - timestamp) > toleranceSeconds) return false;
  const expected = mac(secret, timestamp, body);
  let ok = false;
  for (const value of given) {
    const candidate = /^[0-9a-f]{64}$/i.test(value)
      ? Buffer.from(value, 'hex')
      : Buffer.alloc(expected.length);
    // Always compared (also a malformed value, against zeros), then counted only when well formed.
    const same = timingSafeEqual(candidate, expected);
    if (same && /^[0-9a-f]{64}$/i.test(value)) ok = true;
  }
  return ok;
}
