import { applyDecorators, Type } from '@nestjs/common';
import { ApiExtraModels, ApiOkResponse, getSchemaPath } from '@nestjs/swagger';

/**
 * Response schemas in the OpenAPI document, from the record classes the API returns (one class
 * per record, whose @ApiProperty fields are also its TypeScript type), so the document, the code
 * and the client library's types cannot drift apart.
 */

/**
 * 200 `{ data: <model> }` (plus `extra` top-level properties, e.g. checkoutUrl). Several models:
 * `data` is one of them (e.g. what a secret and a publishable key each see).
 */
export function ApiData(model: Type | Type[], extra: Record<string, object> = {}) {
  const models = Array.isArray(model) ? model : [model];
  const refs = models.map((m) => ({ $ref: getSchemaPath(m) }));
  return applyDecorators(
    ApiExtraModels(...models),
    ApiOkResponse({
      schema: {
        type: 'object',
        required: ['data', ...Object.keys(extra)],
        properties: { data: refs.length === 1 ? refs[0] : { oneOf: refs }, ...extra },
      },
    }),
  );
}

/** 200 `{ data: <model>[] }` (not paged). */
export function ApiDataArray(model: Type) {
  return applyDecorators(
    ApiExtraModels(model),
    ApiOkResponse({
      schema: {
        type: 'object',
        required: ['data'],
        properties: { data: { type: 'array', items: { $ref: getSchemaPath(model) } } },
      },
    }),
  );
}

/** 200 with the API's list envelope: `{ data: <model>[], pagination: { page, limit, total, totalPages } }`. */
export function ApiList(model: Type) {
  return applyDecorators(
    ApiExtraModels(model),
    ApiOkResponse({
      schema: {
        type: 'object',
        required: ['data', 'pagination'],
        properties: {
          data: { type: 'array', items: { $ref: getSchemaPath(model) } },
          pagination: {
            type: 'object',
            required: ['page', 'limit', 'total', 'totalPages'],
            properties: {
              page: { type: 'integer' },
              limit: { type: 'integer' },
              total: { type: 'integer' },
              totalPages: { type: 'integer' },
            },
          },
        },
      },
    }),
  );
}

/** An archive's `success: true` beside `data` (Moosyl's generated clients read it). */
export const ARCHIVED = { success: { type: 'boolean', enum: [true] } };
