import type { FastifyInstance } from 'fastify';
import { CommonError, commonError } from '../errors/common-errors';

/**
 * JSON bodies with CONTRACT.md's answers: malformed JSON is 400 `Malformed JSON body`, and an
 * empty body (also with a JSON content-type, as client libraries send on body-less POSTs) is `{}`.
 */
export function registerJsonParser(fastify: FastifyInstance): void {
  fastify.removeContentTypeParser('application/json');
  fastify.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => {
    const text = (body as string).trim();
    if (text === '') return done(null, {});
    try {
      done(null, JSON.parse(text));
    } catch {
      done(commonError(CommonError.MalformedJson), undefined);
    }
  });
}
