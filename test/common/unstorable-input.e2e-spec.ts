import { Messages } from '../../src/common/errors/messages';
import { newTenant, startTestApp, TestApp } from '../helpers/app';
import { expect422, expectText } from '../helpers/http';

/**
 * Input the service cannot store or parse is the client's error (4xx), never a 500: strings with
 * a NUL character or a lone surrogate (PostgreSQL's text and json refuse both), JSON nested too
 * deep to walk, and paths under the API documentation that name no document.
 */

const NUL = 'a\u0000b';
const LONE_SURROGATE = 'a\ud800b';
const ID = '00000000-0000-4000-8000-000000000000';

let t: TestApp;
let sk: string;
beforeAll(async () => {
  t = await startTestApp();
  sk = (await newTenant(t)).sandbox.secretKey;
});
afterAll(() => t.close());

const postJson = (path: string, text: string) =>
  t.http.post(path).set('authorization', sk).set('content-type', 'application/json').send(text);

describe('strings with a NUL character or a lone surrogate', () => {
  it('are 422 in a JSON body, naming the property', async () => {
    const nul = await t.http.post('/api/v1/products').set('authorization', sk).send({ name: NUL });
    const body = expect422(nul, 'body', '/name');
    expect(body.errors).toHaveLength(1);
    const surrogate = await t.http
      .post('/api/v1/payment-request')
      .set('authorization', sk)
      .send({ transactionId: LONE_SURROGATE, amount: 10 });
    expect422(surrogate, 'body', '/transactionId');
  });

  it('are 422 as a lone low surrogate too; unknown properties are ignored whatever they hold', async () => {
    const nested = await postJson(
      '/api/v1/products',
      '{"name":"ok","description":"x","extra":{"k":"a\\u0000"}}',
    );
    expect(nested.status).toBe(200); // unknown properties are ignored, whatever they hold
    const lowSurrogate = await postJson('/api/v1/products', '{"name":"\\udc00 tail"}');
    expect422(lowSurrogate, 'body', '/name');
  });

  it('are 422 in a query parameter and a path parameter', async () => {
    const query = await t.http.get('/api/v1/customers?externalUserId=a%00b').set('authorization', sk);
    expect422(query, 'query', '/externalUserId');
    const status = await t.http.get('/api/v1/payment-request?status=%00').set('authorization', sk);
    expect422(status, 'query', '/status');
    const param = await t.http.get('/api/v1/payment-request/by-transaction/a%00b').set('authorization', sk);
    expect422(param, 'params', '/transactionId');
  });

  it('are accepted when well formed: a surrogate pair (an emoji) and Arabic text are stored', async () => {
    const res = await t.http
      .post('/api/v1/products')
      .set('authorization', sk)
      .send({ name: 'تمر 🌴', description: 'حلو' });
    expect(res.status).toBe(200);
    expect(res.body.data.name).toBe('تمر 🌴');
  });
});

describe('JSON nesting', () => {
  const nested = (depth: number) => '{"a":'.repeat(depth - 1) + '{}' + '}'.repeat(depth - 1);

  it('deeper than 32 levels is 400 Malformed JSON body, arrays and objects alike', async () => {
    expectText(
      await postJson('/api/v1/payment', '['.repeat(5000) + ']'.repeat(5000)),
      400,
      Messages.malformedJson,
    );
    expectText(await postJson('/api/v1/payment', nested(5000)), 400, Messages.malformedJson);
    expectText(await postJson('/api/v1/payment', nested(33)), 400, Messages.malformedJson);
  });

  it('of 32 levels is parsed (then validated), and brackets inside strings do not count', async () => {
    const deep = await postJson('/api/v1/payment', nested(32));
    expect(deep.status).toBe(422);
    const inString = await postJson('/api/v1/products', JSON.stringify({ name: '{['.repeat(100) }));
    expect(inString.status).toBe(200);
  });
});

describe('the API documentation', () => {
  it('answers 404 Not found for a path under it that names no file', async () => {
    expectText(await t.http.get('/api/docs/..%2fpackage.json'), 404, Messages.notFound);
    expectText(await t.http.get('/api/docs/..%2f..%2fsrc%2fmain.ts'), 404, Messages.notFound);
    expectText(await t.http.get('/api/docs/nothing-here.js'), 404, Messages.notFound);
    expect((await t.http.get('/api/docs-json')).status).toBe(200);
  });
});

describe('error responses', () => {
  it('carry x-content-type-options: nosniff, also those answered before routing', async () => {
    const answers = [
      await t.http.get('/api/v1/products'), // 401
      await t.http.get('/api/v1/nothing').set('authorization', sk), // 404
      await t.http.post('/api/v1/products').set('authorization', sk).send({ name: NUL }), // 422
      await postJson('/api/v1/payment', '{'), // 400
      await t.http.get('/api/v1/products/%E0%A4%A').set('authorization', sk), // malformed URL, before routing
      await t.http.get('/api/docs/..%2fpackage.json'), // 404 under the docs
    ];
    for (const res of answers) {
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect({ status: res.status, nosniff: res.headers['x-content-type-options'] }).toEqual({
        status: res.status,
        nosniff: 'nosniff',
      });
    }
  });
});

interface OpenApi {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema> };
}
interface Operation {
  parameters?: Array<{ name: string; in: string }>;
  requestBody?: { content: Record<string, { schema: Schema }> };
}
interface Schema {
  $ref?: string;
  properties?: Record<string, Schema>;
  allOf?: Schema[];
}

describe('every API route', () => {
  /** The properties of a request body's schema, following $ref and allOf. */
  function bodyProperties(doc: OpenApi, schema: Schema | undefined): string[] {
    if (!schema) return [];
    if (schema.$ref) return bodyProperties(doc, doc.components.schemas[schema.$ref.split('/').pop()!]);
    return [
      ...Object.keys(schema.properties ?? {}),
      ...(schema.allOf ?? []).flatMap((s) => bodyProperties(doc, s)),
    ];
  }

  it('answers a NUL or a lone surrogate in any body property, query parameter or path parameter with a 4xx, never a 500', async () => {
    const doc = (await t.http.get('/api/docs-json')).body as OpenApi;
    const probes: Array<{ what: string; status: number; on?: string }> = [];
    const probe = async (what: string, method: string, path: string, body?: Record<string, unknown>) => {
      const call = t.http[method as 'get' | 'post' | 'patch' | 'delete'](path).set('authorization', sk);
      const res = await (body ? call.send(body) : call);
      probes.push({ what: `${method.toUpperCase()} ${path} ${what}`, status: res.status });
    };
    let routes = 0;
    for (const [template, operations] of Object.entries(doc.paths)) {
      if (!template.startsWith('/api/v1/')) continue;
      for (const [method, op] of Object.entries(operations)) {
        routes += 1;
        const params = op.parameters ?? [];
        const path = template.replace(/\{[^}]+\}/g, ID);
        for (const p of params.filter((x) => x.in === 'path')) {
          const poisoned = template.replace(`{${p.name}}`, 'a%00b').replace(/\{[^}]+\}/g, ID);
          await probe(`path ${p.name}`, method, poisoned);
        }
        for (const p of params.filter((x) => x.in === 'query')) {
          await probe(`query ${p.name}`, method, `${path}?${p.name}=a%00b`);
        }
        const schema = op.requestBody?.content['application/json']?.schema;
        for (const property of bodyProperties(doc, schema)) {
          await probe(`body ${property} NUL`, method, path, { [property]: NUL });
          await probe(`body ${property} surrogate`, method, path, { [property]: LONE_SURROGATE });
        }
      }
    }
    expect(routes).toBeGreaterThan(30);
    expect(probes.length).toBeGreaterThan(100);
    expect(probes.filter((p) => p.status >= 500)).toEqual([]);
    // A poisoned body property is a validation failure, whatever else the route checks.
    expect(probes.filter((p) => / body .* (NUL|surrogate)$/.test(p.what) && p.status !== 422)).toEqual([]);
  });
});
