import { Messages } from '../../src/common/errors/messages';
import type { CreatedOrganization } from '../../src/organizations/organizations.service';
import { DEFAULT_EVENT_KINDS } from '../../src/webhooks/event-kinds';
import { newTenant, startTestApp, TestApp, validationBody } from '../helpers/app';

// `t` lets endpoints be private addresses (as every suite with a receiver on 127.0.0.1 does);
// `strict` is a deployment's default (DATABASE_URL set, WEBHOOK_ALLOW_PRIVATE_URLS unset).
let t: TestApp;
let strict: TestApp;
beforeAll(async () => {
  [t, strict] = await Promise.all([startTestApp(), startTestApp({ WEBHOOK_ALLOW_PRIVATE_URLS: 'false' })]);
});
afterAll(() => Promise.all([t.close(), strict.close()]));

const sk = (org: CreatedOrganization, env: 'sandbox' | 'production' = 'sandbox') => org[env].secretKey;

async function createEndpoint(
  key: string,
  body: Record<string, unknown> = { url: 'http://localhost:4999/hook' },
) {
  const res = await t.http.post('/api/v1/webhook-endpoints').set('Authorization', key).send(body);
  expect(res.status).toBe(200);
  return res.body.data as {
    id: string;
    url: string;
    events: string[];
    enabled: boolean;
    environmentId: string;
    secret: string;
  };
}

async function payForEvent(key: string) {
  const res = await t.http
    .post('/api/v1/payment-request')
    .set('Authorization', key)
    .send({ transactionId: `order_${Math.random().toString(36).slice(2)}`, amount: 100 });
  expect(res.status).toBe(200);
  return res.body.data as { id: string };
}

describe('webhook endpoints API', () => {
  it('creates an endpoint with the six default kinds and shows its whsec_ secret only in the create response', async () => {
    const org = await newTenant(t);
    const created = await createEndpoint(sk(org));
    expect(created).toEqual({
      id: expect.any(String),
      url: 'http://localhost:4999/hook',
      events: [...DEFAULT_EVENT_KINDS],
      enabled: true,
      connected: false,
      environmentId: org.sandbox.environmentId,
      createdAt: expect.any(String),
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
    });

    const got = await t.http.get(`/api/v1/webhook-endpoints/${created.id}`).set('Authorization', sk(org));
    const list = await t.http.get('/api/v1/webhook-endpoints').set('Authorization', sk(org));
    const patched = await t.http
      .patch(`/api/v1/webhook-endpoints/${created.id}`)
      .set('Authorization', sk(org))
      .send({ enabled: false });
    for (const res of [got, list, patched]) {
      expect(res.status).toBe(200);
      expect(res.text).not.toContain(created.secret);
      expect(res.text).not.toContain('"secret"');
    }
    expect(list.body).toEqual({
      data: [{ ...created, secret: undefined, enabled: true }].map(({ secret: _s, ...e }) => e),
      pagination: { page: 1, limit: 20, total: 1, totalPages: 1 },
    });
    expect(t.logs.join('\n')).not.toContain(created.secret);
  });

  it('keeps only the listed kinds, extra kinds included', async () => {
    const org = await newTenant(t);
    const created = await createEndpoint(sk(org), {
      url: 'https://example.com/h',
      events: ['invoice-paid', 'payment-created', 'invoice-paid'],
    });
    expect(created.events).toEqual(['invoice-paid', 'payment-created']);
  });

  it.each([
    [{ url: 'ftp://example.com/h' }, '/url'],
    [{ url: 'not a url' }, '/url'],
    [{}, '/url'],
    [{ url: 'https://example.com/h', events: ['payment-exploded'] }, '/events'],
    [{ url: 'https://example.com/h', events: [] }, '/events'],
    [{ url: 'https://example.com/h', events: 'payment-created' }, '/events'],
    [{ url: 'https://example.com/h', enabled: 'yes' }, '/enabled'],
  ])('returns 422 for the invalid body %j', async (body, property) => {
    const org = await newTenant(t);
    const res = await t.http.post('/api/v1/webhook-endpoints').set('Authorization', sk(org)).send(body);
    expect(res.status).toBe(422);
    expect(validationBody(res).errors.map((e) => e.property)).toContain(property);
  });

  const NON_PUBLIC = [
    'http://localhost:3000/hook',
    'http://127.0.0.1/hook',
    'http://2130706433/hook',
    'http://0x7f.1/hook',
    'http://10.0.0.5/hook',
    'http://192.168.1.10/hook',
    'http://172.20.0.1/hook',
    'http://169.254.169.254/latest',
    'http://100.64.1.1/x',
    'http://[::1]/x',
    'http://[fd00::1]/x',
    'http://[fe80::1]/x',
    'http://[::ffff:127.0.0.1]/x',
    'http://[64:ff9b::a9fe:a9fe]/x',
    'http://[2002:a00:1::]/x',
    'http://[2001::1]/x',
    'http://0.0.0.0/x',
    'http://224.0.0.1/x',
  ];

  it.each(NON_PUBLIC)('refuses the non-public URL %s in both environments with 400', async (url) => {
    const org = await newTenant(strict);
    const create = (env: 'sandbox' | 'production') =>
      strict.http.post('/api/v1/webhook-endpoints').set('Authorization', sk(org, env)).send({ url });
    const sandbox = await create('sandbox');
    expect([sandbox.status, sandbox.text]).toEqual([400, Messages.webhookUrlMustBePublic]);
    const production = await create('production');
    expect([production.status, production.text]).toEqual([400, Messages.webhookUrlMustBePublicInProduction]);
    const [{ count }] = await strict.query(
      'SELECT count(*)::int AS count FROM webhook_endpoints WHERE organization_id = $1',
      [org.organizationId],
    );
    expect(count).toBe(0);
  });

  it('refuses an update to a non-public URL in both environments, and accepts a public one', async () => {
    const org = await newTenant(strict);
    for (const [env, message] of [
      ['sandbox', Messages.webhookUrlMustBePublic],
      ['production', Messages.webhookUrlMustBePublicInProduction],
    ] as const) {
      const key = sk(org, env);
      const res = await strict.http
        .post('/api/v1/webhook-endpoints')
        .set('Authorization', key)
        .send({ url: 'https://merchant.example.com/h' });
      const id = res.body.data.id as string;
      const bad = await strict.http
        .patch(`/api/v1/webhook-endpoints/${id}`)
        .set('Authorization', key)
        .send({ url: 'http://127.0.0.1:8080/h' });
      expect([bad.status, bad.text]).toEqual([400, message]);
      const good = await strict.http
        .patch(`/api/v1/webhook-endpoints/${id}`)
        .set('Authorization', key)
        .send({ url: 'https://other.example.com/h' });
      expect(good.body.data.url).toBe('https://other.example.com/h');
    }
  });

  it('lets endpoints of both environments point at loopback and private addresses when the operator allows it', async () => {
    const org = await newTenant(t);
    for (const env of ['sandbox', 'production'] as const) {
      for (const url of ['http://localhost:3000/h', 'http://127.0.0.1:1/h', 'http://192.168.1.2/h']) {
        expect((await createEndpoint(sk(org, env), { url })).url).toBe(url);
      }
    }
  });

  it('allows at most 16 endpoints per environment: the 17th is 400, the other environment keeps its own 16', async () => {
    const org = await newTenant(t);
    for (let i = 0; i < 16; i++) await createEndpoint(sk(org), { url: `https://example.com/h${i}` });
    const res = await t.http
      .post('/api/v1/webhook-endpoints')
      .set('Authorization', sk(org))
      .send({ url: 'https://example.com/h16' });
    expect([res.status, res.text]).toEqual([400, Messages.tooManyWebhookEndpoints]);
    await createEndpoint(sk(org, 'production'), { url: 'https://example.com/live' });
    const one = (await t.http.get('/api/v1/webhook-endpoints?limit=1').set('Authorization', sk(org))).body
      .data[0];
    await t.http.delete(`/api/v1/webhook-endpoints/${one.id}`).set('Authorization', sk(org));
    await createEndpoint(sk(org), { url: 'https://example.com/again' });
  });

  it('keeps the limit of 16 under concurrent creates', async () => {
    const org = await newTenant(t);
    const results = await Promise.all(
      Array.from({ length: 24 }, (_, i) =>
        t.http
          .post('/api/v1/webhook-endpoints')
          .set('Authorization', sk(org))
          .send({ url: `https://example.com/c${i}` }),
      ),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(16);
    expect(
      results.filter((r) => r.status === 400 && r.text === Messages.tooManyWebhookEndpoints),
    ).toHaveLength(8);
    const [{ count }] = await t.query(
      'SELECT count(*)::int AS count FROM webhook_endpoints WHERE environment_id = $1',
      [org.sandbox.environmentId],
    );
    expect(count).toBe(16);
  });

  it('updates url, events and enabled', async () => {
    const org = await newTenant(t);
    const e = await createEndpoint(sk(org));
    const res = await t.http
      .patch(`/api/v1/webhook-endpoints/${e.id}`)
      .set('Authorization', sk(org))
      .send({ url: 'https://example.org/new', events: ['subscription-created'], enabled: false });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      id: e.id,
      url: 'https://example.org/new',
      events: ['subscription-created'],
      enabled: false,
    });
    const got = await t.http.get(`/api/v1/webhook-endpoints/${e.id}`).set('Authorization', sk(org));
    expect(got.body.data).toEqual(res.body.data);
  });

  it('deletes an endpoint, which is then not found', async () => {
    const org = await newTenant(t);
    const e = await createEndpoint(sk(org));
    const del = await t.http.delete(`/api/v1/webhook-endpoints/${e.id}`).set('Authorization', sk(org));
    expect(del.status).toBe(200);
    expect(del.body.data.id).toBe(e.id);
    const got = await t.http.get(`/api/v1/webhook-endpoints/${e.id}`).set('Authorization', sk(org));
    expect(got.status).toBe(404);
    expect(got.text).toBe(Messages.webhookEndpointNotFound);
  });

  it('rotates the secret: a new whsec_ secret, the old one kept for 24 h', async () => {
    const org = await newTenant(t);
    const e = await createEndpoint(sk(org));
    const res = await t.http
      .post(`/api/v1/webhook-endpoints/${e.id}/rotate-secret`)
      .set('Authorization', sk(org));
    expect(res.status).toBe(200);
    expect(res.body.data.secret).toMatch(/^whsec_/);
    expect(res.body.data.secret).not.toBe(e.secret);
    const [row] = await t.query(
      `SELECT previous_secret, extract(epoch FROM previous_secret_expires_at - now()) AS left FROM webhook_endpoints WHERE id = $1`,
      [e.id],
    );
    expect(row.previous_secret).toBe(e.secret);
    expect(Number(row.left)).toBeGreaterThan(23.9 * 3600);
    expect(Number(row.left)).toBeLessThanOrEqual(24 * 3600);
  });

  it('returns 404 with the exact message for another environment’s or organization’s endpoint and delivery', async () => {
    const org = await newTenant(t);
    const other = await newTenant(t);
    const e = await createEndpoint(sk(org));
    const test = await t.http
      .post(`/api/v1/webhook-endpoints/${e.id}/test`)
      .set('Authorization', sk(org))
      .send({});
    const deliveryId = test.body.data.id as string;
    for (const key of [sk(org, 'production'), sk(other)]) {
      const calls = [
        t.http.get(`/api/v1/webhook-endpoints/${e.id}`),
        t.http.patch(`/api/v1/webhook-endpoints/${e.id}`).send({ enabled: false }),
        t.http.delete(`/api/v1/webhook-endpoints/${e.id}`),
        t.http.post(`/api/v1/webhook-endpoints/${e.id}/rotate-secret`),
        t.http.post(`/api/v1/webhook-endpoints/${e.id}/test`).send({}),
      ];
      for (const call of calls) {
        const res = await call.set('Authorization', key);
        expect(res.status).toBe(404);
        expect(res.text).toBe(Messages.webhookEndpointNotFound);
      }
      for (const call of [
        t.http.get(`/api/v1/webhook-deliveries/${deliveryId}`),
        t.http.get(`/api/v1/webhook-deliveries/${deliveryId}/attempts`),
        t.http.post(`/api/v1/webhook-deliveries/${deliveryId}/retry`),
      ]) {
        const res = await call.set('Authorization', key);
        expect(res.status).toBe(404);
        expect(res.text).toBe(Messages.webhookDeliveryNotFound);
      }
      const list = await t.http.get('/api/v1/webhook-deliveries').set('Authorization', key);
      expect(list.body.data).toEqual([]);
      const endpoints = await t.http.get('/api/v1/webhook-endpoints').set('Authorization', key);
      expect(endpoints.body.data).toEqual([]);
    }
    const still = await t.http.get(`/api/v1/webhook-endpoints/${e.id}`).set('Authorization', sk(org));
    expect(still.body.data.enabled).toBe(true);
  });

  it('refuses publishable keys with 403 and missing keys with 401', async () => {
    const org = await newTenant(t);
    const res = await t.http
      .get('/api/v1/webhook-endpoints')
      .set('Authorization', org.sandbox.publishableKey);
    expect(res.status).toBe(403);
    expect(res.text).toBe(Messages.unauthorizedAccess);
    const del = await t.http
      .get('/api/v1/webhook-deliveries')
      .set('Authorization', org.sandbox.publishableKey);
    expect(del.status).toBe(403);
    const none = await t.http.post('/api/v1/webhook-endpoints').send({ url: 'https://example.com' });
    expect(none.status).toBe(401);
    expect(none.text).toBe(Messages.apiKeyRequired);
  });

  it('returns 422 for a non-UUID id and bad list filters', async () => {
    const org = await newTenant(t);
    const res = await t.http.get('/api/v1/webhook-endpoints/nope').set('Authorization', sk(org));
    expect(res.status).toBe(422);
    expect(validationBody(res).on).toBe('params');
    for (const q of ['endpointId=nope', 'status=lost', 'event=nope', 'limit=101']) {
      const r = await t.http.get(`/api/v1/webhook-deliveries?${q}`).set('Authorization', sk(org));
      expect(r.status).toBe(422);
      expect(validationBody(r).on).toBe('query');
    }
  });
});

describe('webhook fan-out', () => {
  it('creates one pending delivery per matching enabled endpoint of the event’s environment, in the event’s transaction', async () => {
    const org = await newTenant(t);
    const all = await createEndpoint(sk(org));
    const onlyPayments = await createEndpoint(sk(org), {
      url: 'http://localhost:1/p',
      events: ['payment-created'],
    });
    const disabled = await createEndpoint(sk(org), { url: 'http://localhost:1/d', enabled: false });
    const production = await createEndpoint(sk(org, 'production'), { url: 'https://example.com/h' });
    const pr = await payForEvent(sk(org));

    const list = await t.http.get('/api/v1/webhook-deliveries').set('Authorization', sk(org));
    expect(list.status).toBe(200);
    expect(list.body.data).toEqual([
      {
        id: expect.any(String),
        eventId: expect.any(String),
        endpointId: all.id,
        event: 'payment-request-created',
        status: 'pending',
        attempts: 0,
        lastStatusCode: null,
        lastError: null,
        lastResponseSnippet: null,
        nextAttemptAt: expect.any(String),
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      },
    ]);
    const [event] = await t.query('SELECT data FROM events WHERE id = $1', [list.body.data[0].eventId]);
    expect(event.data.id).toBe(pr.id);
    for (const e of [onlyPayments, disabled, production]) {
      const r = await t.http
        .get(`/api/v1/webhook-deliveries?endpointId=${e.id}`)
        .set('Authorization', e === production ? sk(org, 'production') : sk(org));
      expect(r.body.data).toEqual([]);
    }
  });

  it('does not deliver an event to an endpoint created after it', async () => {
    const org = await newTenant(t);
    await payForEvent(sk(org));
    const late = await createEndpoint(sk(org));
    const r = await t.http
      .get(`/api/v1/webhook-deliveries?endpointId=${late.id}`)
      .set('Authorization', sk(org));
    expect(r.body.pagination.total).toBe(0);
  });

  it('records no delivery when the change is rolled back (a reused transactionId)', async () => {
    const org = await newTenant(t);
    await createEndpoint(sk(org));
    const body = { transactionId: 'order_same', amount: 100 };
    expect(
      (await t.http.post('/api/v1/payment-request').set('Authorization', sk(org)).send(body)).status,
    ).toBe(200);
    expect(
      (await t.http.post('/api/v1/payment-request').set('Authorization', sk(org)).send(body)).status,
    ).toBe(409);
    const r = await t.http.get('/api/v1/webhook-deliveries').set('Authorization', sk(org));
    expect(r.body.pagination.total).toBe(1);
  });

  it('filters deliveries by endpoint, event and status, newest first, paginated', async () => {
    const org = await newTenant(t);
    const a = await createEndpoint(sk(org));
    const b = await createEndpoint(sk(org), {
      url: 'http://localhost:1/b',
      events: ['payment-request-created', 'subscription-created'],
    });
    await payForEvent(sk(org));
    await payForEvent(sk(org));
    await t.http
      .post(`/api/v1/webhook-endpoints/${b.id}/test`)
      .set('Authorization', sk(org))
      .send({ event: 'subscription-created' });
    const get = (q: string) => t.http.get(`/api/v1/webhook-deliveries?${q}`).set('Authorization', sk(org));
    expect((await get('')).body.pagination.total).toBe(5);
    expect((await get(`endpointId=${a.id}`)).body.pagination.total).toBe(2);
    expect((await get(`endpointId=${b.id}&event=subscription-created`)).body.data).toHaveLength(1);
    expect((await get('status=succeeded')).body.data).toHaveLength(0);
    const page = await get('limit=2&page=2');
    expect(page.body.pagination).toEqual({ page: 2, limit: 2, total: 5, totalPages: 3 });
    const all = (await get('')).body.data as Array<{ createdAt: string }>;
    expect(all.map((d) => d.createdAt)).toEqual([...all.map((d) => d.createdAt)].sort().reverse());
  });
});

describe('test events', () => {
  it('queues payment-request-created with a test sample for that endpoint only', async () => {
    const org = await newTenant(t);
    const e = await createEndpoint(sk(org));
    const other = await createEndpoint(sk(org), { url: 'http://localhost:1/o' });
    const res = await t.http
      .post(`/api/v1/webhook-endpoints/${e.id}/test`)
      .set('Authorization', sk(org))
      .send();
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      endpointId: e.id,
      event: 'payment-request-created',
      status: 'pending',
      attempts: 0,
    });
    const [event] = await t.query('SELECT data FROM events WHERE id = $1', [res.body.data.eventId]);
    expect(event.data.test).toBe(true);
    expect(event.data.transactionId).toMatch(/^test_/);
    const others = await t.http
      .get(`/api/v1/webhook-deliveries?endpointId=${other.id}`)
      .set('Authorization', sk(org));
    expect(others.body.data).toEqual([]);
  });

  it('uses a kind the endpoint receives and refuses one it does not with 400', async () => {
    const org = await newTenant(t);
    const e = await createEndpoint(sk(org), { url: 'http://localhost:1/i', events: ['invoice-paid'] });
    const res = await t.http
      .post(`/api/v1/webhook-endpoints/${e.id}/test`)
      .set('Authorization', sk(org))
      .send({});
    expect(res.body.data.event).toBe('invoice-paid');
    const bad = await t.http
      .post(`/api/v1/webhook-endpoints/${e.id}/test`)
      .set('Authorization', sk(org))
      .send({ event: 'payment-created' });
    expect(bad.status).toBe(400);
    expect(bad.text).toBe(Messages.webhookEndpointDoesNotReceive('payment-created'));
  });
});
