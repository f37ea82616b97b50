import { WebhookSignatureError } from './errors';
import type {
  CheckoutSession,
  Invoice,
  Organization,
  PaymentRequest,
  PaymentWithRequest,
  Payout,
  Refund,
  Subscription,
  TestClock,
  WebhookEndpoint,
} from './types';

/**
 * Webhook verification with the platform's Web Crypto (Node 20+ and browsers alike), over the raw
 * body exactly as received: never a body parsed and serialised again.
 */

export type EventKind = WebhookEndpoint['events'][number];

interface EventOf<K extends EventKind, D> {
  /** The event id, also `webhook-id`: the same on every retry; dedupe on it. */
  id: string;
  event: K;
  createdAt: string;
  data: D;
}

/** What constructEvent returns: narrow on `event` to get the type of `data`. */
export type WebhookEvent =
  | EventOf<'payment-created' | 'payment-updated', PaymentWithRequest>
  | EventOf<'payment-request-created' | 'payment-request-updated', PaymentRequest>
  | EventOf<'subscription-created' | 'subscription-updated', Subscription>
  | EventOf<'invoice-created' | 'invoice-paid' | 'invoice-voided', Invoice>
  | EventOf<'checkout-session-completed' | 'checkout-session-expired', CheckoutSession>
  | EventOf<'account-updated', Organization>
  | EventOf<'refund-created' | 'refund-updated', Refund>
  | EventOf<'invoice-refunded', Invoice>
  | EventOf<'payout-created' | 'payout-updated', Payout>
  | EventOf<'test-clock-ready', TestClock>;

const KINDS: readonly EventKind[] = [
  'payment-created',
  'payment-updated',
  'payment-request-created',
  'payment-request-updated',
  'subscription-created',
  'subscription-updated',
  'invoice-created',
  'invoice-paid',
  'invoice-voided',
  'checkout-session-completed',
  'checkout-session-expired',
  'account-updated',
  'refund-created',
  'refund-updated',
  'invoice-refunded',
  'payout-created',
  'payout-updated',
  'test-clock-ready',
];

/** The raw body: a string, or bytes (a Node Buffer is a Uint8Array). */
export type RawBody = string | Uint8Array | ArrayBuffer;

/** Request headers: Node's (`req.headers`), a Fetch `Headers`, or a plain object. */
export type WebhookHeaders =
  { get(name: string): string | null } | Record<string, string | string[] | undefined>;

export interface VerifyOptions {
  /** Seconds `webhook-timestamp` may differ from now. Default 300. */
  tolerance?: number;
  /**
   * Accept a delivery signed only with `x-webhook-signature` (no timestamp, so no protection
   * against replays). Default false: the Standard Webhooks headers are required.
   */
  allowLegacySignature?: boolean;
  /** Now, in Unix seconds (tests). */
  now?: number;
}

/** Bytes on an ArrayBuffer, as Web Crypto takes them. */
type Bytes = Uint8Array<ArrayBuffer>;

const encoder = new TextEncoder();
const utf8 = (text: string): Bytes => encoder.encode(text);

function bytesOf(body: RawBody): Bytes {
  return typeof body === 'string' ? utf8(body) : new Uint8Array(body);
}

function header(headers: WebhookHeaders, name: string): string | undefined {
  if (isFetchHeaders(headers)) return headers.get(name) ?? undefined;
  const key = Object.keys(headers).find((k) => k.toLowerCase() === name);
  const value = key === undefined ? undefined : headers[key];
  return Array.isArray(value) ? value.join(' ') : value;
}

function isFetchHeaders(h: WebhookHeaders): h is { get(name: string): string | null } {
  return typeof h.get === 'function';
}

function hmacKey(key: Bytes) {
  return crypto.subtle.importKey('raw', key, { name: 'HMAC', hash: 'SHA-256' }, false, ['verify']);
}

function concat(...parts: Bytes[]): Bytes {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

function fromBase64(text: string): Bytes | undefined {
  try {
    return Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
  } catch {
    return undefined;
  }
}

function fromHex(text: string): Bytes | undefined {
  if (!/^(?:[0-9a-f]{2})+$/i.test(text)) return undefined;
  return Uint8Array.from(text.match(/../g)!, (h) => parseInt(h, 16));
}

/** crypto.subtle.verify compares in constant time. */
async function verifies(key: Bytes, signature: Bytes | undefined, data: Bytes): Promise<boolean> {
  return !!signature && crypto.subtle.verify('HMAC', await hmacKey(key), signature, data);
}

/**
 * Checks `x-webhook-signature: sha256=<hex>` (HMAC-SHA256 of the raw body, keyed with the secret
 * string itself), the header of the client libraries merchants already use. No timestamp: prefer
 * `verifyWebhook` / `constructEvent`, which also check the Standard Webhooks signature and its age.
 */
export async function verifyWebhookSignature(
  payload: RawBody,
  signature: string | null | undefined,
  secret: string | string[],
): Promise<boolean> {
  if (!signature) return false;
  const given = fromHex(signature.startsWith('sha256=') ? signature.slice(7) : signature);
  for (const s of ([] as string[]).concat(secret)) {
    if (s && (await verifies(utf8(s), given, bytesOf(payload)))) return true;
  }
  return false;
}

/**
 * Verifies a delivery: the Standard Webhooks signature (`webhook-id`, `webhook-timestamp`,
 * `webhook-signature: v1,<base64>` over `<id>.<timestamp>.<body>`, keyed with the base64 part of
 * the `whsec_` secret) and the timestamp's age; `x-webhook-signature` alone only when allowed.
 * During a secret rotation pass both secrets (or the one you have: either signature entry counts).
 * Throws WebhookSignatureError.
 */
export async function verifyWebhook(
  payload: RawBody,
  headers: WebhookHeaders,
  secret: string | string[],
  options: VerifyOptions = {},
): Promise<void> {
  const secrets = ([] as string[]).concat(secret).filter(Boolean);
  if (secrets.length === 0) throw new WebhookSignatureError('No webhook secret given');
  const signatures = header(headers, 'webhook-signature');
  if (signatures === undefined) {
    if (
      options.allowLegacySignature &&
      (await verifyWebhookSignature(payload, header(headers, 'x-webhook-signature'), secrets))
    )
      return;
    throw new WebhookSignatureError('Missing or invalid webhook signature headers');
  }
  const id = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  if (!id || !timestamp || !/^\d+$/.test(timestamp))
    throw new WebhookSignatureError('Missing webhook-id or webhook-timestamp header');
  const now = options.now ?? Math.floor(Date.now() / 1000);
  if (Math.abs(now - Number(timestamp)) > (options.tolerance ?? 300))
    throw new WebhookSignatureError('Webhook timestamp is outside the tolerance');

  const signed = concat(utf8(`${id}.${timestamp}.`), bytesOf(payload));
  const given = signatures
    .split(' ')
    .filter((s) => s.startsWith('v1,'))
    .map((s) => fromBase64(s.slice(3)));
  for (const s of secrets) {
    const key = fromBase64(s.startsWith('whsec_') ? s.slice(6) : s);
    if (!key) continue;
    for (const signature of given) if (await verifies(key, signature, signed)) return;
  }
  throw new WebhookSignatureError('Webhook signature does not match');
}

/** Verifies a delivery (see verifyWebhook) and returns its typed event. Throws WebhookSignatureError. */
export async function constructEvent(
  payload: RawBody,
  headers: WebhookHeaders,
  secret: string | string[],
  options?: VerifyOptions,
): Promise<WebhookEvent> {
  await verifyWebhook(payload, headers, secret, options);
  let body: Partial<WebhookEvent> | null;
  try {
    body = JSON.parse(typeof payload === 'string' ? payload : new TextDecoder().decode(bytesOf(payload)));
  } catch {
    throw new WebhookSignatureError('Webhook body is not JSON');
  }
  if (
    !body ||
    typeof body.id !== 'string' ||
    typeof body.createdAt !== 'string' ||
    !KINDS.includes(body.event as EventKind) ||
    typeof body.data !== 'object' ||
    body.data === null
  )
    throw new WebhookSignatureError('Webhook body is not an event');
  return body as WebhookEvent;
}
