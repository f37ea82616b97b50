import { createParamDecorator, ExecutionContext, SetMetadata } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type { RequestKey } from './request-key';

declare module 'fastify' {
  interface FastifyRequest {
    /** The request's Idempotency-Key, set by the interceptor on POSTs that carry one. */
    idempotencyKey?: RequestKey;
  }
}

export const RECORDS_IDEMPOTENCY_KEY = 'khoums:records-idempotency-key';

/**
 * The route claims and records its Idempotency-Key in its own statements, instead of running in the
 * generic transaction: a one-statement change that records the key in that statement (creating a
 * payment request), or pay, whose bank call must stay outside any transaction. It takes the key
 * with `@IdempotencyKey()` and answers replays through `IdempotentRequests`.
 */
export const RecordsIdempotencyKey = () => SetMetadata(RECORDS_IDEMPOTENCY_KEY, true);

/** The request's Idempotency-Key (undefined without the header), on a `@RecordsIdempotencyKey()` route. */
export const IdempotencyKey = createParamDecorator(
  (_: unknown, ctx: ExecutionContext): RequestKey | undefined =>
    ctx.switchToHttp().getRequest<FastifyRequest>().idempotencyKey,
);
