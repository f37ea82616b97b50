import { connect } from 'node:net';
import { Messages } from '../../src/common/errors/messages';
import { ApiKeysService } from '../../src/organizations/api-keys.service';
import { PaymentRequestsService } from '../../src/payment-requests/payment-requests.service';
import type { CreatedOrganization } from '../../src/organizations/organizations.service';
import { newTenant, startTestApp, TestApp } from '../helpers/app';
import type { Response } from 'supertest';
import { expectText } from '../helpers/http';
import { waitFor } from '../helpers/poll';

let t: TestApp;
let org: CreatedOrganization;
beforeAll(async () => {
  t = await startTestApp();
  org = await newTenant(t);
});
afterAll(() => t.close());

const PR = '/api/v1/payment-request';
const body = () => ({ transactionId: `auth-${Date.now()}-${Math.random()}`, amount: 10 });

/** One route of each kind: secret-only (create, read by id, list) and either-key (look-up by transactionId). */
const secretRoutes = [
  ['POST', PR],
  ['GET', PR],
  ['GET', `${PR}/00000000-0000-4000-8000-000000000000`],
] as const;
const anyKeyRoute = ['GET', `${PR}/by-transaction/some-order`] as const;

function call(method: 'GET' | 'POST', path: string) {
  const req = method === 'GET' ? t.http.get(path) : t.http.post(path).send(body());
  return req;
}

describe('authentication', () => {
  it.each([...secretRoutes, anyKeyRoute])(
    '%s %s without Authorization → 401 API key is required',
    async (m, p) => {
      expectText(await call(m, p), 401, Messages.apiKeyRequired);
    },
  );

  it('treats an empty Authorization header as missing', async () => {
    expectText(await t.http.get(PR).set('Authorization', ''), 401, Messages.apiKeyRequired);
  });

  it.each([
    'sk_test_' + 'x'.repeat(40),
    'sk_test_short',
    'not-a-key',
    'Bearer ',
    'pk_live_' + 'A'.repeat(40),
  ])('rejects the unknown or malformed key %p with 401 Invalid API key', async (key) => {
    expectText(await t.http.get(PR).set('Authorization', key), 401, Messages.invalidApiKey);
  });

  it('accepts the key bare and with a Bearer prefix', async () => {
    expect((await t.http.get(PR).set('Authorization', org.sandbox.secretKey)).status).toBe(200);
    expect((await t.http.get(PR).set('Authorization', `Bearer ${org.sandbox.secretKey}`)).status).toBe(200);
  });

  it.each(secretRoutes)('%s %s with a publishable key → 403 Unauthorized access', async (m, p) => {
    for (const key of [org.sandbox.publishableKey, org.production.publishableKey]) {
      expectText(await call(m, p).set('Authorization', key), 403, Messages.unauthorizedAccess);
    }
  });

  it('lets a publishable key use the either-key route', async () => {
    const res = await t.http.get(anyKeyRoute[1]).set('Authorization', org.sandbox.publishableKey);
    expectText(res, 404, Messages.paymentRequestNotFound);
  });

  it('checks the key before validating the input (401 beats 422)', async () => {
    expectText(await t.http.post(PR).send({}), 401, Messages.apiKeyRequired);
    expectText(
      await t.http.post(PR).set('Authorization', org.sandbox.publishableKey).send({}),
      403,
      Messages.unauthorizedAccess,
    );
  });

  it('rejects a revoked key on its very next request', async () => {
    const victim = await newTenant(t);
    expect((await t.http.get(PR).set('Authorization', victim.sandbox.secretKey)).status).toBe(200);
    const [{ id }] = await t.query(`SELECT id FROM api_keys WHERE environment_id = $1 AND kind = 'secret'`, [
      victim.sandbox.environmentId,
    ]);
    expect(await t.app.get(ApiKeysService).revoke(victim.organizationId, id)).toBe(true);
    expectText(
      await t.http.get(PR).set('Authorization', victim.sandbox.secretKey),
      401,
      Messages.invalidApiKey,
    );
    // the other keys of the organization still work
    expect((await t.http.get(PR).set('Authorization', victim.production.secretKey)).status).toBe(200);
  });

  it('does not revoke a key of another organization', async () => {
    const a = await newTenant(t);
    const b = await newTenant(t);
    const [{ id }] = await t.query(`SELECT id FROM api_keys WHERE environment_id = $1 AND kind = 'secret'`, [
      b.sandbox.environmentId,
    ]);
    expect(await t.app.get(ApiKeysService).revoke(a.organizationId, id)).toBe(false);
    expect((await t.http.get(PR).set('Authorization', b.sandbox.secretKey)).status).toBe(200);
  });

  it('stores only SHA-256 hashes of keys', async () => {
    const rows: Array<{ key_hash: Buffer; display: string }> = await t.query(
      'SELECT key_hash, display FROM api_keys WHERE organization_id = $1',
      [org.organizationId],
    );
    expect(rows).toHaveLength(4);
    const all = JSON.stringify(rows) + rows.map((r) => r.key_hash.toString('hex')).join();
    for (const key of [org.sandbox.secretKey, org.sandbox.publishableKey, org.production.secretKey]) {
      expect(all).not.toContain(key);
      expect(all).not.toContain(key.slice(8, 30));
    }
    const hashes = rows.map((r) => r.key_hash.toString('hex'));
    expect(hashes).toContain(
      require('node:crypto').createHash('sha256').update(org.sandbox.secretKey).digest('hex'),
    );
  });

  it('records the last-used time in a batch, not with a write on every request', async () => {
    const user = await newTenant(t);
    const lastUsed = async () =>
      (
        await t.query(`SELECT last_used_at FROM api_keys WHERE environment_id = $1 AND kind = 'secret'`, [
          user.sandbox.environmentId,
        ])
      )[0].last_used_at as Date | null;
    await t.http.get(PR).set('Authorization', user.sandbox.secretKey);
    await t.http.get(PR).set('Authorization', user.sandbox.secretKey);
    expect(await lastUsed()).toBeNull();
    await t.app.get(ApiKeysService).flushLastUsed();
    const first = await lastUsed();
    expect(first).toBeInstanceOf(Date);
    expect(Date.now() - first!.getTime()).toBeLessThan(60_000);
  });

  it('never writes a key into the logs', async () => {
    await t.http.get(PR).set('Authorization', org.sandbox.secretKey);
    await t.http.get(PR).set('Authorization', `Bearer ${org.production.secretKey}`);
    expect(t.logs.length).toBeGreaterThan(0);
    const logs = t.logs.join('\n');
    expect(logs).not.toContain(org.sandbox.secretKey);
    expect(logs).not.toContain(org.production.secretKey);
    expect(logs.toLowerCase()).not.toContain('authorization');
  });
});

describe('the error contract', () => {
  it('answers an unknown route with 404 Not found as text', async () => {
    expectText(await t.http.get('/api/v1/nothing-here'), 404, Messages.notFound);
    expectText(await t.http.delete(PR).set('Authorization', org.sandbox.secretKey), 404, Messages.notFound);
  });

  it('answers malformed JSON with 400 Malformed JSON body', async () => {
    const res = await t.http
      .post(PR)
      .set('Authorization', org.sandbox.secretKey)
      .set('content-type', 'application/json')
      .send('{"transactionId": "x", amount: }');
    expectText(res, 400, Messages.malformedJson);
  });

  it('answers an oversized body with 413 as text', async () => {
    const res = await t.http
      .post(PR)
      .set('Authorization', org.sandbox.secretKey)
      .send({ transactionId: 'big', amount: 1, padding: 'x'.repeat(200_000) });
    expectText(res, 413, Messages.payloadTooLarge);
  });

  it('answers creations with 200, not 201', async () => {
    const res = await t.http.post(PR).set('Authorization', org.sandbox.secretKey).send(body());
    expect(res.status).toBe(200);
  });

  it('puts an x-request-id on every response and echoes a given one', async () => {
    const ok = await t.http.get(PR).set('Authorization', org.sandbox.secretKey);
    const notFound = await t.http.get('/nowhere');
    const unauthorized = await t.http.get(PR);
    for (const res of [ok, notFound, unauthorized])
      expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const echoed = await t.http.get(PR).set('x-request-id', 'merchant-req-42');
    expect(echoed.headers['x-request-id']).toBe('merchant-req-42');
    const unsafe = await t.http.get(PR).set('x-request-id', 'bad id with spaces');
    expect(unsafe.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('answers an unexpected failure with 500 Internal server error and logs the cause under the request id', async () => {
    const service = t.app.get(PaymentRequestsService);
    const spy = jest.spyOn(service, 'create').mockRejectedValueOnce(new Error('disk on fire'));
    try {
      const res = await t.http
        .post(PR)
        .set('Authorization', org.sandbox.secretKey)
        .set('x-request-id', 'req-500-check')
        .send(body());
      expectText(res, 500, Messages.internal);
      expect(res.text).not.toContain('disk on fire');
      const line = t.logs.find((l) => l.includes('disk on fire'));
      expect(line).toBeDefined();
      expect(JSON.parse(line!)).toMatchObject({ requestId: 'req-500-check', level: 50 });
    } finally {
      spy.mockRestore();
    }
  });
});

describe('health and documentation', () => {
  it('reports liveness and readiness without a key', async () => {
    const live = await t.http.get('/health');
    expect(live.status).toBe(200);
    expect(live.body).toEqual({ status: 'ok' });
    const ready = await t.http.get('/health/ready');
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({ status: 'ready' });
  });

  it('logs health probes at debug: at info level a /health request writes nothing, other requests still do', async () => {
    const probe = `probe-${Date.now()}`;
    await t.http.get('/health').set('x-request-id', `${probe}-live`).expect(200);
    await t.http.get('/health/ready').set('x-request-id', `${probe}-ready`).expect(200);
    await t.http.get('/health?from=lb').set('x-request-id', `${probe}-query`).expect(200);
    await t.http.get('/api/docs-json').set('x-request-id', `${probe}-docs`).expect(200);
    // Lines are written in order after each response: once the last request's line is there, a
    // health probe's line would be too.
    const lines = () => t.logs.map((l) => JSON.parse(l) as { requestId?: string; url?: string; msg: string });
    await waitFor(() => lines().some((l) => l.requestId === `${probe}-docs`), 'the docs request’s log line');
    expect(lines().filter((l) => l.requestId?.startsWith(probe))).toEqual([
      expect.objectContaining({ requestId: `${probe}-docs`, url: '/api/docs-json', msg: 'request' }),
    ]);
    expect(lines().filter((l) => l.url?.startsWith('/health'))).toEqual([]);
  });

  it('serves the OpenAPI document generated from the DTOs, and its UI', async () => {
    const doc = await t.http.get('/api/docs-json');
    expect(doc.status).toBe(200);
    const post = doc.body.paths['/api/v1/payment-request'].post;
    expect(post).toBeDefined();
    const schemaRef: string = post.requestBody.content['application/json'].schema.$ref;
    const schema = doc.body.components.schemas[schemaRef.split('/').pop()!];
    expect(schema.required).toEqual(expect.arrayContaining(['transactionId', 'amount']));
    expect(schema.properties.amount.type).toBe('integer');
    const ui = await t.http.get('/api/docs/');
    expect(ui.status).toBe(200);
    expect(ui.text).toContain('swagger');
  });
});

describe('request bodies', () => {
  it('answers a body in an unsupported content type with 415 as text', async () => {
    const res = await t.http
      .post(PR)
      .set('Authorization', org.sandbox.secretKey)
      .set('content-type', 'text/csv')
      .send('a,b');
    expectText(res, 415, Messages.unsupportedMediaType);
  });

  it('accepts a body-less POST without a content type as {}', async () => {
    const res = await t.http.post(PR).set('Authorization', org.sandbox.secretKey);
    expect(res.status).toBe(422);
  });
});

describe('errors raised before routing (docs/api.md "Errors")', () => {
  /** Status, exact text body, text/plain content-type and the request id header, echoed when given. */
  function expectPlain(res: Response, status: number, message: string, requestId: string) {
    expectText(res, status, message);
    expect(res.headers['x-request-id']).toBe(requestId);
  }

  it('answers a path with malformed percent-encoding with 400 Malformed URL', async () => {
    const res = await t.http
      .get(`${PR}/%FF`)
      .set('Authorization', org.sandbox.secretKey)
      .set('x-request-id', 'bad-url-1');
    expectPlain(res, 400, Messages.malformedUrl, 'bad-url-1');
    const bare = await t.http.get('/api/v1/payment-request/by-transaction/%E0%A4%A');
    expectText(bare, 400, Messages.malformedUrl);
    expect(bare.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('answers a 5,000-character id with 414 URI too long', async () => {
    const res = await t.http
      .get(`${PR}/${'a'.repeat(5000)}`)
      .set('Authorization', org.sandbox.secretKey)
      .set('x-request-id', 'long-1');
    expectPlain(res, 414, Messages.uriTooLong, 'long-1');
    const logged = t.logs
      .map((l) => JSON.parse(l))
      .find((l) => l.requestId === 'long-1' && l.msg === 'request');
    expect(logged).toMatchObject({ method: 'GET', statusCode: 414 });
    expect(logged.url.length).toBeLessThan(300);
  });

  /** A raw HTTP exchange: what node's parser answers before Fastify sees a request. */
  async function raw(request: string): Promise<string> {
    const { port } = t.app.getHttpServer().address() as { port: number };
    const socket = connect(port, '127.0.0.1');
    socket.end(request);
    let answer = '';
    for await (const chunk of socket) answer += (chunk as Buffer).toString();
    return answer;
  }

  it('answers a URL over the server limit (16 KB) with 414 URI too long, as text', async () => {
    const answer = await raw(`GET ${PR}/${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`);
    expect(answer).toMatch(/^HTTP\/1\.1 414 /);
    expect(answer).toMatch(/content-type: text\/plain; charset=utf-8\r\n/);
    expect(answer).toMatch(/x-request-id: [0-9a-f-]{36}\r\n/);
    expect(answer.endsWith(`\r\n\r\n${Messages.uriTooLong}`)).toBe(true);
  });

  it('answers headers over the 16 KB limit with 431, as text', async () => {
    const answer = await raw(`GET ${PR} HTTP/1.1\r\nHost: x\r\nx-filler: ${'b'.repeat(20_000)}\r\n\r\n`);
    expect(answer).toMatch(/^HTTP\/1\.1 431 /);
    expect(answer.endsWith(Messages.headersTooLarge)).toBe(true);
  });

  it('answers a body over 100 KB with 413 Payload too large', async () => {
    const res = await t.http
      .post(PR)
      .set('Authorization', org.sandbox.secretKey)
      .set('x-request-id', 'big-1')
      .send({ transactionId: 'big', amount: 1, padding: 'x'.repeat(101 * 1024) });
    expectPlain(res, 413, Messages.payloadTooLarge, 'big-1');
  });

  it('answers an XML body with 415 Unsupported media type', async () => {
    const res = await t.http
      .post(PR)
      .set('Authorization', org.sandbox.secretKey)
      .set('x-request-id', 'xml-1')
      .set('content-type', 'application/xml')
      .send('<paymentRequest><amount>10</amount></paymentRequest>');
    expectPlain(res, 415, Messages.unsupportedMediaType, 'xml-1');
  });
});
