import { createHash, createHmac } from 'node:crypto';

/** The answer header of a request answered from its key's record instead of being run. */
export const REPLAYED_HEADER = 'idempotent-replayed';

const PRINTABLE = /^[\x20-\x7e]{1,255}$/;

/** An Idempotency-Key is 1 to 255 printable characters. */
export function validIdempotencyKey(value: unknown): value is string {
  return typeof value === 'string' && PRINTABLE.test(value);
}

/** Where a key is unique: the API key's environment, or (the hosted page) one checkout session. */
export type KeyScope = { environmentId: string; checkoutSessionId?: string };

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
    const where = scope.checkoutSessionId
      ? `checkout-session:${scope.checkoutSessionId}`
      : `environment:${scope.environmentId}`;
    const id = createHash('sha256').update(`${where}\n${key}`).digest();
    const requestHash = createHmac('sha256', key)
      .update(`${request.method} ${request.path}\n${request.body}`)
      .digest();
    return new RequestKey(scope.environmentId, scope.checkoutSessionId ?? null, id, requestHash);
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
