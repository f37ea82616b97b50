import type { FastifyInstance, FastifyRequest } from 'fastify';
import { parse as parseQueryString } from 'node:querystring';
import { CommonError, commonError } from '../errors/common-errors';

declare module 'fastify' {
  interface FastifyRequest {
    /** The body exactly as it arrived (JSON bodies), for the Idempotency-Key's request hash. */
    rawBody?: string;
  }
}

/**
 * JSON bodies: malformed JSON is 400 `Malformed JSON body`, and an
 * empty body (also with a JSON content-type, as client libraries send on body-less POSTs) is `{}`.
 * The text is kept on the request as `rawBody`.
 */
export function registerJsonParser(fastify: FastifyInstance): void {
  fastify.removeContentTypeParser('application/json');
  fastify.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    req.rawBody = body as string;
    const text = (body as string).trim();
    if (text === '') return done(null, {});
    try {
      done(null, JSON.parse(text));
    } catch {
      done(commonError(CommonError.MalformedJson), undefined);
    }
  });
}

/** Form bodies parsed by `formParser`, and the text each came from. */
const formTexts = new WeakMap<object, string>();

/** The parser of url-encoded forms (for @fastify/formbody): `querystring` semantics, the text remembered. */
export function formParser(text: string): Record<string, unknown> {
  const form = parseQueryString(text);
  formTexts.set(form, text);
  return form;
}

/** The request's body as it arrived: the JSON or form text, `''` when there was none. */
export function rawBodyOf(req: FastifyRequest): string {
  if (req.rawBody !== undefined) return req.rawBody;
  const body = req.body;
  if (body === undefined || body === null) return '';
  if (typeof body === 'string') return body;
  return (typeof body === 'object' && formTexts.get(body)) || JSON.stringify(body);
}
