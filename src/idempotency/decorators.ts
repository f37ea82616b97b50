import { createParamDecorator, ExecutionContext, SetMetadata } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { rawBodyOf } from '../common/http/body-parsers';
import { IDEMPOTENCY_HEADER } from '../common/http/idempotency-scope';
import { idempotencyError, IdempotencyError } from './idempotency.errors';
import { RequestKey, validIdempotencyKey } from './request-key';

declare module 'fastify' {
  interface FastifyRequest {
    /** The request's Idempotency-Key, once made (`requestKeyOf`). */
    idempotencyKey?: RequestKey;
  }
}

export const RECORDS_IDEMPOTENCY_KEY = 'khoums:records-idempotency-key';

/**
 * The route claims and records its Idempotency-Key in its own statements, instead of running in
 * the generic transaction (`IdempotencyKeyRunner`): a one-statement change that records the key in that
 * statement (creating a payment request), or pay, whose bank call must stay outside any
 * transaction. It takes the key with `@IdempotencyKey()` and answers replays through
 * `IdempotencyKeyRecords`.
 */
export const RecordsIdempotencyKey = () => SetMetadata(RECORDS_IDEMPOTENCY_KEY, true);

/**
 * The request's Idempotency-Key (undefined without the header), on a `@RecordsIdempotencyKey()`
 * route; 400 when the header is invalid.
 */
export const IdempotencyKey = createParamDecorator(
  (_: unknown, ctx: ExecutionContext): RequestKey | undefined => {
    const req = ctx.switchToHttp().getRequest<FastifyRequest>();
    return req.headers[IDEMPOTENCY_HEADER] === undefined || !req.tenant ? undefined : requestKeyOf(req);
  },
);

/**
 * The request's Idempotency-Key, scoped to the environment and the kind of its API key (made once per request);
 * 400 when the header is not 1 to 255 printable characters. Only for requests with an API key.
 */
export function requestKeyOf(req: FastifyRequest): RequestKey {
  if (req.idempotencyKey) return req.idempotencyKey;
  const header = req.headers[IDEMPOTENCY_HEADER];
  if (!validIdempotencyKey(header)) throw idempotencyError(IdempotencyError.InvalidKey);
  req.idempotencyKey = RequestKey.of(
    { environmentId: req.tenant!.environmentId, keyKind: req.tenant!.keyKind },
    header,
    {
      method: req.method,
      path: req.url,
      body: rawBodyOf(req),
    },
  );
  return req.idempotencyKey;
}
