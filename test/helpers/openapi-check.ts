import Ajv, { ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';

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
interface Document {
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

export class OpenApiCheck {
  private readonly ajv = new Ajv({ strict: false, allErrors: true });
  private readonly validators = new Map<object, ValidateFunction>();

  constructor(private readonly doc: Document) {
    addFormats(this.ajv);
    this.ajv.addSchema(asClientsReadIt({ components: doc.components ?? {} }) as object, 'doc');
    // Compiled once here, not on a route's first answer: a test timing an answer must not time ajv.
    for (const item of Object.values(doc.paths))
      for (const op of Object.values(item))
        for (const response of Object.values(op.responses ?? {}))
          for (const content of Object.values(response.content ?? {}))
            if (content.schema) this.validator(content.schema);
  }

  private validator(schema: object): ValidateFunction {
    let validate = this.validators.get(schema);
    if (!validate) {
      const text = JSON.stringify(asClientsReadIt(schema)).replace(/"#\/components\//g, '"doc#/components/');
      validate = this.ajv.compile(JSON.parse(text) as object);
      this.validators.set(schema, validate);
    }
    return validate;
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
    const validate = this.validator(content.schema);
    if (validate(body)) return undefined;
    return `${what} with a body its schema refuses (${this.ajv.errorsText(validate.errors)}): ${a.body.slice(0, 300)}`;
  }
}
