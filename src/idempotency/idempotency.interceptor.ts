import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { HTTP_CODE_METADATA } from '@nestjs/common/constants';
import { Reflector } from '@nestjs/core';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { from, lastValueFrom, Observable } from 'rxjs';
import { rawBodyOf } from '../common/http/body-parsers';
import { RECORDS_IDEMPOTENCY_KEY } from './decorators';
import { idempotencyError, IdempotencyError } from './idempotency.errors';
import { IdempotentReplay, IdempotentRequests } from './idempotent-requests';
import { IDEMPOTENCY_HEADER, REPLAYED_HEADER, RequestKey, validIdempotencyKey } from './request-key';

const JSON_TYPE = 'application/json; charset=utf-8';

/** POST runs once per key; the others that change things are checked against the keys POSTs used. */
const CHECKED_METHODS = new Set(['POST', 'PATCH', 'PUT', 'DELETE']);

/**
 * Idempotency-Key on every POST of the API, with no code in the routes: a POST that carries the
 * header and an API key (so an environment to scope it to) runs once per key. The route runs in
 * the generic transaction of `IdempotentRequests.runOnce`, unless it records its key itself
 * (`@RecordsIdempotencyKey()`). Without the header nothing here runs. Registered after the guards
 * (interceptors run after them), so a refused key or a rate limit records nothing.
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  constructor(
    private readonly requests: IdempotentRequests,
    private readonly reflector: Reflector,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const req = context.switchToHttp().getRequest<FastifyRequest>();
    if (req.tenant === undefined || !CHECKED_METHODS.has(req.method)) return next.handle();
    const header = req.headers[IDEMPOTENCY_HEADER];
    if (header === undefined) return next.handle();
    if (req.method !== 'POST') return from(this.notReused(req, next, header));
    return from(this.once(req, context, next, header));
  }

  private keyOf(req: FastifyRequest, header: string | string[]): RequestKey {
    if (!validIdempotencyKey(header)) throw idempotencyError(IdempotencyError.InvalidKey);
    return RequestKey.of({ environmentId: req.tenant!.environmentId }, header, {
      method: req.method,
      path: req.url,
      body: rawBodyOf(req),
    });
  }

  /**
   * PATCH, PUT and DELETE are not run once per key, but a key a POST used is refused on them too
   * (CONTRACT.md: the same key with a different method is 400).
   */
  private async notReused(
    req: FastifyRequest,
    next: CallHandler,
    header: string | string[],
  ): Promise<unknown> {
    if (await this.requests.used(this.keyOf(req, header))) throw idempotencyError(IdempotencyError.KeyReused);
    return lastValueFrom(next.handle(), { defaultValue: undefined });
  }

  private async once(
    req: FastifyRequest,
    context: ExecutionContext,
    next: CallHandler,
    header: string | string[],
  ): Promise<unknown> {
    const key = this.keyOf(req, header);
    req.idempotencyKey = key;
    const reply = context.switchToHttp().getResponse<FastifyReply>();
    try {
      if (this.reflector.get<boolean>(RECORDS_IDEMPOTENCY_KEY, context.getHandler()))
        return await lastValueFrom(next.handle(), { defaultValue: undefined });
      const status = this.reflector.get<number>(HTTP_CODE_METADATA, context.getHandler()) ?? 201;
      const body = await this.requests.runOnce(key, status, () =>
        lastValueFrom(next.handle(), { defaultValue: undefined }),
      );
      // The exact text recorded is the text sent, so a replay is byte for byte the first answer.
      void reply.header('content-type', JSON_TYPE);
      return body;
    } catch (err) {
      if (!(err instanceof IdempotentReplay)) throw err;
      key.replayed = true;
      void reply.header('content-type', JSON_TYPE);
      return err.answer.body;
    } finally {
      if (key.replayed) void reply.header(REPLAYED_HEADER, 'true');
    }
  }
}
