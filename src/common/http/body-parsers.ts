import type { FastifyInstance, FastifyRequest } from 'fastify';
import { parse as parseQueryString } from 'node:querystring';
import { CommonError, commonError } from '../errors/common-errors';

declare module 'fastify' {
  interface FastifyRequest {
    /** The body exactly as it arrived (JSON bodies), for the Idempotency-Key's request hash. */
    rawBody?: string;
  }
}

/** The deepest nesting of arrays and objects a JSON body may have: no request of the API needs more than a few. */
export const MAX_JSON_DEPTH = 32;

/**
 * Whether JSON text nests arrays and objects deeper than `max` (brackets inside strings do not
 * count). Checked before parsing: a body of 100 KB can nest 50,000 levels, which the code that
 * walks a parsed body (validation, the error filter) would answer with a stack overflow.
 */
export function nestsDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // a backslash: the next character is escaped
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > max) return true;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return false;
}

/**
 * JSON bodies: malformed JSON, or JSON nested deeper than `MAX_JSON_DEPTH`, is 400 `Malformed JSON
 * body`, and an empty body (also with a JSON content-type, as client libraries send on body-less
 * POSTs) is `{}`. The text is kept on the request as `rawBody`.
 */
export function registerJsonParser(fastify: FastifyInstance): void {
  fastify.removeContentTypeParser('application/json');
  fastify.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    req.rawBody = body as string;
    const text = (body as string).trim();
    if (text === '') return done(null, {});
    if (nestsDeeperThan(text, MAX_JSON_DEPTH)) return done(commonError(CommonError.MalformedJson), undefined);
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
