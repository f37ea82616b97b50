import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';

/**
 * Writes the client library's API types (sdk/src/api.generated.ts) from the service's OpenAPI
 * document: one interface per schema (the record classes and DTOs of the service) and one
 * `Operations` entry per route of /api/v1 with its path parameters, query, body and response.
 * The library's methods are typed by `Operations`, so the document, the service and the library
 * agree or the agreement test (openapi-agreement.e2e-spec.ts) and the library's type check fail.
 */

export interface OpenApiSchema {
  $ref?: string;
  type?: string;
  format?: string;
  enum?: unknown[];
  nullable?: boolean;
  items?: OpenApiSchema;
  properties?: Record<string, OpenApiSchema>;
  required?: string[];
  oneOf?: OpenApiSchema[];
  anyOf?: OpenApiSchema[];
  allOf?: OpenApiSchema[];
  pattern?: string;
  additionalProperties?: boolean | OpenApiSchema;
  description?: string;
}

interface OpenApiParameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  description?: string;
  schema: OpenApiSchema;
}

interface OpenApiOperation {
  parameters?: OpenApiParameter[];
  requestBody?: { content?: Record<string, { schema?: OpenApiSchema }> };
  responses?: Record<
    string,
    { description?: string; content?: Record<string, { schema?: OpenApiSchema }>; headers?: object }
  >;
}

export interface OpenApiDocument {
  paths: Record<string, Record<string, OpenApiOperation>>;
  components?: { schemas?: Record<string, OpenApiSchema> };
}

export const API_PREFIX = '/api/v1';
export const GENERATED_PATH = 'sdk/src/api.generated.ts';
const METHODS = ['get', 'post', 'patch', 'put', 'delete'] as const;

/** `PaymentRequestJson` → `PaymentRequest`, `CreatePaymentRequestDto` → `CreatePaymentRequestBody`. */
export function typeName(schemaName: string): string {
  if (schemaName.endsWith('Json')) return schemaName.slice(0, -'Json'.length);
  if (schemaName.endsWith('Dto')) return schemaName.slice(0, -'Dto'.length) + 'Body';
  return schemaName;
}

export function refName(ref: string): string {
  return ref.slice(ref.lastIndexOf('/') + 1);
}

function comment(text: string | undefined, indent = ''): string {
  return text ? `${indent}/** ${text.replace(/\*\//g, '*\u2215')} */\n` : '';
}

export function tsType(s: OpenApiSchema): string {
  const nullable = s.nullable ? ' | null' : '';
  if (s.$ref) return typeName(refName(s.$ref)) + nullable;
  if (s.oneOf) return s.oneOf.map(tsType).join(' | ') + nullable;
  if (s.anyOf) return [...new Set(s.anyOf.map(tsType))].join(' | ') + nullable;
  if (s.allOf) return s.allOf.map(tsType).join(' & ') + nullable;
  if (s.enum) return s.enum.map((v) => JSON.stringify(v)).join(' | ') + nullable;
  switch (s.type) {
    case 'integer':
    case 'number':
      return 'number' + nullable;
    case 'string':
      return 'string' + nullable;
    case 'boolean':
      return 'boolean' + nullable;
    case 'array': {
      const item = tsType(s.items ?? {});
      return (/[|&]/.test(item) ? `Array<${item}>` : `${item}[]`) + nullable;
    }
    case 'object':
    case undefined:
      if (!s.properties) return 'Record<string, unknown>' + nullable;
      return objectType(s) + nullable;
    default:
      throw new Error(`OpenAPI type ${s.type} has no TypeScript mapping`);
  }
}

function objectType(s: OpenApiSchema): string {
  const required = new Set(s.required ?? []);
  const fields = Object.entries(s.properties ?? {}).map(
    ([name, p]) => `${comment(p.description)}${name}${required.has(name) ? '' : '?'}: ${tsType(p)};`,
  );
  return `{ ${fields.join('\n')} }`;
}

function responseSchema(op: OpenApiOperation): OpenApiSchema | undefined {
  const content = op.responses?.['200']?.content;
  // A document (the PDF invoice) is a string of bytes.
  return content?.['application/json']?.schema ?? content?.['application/pdf']?.schema;
}

/** `GET /payment-request/{id}`: the route keys of `Operations`, as the library's methods name them. */
export function routesOf(doc: OpenApiDocument): Map<string, OpenApiOperation> {
  const routes = new Map<string, OpenApiOperation>();
  for (const [path, item] of Object.entries(doc.paths)) {
    if (!path.startsWith(API_PREFIX + '/')) continue;
    for (const method of METHODS) {
      const op = item[method];
      if (op) routes.set(`${method.toUpperCase()} ${path.slice(API_PREFIX.length)}`, op);
    }
  }
  return routes;
}

/** The routes of /api/v1 whose 200 answer has no schema: each needs @ApiData/@ApiList/@ApiDataArray. */
export function routesWithoutResponseSchema(doc: OpenApiDocument): string[] {
  return [...routesOf(doc)].filter(([, op]) => !responseSchema(op)).map(([route]) => route);
}

/**
 * The error answers of an operation, by status: the type of its text/plain body (the exact
 * messages as a union of literals, `string` where a message names a value), the validation body
 * for a 422.
 */
function errorsType(op: OpenApiOperation): string {
  const errors = Object.entries(op.responses ?? {})
    .filter(([status]) => Number(status) >= 400)
    .map(([status, r]) => {
      const schema = r.content?.['text/plain']?.schema;
      const type = Number(status) === 422 ? 'ValidationErrorBody' : schema ? messageType(schema) : 'string';
      return `${comment(r.description)}${status}: ${type};`;
    });
  return errors.length ? `{ ${errors.join('\n')} }` : 'Record<never, never>';
}

/**
 * An error answer's text/plain message: its fixed messages as literals, a message naming a value
 * (a pattern) as `string & {}`, which takes any message without swallowing the literals beside it.
 */
function messageType(s: OpenApiSchema): string {
  if (s.anyOf) return [...new Set(s.anyOf.map(messageType))].join(' | ');
  if (s.enum) return s.enum.map((v) => JSON.stringify(v)).join(' | ');
  return s.pattern !== undefined ? '(string & {})' : 'string';
}

/** Every fixed message an error answer of the document may carry, sorted. */
function errorMessages(doc: OpenApiDocument): string[] {
  const messages = new Set<string>();
  const collect = (s: OpenApiSchema | undefined): void => {
    if (!s) return;
    for (const m of s.enum ?? []) if (typeof m === 'string') messages.add(m);
    s.anyOf?.forEach(collect);
  };
  for (const op of routesOf(doc).values())
    for (const [status, r] of Object.entries(op.responses ?? {}))
      if (Number(status) >= 400 && Number(status) !== 422) collect(r.content?.['text/plain']?.schema);
  return [...messages].sort();
}

function operationType(op: OpenApiOperation): string {
  const params = (op.parameters ?? []).filter((p) => p.in === 'path');
  const query = (op.parameters ?? []).filter((p) => p.in === 'query');
  const body = op.requestBody?.content?.['application/json']?.schema;
  const response = responseSchema(op);
  const members = (list: OpenApiParameter[]) =>
    `{ ${list
      .map((p) => `${comment(p.description)}${p.name}${p.required ? '' : '?'}: ${tsType(p.schema)};`)
      .join('\n')} }`;
  return `{
    params: ${params.length ? members(params) : 'Record<string, never>'};
    query: ${query.length ? members(query) : 'Record<string, never>'};
    body: ${body ? tsType(body) : 'never'};
    response: ${response ? tsType(response) : 'unknown'};
    errors: ${errorsType(op)};
  }`;
}

export function generateTypes(doc: OpenApiDocument): string {
  const schemas = Object.entries(doc.components?.schemas ?? {}).sort(([a], [b]) => a.localeCompare(b));
  const names = new Map<string, string>();
  for (const [name] of schemas) {
    const ts = typeName(name);
    if (names.has(ts)) throw new Error(`Schemas ${names.get(ts)} and ${name} both become type ${ts}`);
    names.set(ts, name);
  }
  const interfaces = schemas.map(
    ([name, s]) => `${comment(s.description)}export interface ${typeName(name)} ${objectType(s)}`,
  );
  const routes = [...routesOf(doc)].sort(([a], [b]) => {
    const [ma, pa] = a.split(' ');
    const [mb, pb] = b.split(' ');
    return pa.localeCompare(pb) || ma.localeCompare(mb);
  });
  const operations = routes.map(([route, op]) => `${JSON.stringify(route)}: ${operationType(op)};`);
  const source = `// Generated from the service's OpenAPI document (GET /api/docs-json) by test/sdk/openapi-types.ts.
// Do not edit: change the service, then run \`UPDATE_SDK_TYPES=1 npx jest test/sdk/openapi-agreement\`.

import type { ValidationErrorBody } from './errors';

${interfaces.join('\n\n')}

/** Every message of the API's error answers that names no value (an \`AppException\`'s \`code\`). */
export type ApiErrorMessage =
${errorMessages(doc)
  .map((m) => `  | ${JSON.stringify(m)}`)
  .join('\n')};

/**
 * Every route of /api/v1: path parameters, query, JSON body, the 200 answer, and each error answer
 * by status (its text/plain message; the validation body for a 422).
 */
export interface Operations {
${operations.join('\n')}
}
`;
  // Prettier 3 loads ES modules, which Jest's CommonJS mode cannot: run its command line.
  const root = resolve(__dirname, '../..');
  return execFileSync(resolve(root, 'node_modules/.bin/prettier'), ['--stdin-filepath', GENERATED_PATH], {
    cwd: root,
    input: source,
    encoding: 'utf8',
  });
}
