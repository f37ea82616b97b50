import { createHmac, randomBytes } from 'node:crypto';

/**
 * How a delivery is signed (docs/api.md "Webhooks"). Pure functions, no Nest.
 *
 * - `x-webhook-signature: sha256=<hex>`: HMAC-SHA256 of the raw body with the secret string
 *   itself as the key (what merchants' existing verifiers compute).
 * - Standard Webhooks: `webhook-signature: v1,<base64>` over `<id>.<timestamp>.<body>` with the
 *   base64-decoded part of the secret after `whsec_` as the key; during a rotation one `v1,`
 *   entry per secret, space-separated.
 */

const PREFIX = 'whsec_';

export function generateSecret(): string {
  return PREFIX + randomBytes(32).toString('base64');
}

export function legacySignature(secret: string, body: Buffer): string {
  return 'sha256=' + createHmac('sha256', secret).update(body).digest('hex');
}

export function standardSignature(secret: string, id: string, timestamp: number, body: Buffer): string {
  const key = Buffer.from(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret, 'base64');
  const mac = createHmac('sha256', key).update(`${id}.${timestamp}.`).update(body).digest('base64');
  return `v1,${mac}`;
}

export interface SignInput {
  /** The event id: `webhook-id`, the same on every retry and replay. */
  id: string;
  kind: string;
  body: Buffer;
  /** Unix seconds. */
  timestamp: number;
  secret: string;
  /** The secret before the last rotation, while it still signs. */
  previousSecret?: string | null;
}

export function webhookHeaders(s: SignInput): Record<string, string> {
  const secrets = s.previousSecret ? [s.secret, s.previousSecret] : [s.secret];
  return {
    'content-type': 'application/json',
    'user-agent': 'Khoums-Webhook/1.0',
    'x-webhook-event': s.kind,
    'x-webhook-signature': legacySignature(s.secret, s.body),
    'webhook-id': s.id,
    'webhook-timestamp': String(s.timestamp),
    'webhook-signature': secrets.map((k) => standardSignature(k, s.id, s.timestamp, s.body)).join(' '),
  };
}

/**
 * The body every endpoint receives: `{ id, event, createdAt, data }`, as exact bytes to sign and
 * send; a platform's endpoint receiving a connected account's event also gets `account`.
 */
export function webhookBody(e: {
  id: string;
  kind: string;
  createdAt: Date;
  data: unknown;
  account?: string | null;
}): Buffer {
  return Buffer.from(
    JSON.stringify({
      id: e.id,
      event: e.kind,
      createdAt: e.createdAt.toISOString(),
      ...(e.account ? { account: e.account } : {}),
      data: e.data,
    }),
    'utf8',
  );
}
