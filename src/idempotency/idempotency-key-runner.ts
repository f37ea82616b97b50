import { Injectable } from '@nestjs/common';
import { HTTP_CODE_METADATA } from '@nestjs/common/constants';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { KeyedRequestRunner, KeyedRoute } from '../common/http/idempotency-scope';
import { RECORDS_IDEMPOTENCY_KEY, requestKeyOf } from './decorators';
import { idempotencyError, IdempotencyError } from './idempotency.errors';
import { IdempotentReplay, IdempotencyKeyRecords } from './idempotency-key-records';
import { REPLAYED_HEADER } from './request-key';

const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * Idempotency-Key on every POST of the API, with no code in the routes: every API POST is declared
 * with `Post` (src/common/http/routes.ts), whose handler hands a request that carries the header
 * to this runner (`idempotencyScope`). Such a POST, made with an API key (so an environment to
 * scope the key to), runs in the generic transaction of `IdempotencyKeyRecords.runOnce`, unless the
 * route records its key itself (`@RecordsIdempotencyKey()`). A PATCH or DELETE with a key a POST used is 400.
 * It runs after the guards and pipes: a refused key, a rate limit or a 422 records nothing.
 */
@Injectable()
export class IdempotencyKeyRunner implements KeyedRequestRunner {
  constructor(private readonly records: IdempotencyKeyRecords) {}

  async run(req: FastifyRequest, reply: FastifyReply, route: KeyedRoute): Promise<unknown> {
    // Keyless routes (the hosted page keys its own form) are not covered.
    if (req.tenant === undefined) return route.invoke();
    const key = requestKeyOf(req);
    if (req.method !== 'POST') {
      // The same key with a different method is 400.
      if (await this.records.used(key)) throw idempotencyError(IdempotencyError.KeyReused);
      return route.invoke();
    }
    try {
      if (Reflect.getMetadata(RECORDS_IDEMPOTENCY_KEY, route.handler)) return await route.invoke();
      const status = (Reflect.getMetadata(HTTP_CODE_METADATA, route.handler) as number | undefined) ?? 201;
      const body = await this.records.runOnce(key, status, route.invoke);
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
