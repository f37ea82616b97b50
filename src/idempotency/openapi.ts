import type { OpenAPIObject } from '@nestjs/swagger';
import { IdempotencyError } from './idempotency.errors';

/** What any POST answers about its Idempotency-Key header (and a PATCH or DELETE that reuses a POST's key). */
export const IDEMPOTENCY_KEY_ERRORS: string[] = Object.values(IdempotencyError);

/**
 * Documents the optional Idempotency-Key header on every POST of the API in the OpenAPI document,
 * as `IdempotencyKeyRunner` covers every one of them (those added later too).
 */
export function documentIdempotencyKey(document: OpenAPIObject): OpenAPIObject {
  for (const [path, item] of Object.entries(document.paths)) {
    if (!path.startsWith('/api/v1/') || !item.post) continue;
    item.post.parameters = [
      ...(item.post.parameters ?? []),
      {
        name: 'Idempotency-Key',
        in: 'header',
        required: false,
        description:
          `1 to 255 printable characters, kept 24 h in the API key's environment: a retry with the same key, ` +
          `method, path and body gets the first answer again (header \`idempotent-replayed: true\`).`,
        schema: { type: 'string', minLength: 1, maxLength: 255 },
      },
    ];
  }
  return document;
}
