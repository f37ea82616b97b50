import Ajv, { _, ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import standaloneCode from 'ajv/dist/standalone';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Checks an answer of the API against the service's OpenAPI document: its status is declared for
 * its operation, with its content type, and its body matches the declared schema (a text/plain
 * message is one of the declared messages; the 422 body, JSON sent as text, its schema; a 200's
 * JSON the record's schema). Generated clients validate answers the same way, so an answer the
 * document does not declare would break them.
 */

interface Operation {
  responses?: Record<string, { content?: Record<string, { schema?: object }> }>;
}
export interface Document {
  paths: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, object> };
}

/** An answer as the server sent it. */
export interface Answer {
  method: string;
  /** The route's pattern (`/api/v1/payment/:id`), as Fastify matched it; undefined when none did. */
  route: string | undefined;
  url: string;
  status: number;
  contentType: string | undefined;
  body: string;
}

/**
 * A schema as the clients generated from the document read it: OpenAPI 3.0's `nullable` on an enum
 * admits null (ajv reads `nullable` with `type` only), so does a nullable reference, and a record has no field it does not declare.
 */
function asClientsReadIt(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(asClientsReadIt);
  if (schema === null || typeof schema !== 'object') return schema;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(schema)) out[k] = asClientsReadIt(v);
  if (out.nullable === true && Array.isArray(out.enum) && !out.enum.includes(null))
    out.enum = [...out.enum, null];
  if (out.properties && !('additionalProperties' in out)) out.additionalProperties = false;
  // A nullable reference (`allOf: [$ref]` or `$ref` with `nullable`): the record, or null.
  if (out.nullable === true && (out.allOf || out.$ref)) {
    const record = { ...out };
    delete record.nullable;
    return { anyOf: [record, { type: 'null' }] };
  }
  return out;
}

/**
 * The validators of the document's response schemas, compiled by ajv once for every run (not once
 * per app: compiling them took most of a test app's start, 10 to 20 s of a loaded 2-core machine)
 * and kept as JavaScript under node_modules/.cache by the hash of what they are compiled from, as
 * run-ts.js keeps the service's. Each distinct schema once (the document repeats the error ones).
 */
const CACHE_DIR = join(__dirname, '../../node_modules/.cache/khoums-openapi-check');
const ajvVersion = (require('ajv/package.json') as { version: string }).version;
/** Reads the messages of a validator's errors (compiles nothing). */
const errorsReader = new Ajv();
/** The validators of the documents seen by this test file, by the hash of their schemas. */
const loaded = new Map<string, Map<string, ValidateFunction>>();

function schemaText(schema: object): string {
  return JSON.stringify(asClientsReadIt(schema)).replace(/"#\/components\//g, '"doc#/components/');
}

function compiledValidators(components: object, texts: string[]): Map<string, ValidateFunction> {
  const key = createHash('sha256')
    .update([ajvVersion, asClientsReadIt.toString(), JSON.stringify(components), ...texts].join('\0'))
    .digest('hex');
  let validators = loaded.get(key);
  if (validators) return validators;
  const file = join(CACHE_DIR, `${key}.js`);
  if (!existsSync(file)) {
    const ajv = new Ajv({
      strict: false,
      allErrors: true,
      code: { source: true, formats: _`require("ajv-formats/dist/formats").fullFormats` },
    });
    addFormats(ajv);
    ajv.addSchema(asClientsReadIt({ components }) as object, 'doc');
    texts.forEach((text, i) => ajv.addSchema(JSON.parse(text) as object, `r${i}`));
    const code = standaloneCode(ajv, Object.fromEntries(texts.map((_t, i) => [`r${i}`, `r${i}`])));
    mkdirSync(CACHE_DIR, { recursive: true });
    // Written aside then renamed: a test file starting at the same time never reads half a file.
    const partial = `${file}.${process.pid}`;
    writeFileSync(partial, code);
    renameSync(partial, file);
  }
  const exported = require(file) as Record<string, ValidateFunction>;
  validators = new Map(texts.map((text, i) => [text, exported[`r${i}`]]));
  loaded.set(key, validators);
  return validators;
}

export class OpenApiCheck {
  private readonly validators = new Map<object, ValidateFunction>();

  constructor(private readonly doc: Document) {
    const schemas: object[] = [];
    for (const item of Object.values(doc.paths))
      for (const op of Object.values(item))
        for (const response of Object.values(op.responses ?? {}))
          for (const content of Object.values(response.content ?? {}))
            if (content.schema) schemas.push(content.schema);
    const texts = schemas.map(schemaText);
    const compiled = compiledValidators(doc.components ?? {}, [...new Set(texts)]);
    schemas.forEach((schema, i) => this.validators.set(schema, compiled.get(texts[i])!));
  }

  /** What is wrong with an answer of the API (undefined: nothing, or not an operation of the document). */
  violation(a: Answer): string | undefined {
    if (!a.route?.startsWith('/api/v1/')) return undefined;
    const path = a.route.replace(/:(\w+)/g, '{$1}').replace(/(.)\/$/, '$1');
    const op = this.doc.paths[path]?.[a.method.toLowerCase()];
    if (!op) return undefined;
    const what = `${a.method} ${a.url} answered ${a.status}`;
    const declared = op.responses?.[String(a.status)];
    if (!declared) return `${what}, a status its operation does not declare: ${a.body.slice(0, 200)}`;
    const type = a.contentType?.split(';')[0].trim();
    const content = type === undefined ? undefined : declared.content?.[type];
    if (!content) return `${what} as ${type}, a content type not declared for that status`;
    if (!content.schema) return undefined;
    let body: unknown = a.body;
    if (type === 'application/json' || (a.status === 422 && type === 'text/plain')) {
      try {
        body = JSON.parse(a.body);
      } catch {
        return `${what} with a body that is not JSON: ${a.body.slice(0, 200)}`;
      }
    }
    const validate = this.validators.get(content.schema)!;
    if (validate(body)) return undefined;
    return `${what} with a body its schema refuses (${errorsReader.errorsText(validate.errors)}): ${a.body.slice(0, 300)}`;
  }
}
