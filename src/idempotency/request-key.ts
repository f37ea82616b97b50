import { createHash, createHmac } from 'node:crypto';
import type { KeyKind } from '../organizations/tenant';

/** The answer header of a request answered from its key's record instead of being run. */
export const REPLAYED_HEADER = 'idempotent-replayed';

const PRINTABLE = /^[\x20-\x7e]{1,255}$/;

/** An Idempotency-Key is 1 to 255 printable characters. */
export function validIdempotencyKey(value: unknown): value is string {
  return typeof value === 'string' && PRINTABLE.test(value);
}

/**
 * Where a key is unique. The merchant's server (its secret keys) has the environment's namespace;
 * whoever else can send a key has one of its own, so that nobody outside the server can use up a key
 * the server will send: requests made with a publishable key (it is in the merchant's pages), and
 * each hosted page's form (per checkout session, per invoice, per payment link).
 */
export type KeyScope =
  | { environmentId: string; keyKind: KeyKind }
  | { environmentId: string; checkoutSessionId: string }
  | { environmentId: string; invoiceId: string }
  | { environmentId: string; paymentLinkId: string };

function namespaceOf(scope: KeyScope): string {
  if ('checkoutSessionId' in scope) return `checkout-session:${scope.checkoutSessionId}`;
  if ('invoiceId' in scope) return `invoice:${scope.invoiceId}`;
  if ('paymentLinkId' in scope) return `payment-link:${scope.paymentLinkId}`;
  // The secret keys' namespace keeps the name it had before publishable keys got their own.
  return scope.keyKind === 'secret'
    ? `environment:${scope.environmentId}`
    : `environment:${scope.environmentId}:publishable`;
}

/** The request a key came with: what must be the same for a retry to be a replay. */
export interface KeyedRequest {
  method: string;
  /** The path as sent (with its query, if any). */
  path: string;
  /** The body as it arrived. */
  body: string;
}

/**
 * An Idempotency-Key of one request, as it is stored and compared: the record's id is a SHA-256 of
 * the scope and the key, and the request hash an HMAC-SHA256 of the method, path and raw body keyed
 * by the key itself. Neither reveals the key or the body (a pass code in a pay body included) to
 * someone who can read the table but does not hold the key.
 */
export class RequestKey {
  /** Set when the answer is the first request's, given again (`idempotent-replayed: true`). */
  replayed = false;

  private constructor(
    readonly environmentId: string,
    readonly checkoutSessionId: string | null,
    readonly id: Buffer,
    readonly requestHash: Buffer,
  ) {}

  static of(scope: KeyScope, key: string, request: KeyedRequest): RequestKey {
    const id = createHash('sha256')
      .update(`${namespaceOf(scope)}\n${key}`)
      .digest();
    const requestHash = createHmac('sha256', key)
      .update(`${request.method} ${request.path}\n${request.body}`)
      .digest();
    const checkoutSessionId = 'checkoutSessionId' in scope ? scope.checkoutSessionId : null;
    return new RequestKey(scope.environmentId, checkoutSessionId, id, requestHash);
  }

  /** The PostgreSQL advisory lock (bigint, as text) held while the key's first request runs. */
  get lockId(): string {
    return this.id.readBigInt64BE(0).toString();
  }

  /** True when a stored request hash (hex) is this request's. */
  sameRequest(requestHashHex: string): boolean {
    return this.requestHash.toString('hex') === requestHashHex;
  }
}
