import { Body, Controller, Module, RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { ModulesContainer } from '@nestjs/core';
import { ApiExcludeController } from '@nestjs/swagger';
import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { Tenant } from '../../src/auth/tenant';
import { Messages } from '../../src/common/errors/messages';
import { Post } from '../../src/common/http/routes';
import { Db } from '../../src/database/db';
import { raw, sql } from '../../src/database/sql';
import { ONCE_PER_KEY } from '../../src/common/http/idempotency-scope';
import { ExpireIdempotencyKeysJob } from '../../src/idempotency/expire-idempotency-keys.job';
import { RequestKey } from '../../src/idempotency/request-key';
import type { CreatedOrganization } from '../../src/organizations/organizations.service';
import { newTenant, startTestApp, TestApp, testDatabaseUrl } from '../helpers/app';
import { expectText } from '../helpers/http';

/**
 * Idempotent retries for the API's POSTs: replay, reuse with other parameters, a key
 * whose first request still runs (also on another instance), scoping, expiry, failed first
 * requests, and that the mechanism covers every POST route, those added later included. Pay, whose
 * bank call stays outside any transaction, and the hosted page are in idempotency-pay.e2e-spec.ts.
 */

/** A route of a test module: the mechanism must cover it with no code of its own. */
const THINGS = `things_${process.pid}_${Date.now()}`;
const gates = new Map<string, { reached: () => void; release: Promise<void> }>();

// Not part of the API's document: its answers (a 500 on purpose) are not checked against it.
@ApiExcludeController()
@Controller('api/v1/test-things')
class ThingsController {
  constructor(private readonly db: Db) {}

  /** Inserts a row; `hold` waits for the test before answering, `fail` throws after the insert. */
  @Post()
  async create(@Tenant() t: Tenant, @Body() body: Record<string, unknown>) {
    const label = String(body.label);
    const row = await this.db.one<{ id: number }>(
      sql`INSERT INTO ${raw(THINGS)} (environment_id, label) VALUES (${t.environmentId}, ${label}) RETURNING id`,
    );
    const gate = typeof body.hold === 'string' ? gates.get(body.hold) : undefined;
    if (gate) {
      gate.reached();
      await gate.release;
    }
    if (body.fail) throw new Error('the handler failed after its insert');
    return { data: { id: row!.id, label } };
  }
}

@Module({ controllers: [ThingsController] })
class ThingsModule {}

let t: TestApp;
let org: CreatedOrganization;
beforeAll(async () => {
  t = await startTestApp({}, testDatabaseUrl(), [ThingsModule]);
  await t.query(
    `CREATE TABLE ${THINGS} (id serial PRIMARY KEY, environment_id uuid NOT NULL, label text NOT NULL)`,
  );
  org = await newTenant(t);
});
afterAll(async () => {
  await t.query(`DROP TABLE IF EXISTS ${THINGS}`);
  await t.close();
});

let seq = 0;
const unique = (label: string) => `${label}-${process.pid}-${Date.now()}-${++seq}`;

function post(app: TestApp, path: string, apiKey: string, idempotencyKey: string | undefined, body: object) {
  const req = app.http.post(path).set('Authorization', apiKey);
  if (idempotencyKey !== undefined) void req.set('Idempotency-Key', idempotencyKey);
  return req.send(body);
}

const createRequest = (key: string | undefined, body: object, apiKey = org.sandbox.secretKey) =>
  post(t, '/api/v1/payment-request', apiKey, key, body);

const count = async (text: string, values: unknown[]) =>
  Number((await t.query<{ n: string }>(`SELECT count(*) AS n FROM ${text}`, values))[0].n);

const thingsLabelled = (label: string) => count(`${THINGS} WHERE label = $1`, [label]);

/** Holds a key's lock from a transaction of the test's own, as a first request still running would. */
async function holdKey(scope: { environmentId: string }, key: string): Promise<() => Promise<void>> {
  const client = new Client({ connectionString: testDatabaseUrl() });
  await client.connect();
  await client.query('BEGIN');
  const lockId = RequestKey.of({ ...scope, keyKind: 'secret' }, key, {
    method: 'POST',
    path: '',
    body: '',
  }).lockId;
  await client.query('SELECT pg_advisory_xact_lock($1::bigint)', [lockId]);
  return async () => {
    await client.query('ROLLBACK');
    await client.end();
  };
}

/** A gate for a ThingsController request: `reached` resolves once it runs, `release()` lets it answer. */
function gate(name: string) {
  let reached!: () => void;
  let release!: () => void;
  const reachedP = new Promise<void>((r) => (reached = r));
  gates.set(name, { reached, release: new Promise<void>((r) => (release = r)) });
  return { reached: reachedP, release };
}

describe('a retry with the same key and request', () => {
  it('gets the first answer again, byte for byte, with idempotent-replayed: true, and creates nothing more', async () => {
    const key = randomUUID();
    const body = { transactionId: unique('order'), amount: 1500 };
    const first = await createRequest(key, body);
    expect(first.status).toBe(200);
    expect(first.headers['idempotent-replayed']).toBeUndefined();

    const again = await createRequest(key, body);
    expect(again.status).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(again.text).toBe(first.text);

    expect(await count(`payment_requests WHERE transaction_id = $1`, [body.transactionId])).toBe(1);
    expect(
      await count(`events WHERE kind = 'payment-request-created' AND data->>'transactionId' = $1`, [
        body.transactionId,
      ]),
    ).toBe(1);
  });

  it('is answered the same way on any POST route (a checkout session, a webhook endpoint, a route added later)', async () => {
    const checkout = { transactionId: unique('co'), amount: 700 };
    // Disabled endpoints: no delivery for another suite's webhook worker to try meanwhile.
    const webhook = { url: 'https://merchant.example.mr/hooks', enabled: false };
    const thing = { label: unique('thing') };
    for (const [path, body] of [
      ['/api/v1/checkout-session', checkout],
      ['/api/v1/webhook-endpoints', webhook],
      ['/api/v1/test-things', thing],
    ] as const) {
      const key = randomUUID();
      const first = await post(t, path, org.sandbox.secretKey, key, body);
      expect(first.status).toBe(200);
      const again = await post(t, path, org.sandbox.secretKey, key, body);
      expect({
        status: again.status,
        replayed: again.headers['idempotent-replayed'],
        text: again.text,
      }).toEqual({
        status: 200,
        replayed: 'true',
        text: first.text,
      });
    }
    expect(await thingsLabelled(thing.label)).toBe(1);
    expect(await count(`webhook_endpoints WHERE environment_id = $1`, [org.sandbox.environmentId])).toBe(1);
  });
});

describe('the same key with other parameters', () => {
  it('is 400 with a different body, and changes nothing', async () => {
    const key = randomUUID();
    const transactionId = unique('order');
    await createRequest(key, { transactionId, amount: 1500 }).expect(200);
    const res = await createRequest(key, { transactionId: unique('other'), amount: 1500 });
    expectText(res, 400, Messages.idempotencyKeyReused);
    const sameFieldsOtherText = await createRequest(key, { amount: 1500, transactionId });
    expectText(sameFieldsOtherText, 400, Messages.idempotencyKeyReused);
  });

  it('is 400 on a different path', async () => {
    const key = randomUUID();
    const body = { transactionId: unique('order'), amount: 1500 };
    await createRequest(key, body).expect(200);
    expectText(
      await post(t, '/api/v1/checkout-session', org.sandbox.secretKey, key, body),
      400,
      Messages.idempotencyKeyReused,
    );
    expectText(
      await post(t, '/api/v1/payment-request?x=1', org.sandbox.secretKey, key, body),
      400,
      Messages.idempotencyKeyReused,
    );
  });

  it('is 400 with a different method, and the other method changes nothing', async () => {
    const key = randomUUID();
    const created = await post(t, '/api/v1/webhook-endpoints', org.sandbox.secretKey, key, {
      url: 'https://merchant.example.mr/a',
      enabled: false,
    }).expect(200);
    const id = created.body.data.id as string;
    const patched = await t.http
      .patch(`/api/v1/webhook-endpoints/${id}`)
      .set('Authorization', org.sandbox.secretKey)
      .set('Idempotency-Key', key)
      .send({ url: 'https://merchant.example.mr/b' });
    expectText(patched, 400, Messages.idempotencyKeyReused);
    const deleted = await t.http
      .delete(`/api/v1/webhook-endpoints/${id}`)
      .set('Authorization', org.sandbox.secretKey)
      .set('Idempotency-Key', key);
    expectText(deleted, 400, Messages.idempotencyKeyReused);
    const now = await t.query<{ url: string }>(`SELECT url FROM webhook_endpoints WHERE id = $1`, [id]);
    expect(now).toEqual([{ url: 'https://merchant.example.mr/a' }]);
  });
});

describe('a key whose first request is still running', () => {
  it('is 409 on the fast path and on the generic one, and nothing is recorded for the refused request', async () => {
    const key = randomUUID();
    const release = await holdKey({ environmentId: org.sandbox.environmentId }, key);
    const body = { transactionId: unique('order'), amount: 1500 };
    try {
      expectText(await createRequest(key, body), 409, Messages.idempotencyKeyInProgress);
      expectText(
        await post(t, '/api/v1/checkout-session', org.sandbox.secretKey, key, body),
        409,
        Messages.idempotencyKeyInProgress,
      );
    } finally {
      await release();
    }
    expect(await count(`payment_requests WHERE transaction_id = $1`, [body.transactionId])).toBe(0);
    // Once it is over, the key is free.
    await createRequest(key, body).expect(200);
  });

  it('is 409 while a request with the key runs, on this instance and on another one, then replays its answer', async () => {
    const other = await startTestApp({}, testDatabaseUrl(), [ThingsModule]);
    try {
      const key = randomUUID();
      const label = unique('slow');
      const g = gate(label);
      const first = post(t, '/api/v1/test-things', org.sandbox.secretKey, key, { label, hold: label }).then(
        (r) => r,
      );
      await g.reached;

      const here = await post(t, '/api/v1/test-things', org.sandbox.secretKey, key, { label, hold: label });
      const there = await post(other, '/api/v1/test-things', org.sandbox.secretKey, key, {
        label,
        hold: label,
      });
      expectText(here, 409, Messages.idempotencyKeyInProgress);
      expectText(there, 409, Messages.idempotencyKeyInProgress);

      g.release();
      const answered = await first;
      expect(answered.status).toBe(200);
      const replayed = await post(other, '/api/v1/test-things', org.sandbox.secretKey, key, {
        label,
        hold: label,
      });
      expect({ text: replayed.text, replayed: replayed.headers['idempotent-replayed'] }).toEqual({
        text: answered.text,
        replayed: 'true',
      });
      expect(await thingsLabelled(label)).toBe(1);
    } finally {
      await other.close();
    }
  });

  it('lets exactly one of many concurrent first requests run; the others get 409 or its answer', async () => {
    const key = randomUUID();
    const body = { transactionId: unique('race'), amount: 1500 };
    const answers = await Promise.all(Array.from({ length: 12 }, () => createRequest(key, body)));
    const fresh = answers.filter((a) => a.status === 200 && a.headers['idempotent-replayed'] === undefined);
    expect(fresh).toHaveLength(1);
    for (const a of answers) {
      if (a === fresh[0]) continue;
      if (a.status === 200)
        expect({ text: a.text, r: a.headers['idempotent-replayed'] }).toEqual({
          text: fresh[0].text,
          r: 'true',
        });
      else expectText(a, 409, Messages.idempotencyKeyInProgress);
    }
    expect(await count(`payment_requests WHERE transaction_id = $1`, [body.transactionId])).toBe(1);
  });
});

describe('scope', () => {
  it('keeps Sandbox and Production apart: the same key runs once in each', async () => {
    const key = randomUUID();
    const body = { transactionId: unique('both'), amount: 1500 };
    const sandbox = await createRequest(key, body, org.sandbox.secretKey);
    const production = await createRequest(key, body, org.production.secretKey);
    expect([sandbox.status, production.status]).toEqual([200, 200]);
    expect(production.headers['idempotent-replayed']).toBeUndefined();
    expect(sandbox.body.data.environmentId).toBe(org.sandbox.environmentId);
    expect(production.body.data.environmentId).toBe(org.production.environmentId);
  });

  it('keeps organizations apart', async () => {
    const other = await newTenant(t);
    const key = randomUUID();
    const body = { transactionId: unique('orgs'), amount: 1500 };
    await createRequest(key, body).expect(200);
    const theirs = await createRequest(key, body, other.sandbox.secretKey);
    expect(theirs.status).toBe(200);
    expect(theirs.headers['idempotent-replayed']).toBeUndefined();
  });

  it("gives publishable keys a namespace of their own: a key a publishable key used first is still free for the merchant's server", async () => {
    const key = randomUUID();
    const first = { transactionId: unique('pk-first'), amount: 1500 };
    await createRequest(undefined, first).expect(200);
    // Anyone holding the publishable key (it is in the merchant's pages) pays with the key first...
    const paid = await post(t, '/api/v1/payment', org.sandbox.publishableKey, key, {
      transactionId: first.transactionId,
      phoneNumber: '22222222',
      configurationId: (
        (await t.http.get('/api/v1/payment-methods').set('Authorization', org.sandbox.publishableKey)).body
          .data as { id: string; type: string }[]
      ).find((m) => m.type === 'masrivi')!.id,
    });
    expect(paid.status).toBe(200);
    // ... then the merchant's server sends that key with its secret key: its request runs normally.
    const body = { transactionId: unique('pk-then-sk'), amount: 1500 };
    const mine = await createRequest(key, body);
    expect(mine.status).toBe(200);
    expect(mine.headers['idempotent-replayed']).toBeUndefined();
    expect(mine.body.data.transactionId).toBe(body.transactionId);
    // Each namespace still replays its own first request.
    const again = await createRequest(key, body);
    expect(again.headers['idempotent-replayed']).toBe('true');
  });
});

describe('a first request that fails', () => {
  it('records nothing: a retry with the key runs again (409 transactionId taken, 422, 400, 500)', async () => {
    const taken = { transactionId: unique('taken'), amount: 1500 };
    await createRequest(undefined, taken).expect(200);
    const key = randomUUID();
    expectText(await createRequest(key, taken), 409, Messages.transactionIdTaken(taken.transactionId));
    expectText(await createRequest(key, taken), 409, Messages.transactionIdTaken(taken.transactionId));

    const invalid = randomUUID();
    expect((await createRequest(invalid, { transactionId: 'x', amount: '10' })).status).toBe(422);
    expectText(
      await createRequest(invalid, { transactionId: 'x', amount: 0 }),
      400,
      Messages.amountNotPositive,
    );
    expect((await createRequest(invalid, { transactionId: unique('now'), amount: 5 })).status).toBe(200);

    expect(
      await count(`idempotency_keys WHERE id = $1`, [
        RequestKey.of({ environmentId: org.sandbox.environmentId, keyKind: 'secret' }, key, {
          method: 'POST',
          path: '',
          body: '',
        }).id,
      ]),
    ).toBe(0);
  });

  it('undoes what it changed before failing (the generic transaction), and the key can be used again', async () => {
    const key = randomUUID();
    const label = unique('fails');
    const failed = await post(t, '/api/v1/test-things', org.sandbox.secretKey, key, { label, fail: true });
    expectText(failed, 500, Messages.internal);
    expect(await thingsLabelled(label)).toBe(0);
    const retried = await post(t, '/api/v1/test-things', org.sandbox.secretKey, key, { label, fail: true });
    expect(retried.status).toBe(500);
    expect(await thingsLabelled(label)).toBe(0);
  });

  it('still gets 409 for a duplicate transactionId without the header (a POST without a key is not idempotent)', async () => {
    const body = { transactionId: unique('plain'), amount: 1500 };
    await createRequest(undefined, body).expect(200);
    expectText(await createRequest(undefined, body), 409, Messages.transactionIdTaken(body.transactionId));
  });
});

describe('the header', () => {
  it('is 400 when the key is empty, over 255 characters or not printable, and nothing runs', async () => {
    const transactionId = unique('badkey');
    for (const key of ['', 'k'.repeat(256), 'clé-é']) {
      const res = await t.http
        .post('/api/v1/payment-request')
        .set('Authorization', org.sandbox.secretKey)
        .set('Idempotency-Key', key)
        .send({ transactionId, amount: 10 });
      expectText(res, 400, Messages.idempotencyKeyInvalid);
    }
    expect(await count(`payment_requests WHERE transaction_id = $1`, [transactionId])).toBe(0);
  });

  it('accepts 255 printable characters', async () => {
    const res = await createRequest(`${'k'.repeat(254)}!`, { transactionId: unique('long'), amount: 10 });
    expect(res.status).toBe(200);
  });
});

describe('expiry', () => {
  it('deletes keys once 24 h old, in batches, run twice and concurrently; a retry then runs again', async () => {
    const bodies = Array.from({ length: 5 }, () => ({ transactionId: unique('exp'), amount: 10 }));
    const keys = bodies.map(() => randomUUID());
    for (let i = 0; i < bodies.length; i++) await createRequest(keys[i], bodies[i]).expect(200);
    const young = { key: randomUUID(), body: { transactionId: unique('young'), amount: 10 } };
    await createRequest(young.key, young.body).expect(200);
    const ids = keys.map(
      (k) =>
        RequestKey.of({ environmentId: org.sandbox.environmentId, keyKind: 'secret' }, k, {
          method: 'POST',
          path: '',
          body: '',
        }).id,
    );
    await t.query(
      `UPDATE idempotency_keys SET created_at = now() - interval '24 hours 1 second' WHERE id = ANY($1)`,
      [ids],
    );

    const job = t.app.get(ExpireIdempotencyKeysJob);
    await Promise.all([job.run(2), job.run(2)]);
    await job.run(2);
    expect(await count(`idempotency_keys WHERE id = ANY($1)`, [ids])).toBe(0);

    // Expired: the retry runs again, and meets the request it made the first time.
    expectText(
      await createRequest(keys[0], bodies[0]),
      409,
      Messages.transactionIdTaken(bodies[0].transactionId),
    );
    // Not expired: still a replay.
    expect((await createRequest(young.key, young.body)).headers['idempotent-replayed']).toBe('true');
  });
});

describe('every POST route of the API', () => {
  /** Valid bodies for the routes whose body `{}` does not pass validation (which comes first). */
  const BODIES: Record<string, object> = {
    '/api/v1/payment-request': { transactionId: 'any', amount: 10 },
    '/api/v1/payment': { transactionId: 'any', phoneNumber: '22222222', configurationId: randomUUID() },
    '/api/v1/webhook-endpoints': { url: 'https://merchant.example.mr/any', enabled: false },
    '/api/v1/products': { name: 'any' },
    '/api/v1/payment-links': { name: 'any', amount: 10 },
    '/api/v1/prices': { productId: randomUUID(), amount: 10, interval: 'monthly' },
    '/api/v1/customers': { externalUserId: 'any' },
    '/api/v1/subscriptions': { customerId: randomUUID(), priceId: randomUUID() },
    '/api/v1/subscriptions/by-external-user': { externalUserId: 'any', priceId: randomUUID() },
    '/api/v1/subscriptions/:id/change': { quantity: 2 },
    '/api/v1/subscriptions/:id/discount': { coupon: 'ANY' },
    '/api/v1/coupons': { percentOff: 10, duration: 'once' },
    '/api/v1/test-clocks': { frozenTime: '2025-01-01T00:00:00Z' },
    '/api/v1/test-clocks/:id/advance': { frozenTime: '2025-02-01T00:00:00Z' },
    '/api/v1/transfers/:id/assign': { paymentRequestId: randomUUID() },
    '/api/v1/sandbox/transfers': { payerPhone: '22222222', amount: 10 },
    '/api/v1/refunds': { paymentId: randomUUID() },
    '/api/v1/invoices/:id/payments': { amount: 10, method: 'cash' },
    '/api/v1/accounts': { name: 'any', email: 'any@example.mr' },
    '/api/v1/portal-sessions': { customerId: randomUUID() },
    '/api/v1/accounts/:id/onboarding-link': {
      returnUrl: 'https://platform.example.mr/done',
      refreshUrl: 'https://platform.example.mr/again',
    },
  };

  function postRoutes(): Array<{ path: string; oncePerKey: boolean }> {
    const routes: Array<{ path: string; oncePerKey: boolean }> = [];
    for (const module of t.app.get(ModulesContainer).values()) {
      for (const { metatype } of module.controllers.values()) {
        if (!metatype || metatype === ThingsController) continue;
        const base = String(Reflect.getMetadata(PATH_METADATA, metatype) ?? '');
        const proto = metatype.prototype as Record<string, unknown>;
        for (const name of Object.getOwnPropertyNames(proto)) {
          const handler = proto[name];
          if (typeof handler !== 'function' || name === 'constructor') continue;
          if (Reflect.getMetadata(METHOD_METADATA, handler) !== RequestMethod.POST) continue;
          const path = `/${[base, String(Reflect.getMetadata(PATH_METADATA, handler) ?? '')].filter((p) => p && p !== '/').join('/')}`;
          if (!path.startsWith('/api/v1/')) continue; // the hosted page keys its own form
          routes.push({ path, oncePerKey: Reflect.getMetadata(ONCE_PER_KEY, handler) === true });
        }
      }
    }
    return routes;
  }

  it('are all declared with Post of src/common/http/routes.ts, which runs them once per key (routes added later too)', () => {
    const routes = postRoutes();
    expect(routes.map((r) => r.path)).toEqual(
      expect.arrayContaining(['/api/v1/payment-request', '/api/v1/payment', '/api/v1/checkout-session']),
    );
    expect(routes.filter((r) => !r.oncePerKey)).toEqual([]);
  });

  it('refuse a key used by another request (400), and an invalid key (400)', async () => {
    // The public checkout's routes key in their session's namespace, not the secret key's
    // (test/payments/moosyl-clients.e2e-spec.ts shows a reused and a replayed key there).
    // The banks' notifications carry a signature, not a key: refused (401) before any key is read,
    // and idempotent on the bank's own reference (test/transfers/gateway-notifications.e2e-spec.ts).
    for (const route of postRoutes().filter(
      (r) =>
        !r.path.startsWith('/api/v1/checkout-session/public/') &&
        r.path !== '/api/v1/bank-notifications/transfers',
    )) {
      const path = route.path.replace(/:[A-Za-z]+/g, randomUUID());
      const key = randomUUID();
      const used = RequestKey.of({ environmentId: org.sandbox.environmentId, keyKind: 'secret' }, key, {
        method: 'POST',
        path: '/api/v1/somewhere-else',
        body: '{}',
      });
      await t.query(
        `INSERT INTO idempotency_keys (id, environment_id, request_hash, status, body) VALUES ($1, $2, $3, 200, '{}')`,
        [used.id, org.sandbox.environmentId, used.requestHash],
      );
      const body = BODIES[route.path] ?? {};
      const reused = await post(t, path, org.sandbox.secretKey, key, body);
      if (reused.status === 422) throw new Error(`${route.path}: give this test a valid body for it`);
      expect({ route: route.path, status: reused.status, text: reused.text }).toEqual({
        route: route.path,
        status: 400,
        text: Messages.idempotencyKeyReused,
      });
      const invalid = await post(t, path, org.sandbox.secretKey, 'k'.repeat(300), body);
      expect({ route: route.path, status: invalid.status, text: invalid.text }).toEqual({
        route: route.path,
        status: 400,
        text: Messages.idempotencyKeyInvalid,
      });
    }
  });
});

it('documents the optional Idempotency-Key header on every POST of the OpenAPI document', async () => {
  const doc = (await t.http.get('/api/docs-json')).body as {
    paths: Record<string, { post?: { parameters?: Array<{ name: string; in: string; required: boolean }> } }>;
  };
  const posts = Object.entries(doc.paths).filter(([path, item]) => path.startsWith('/api/v1/') && item.post);
  expect(posts.length).toBeGreaterThan(5);
  for (const [path, item] of posts)
    expect({ path, header: item.post!.parameters!.find((p) => p.name === 'Idempotency-Key') }).toEqual({
      path,
      header: expect.objectContaining({ in: 'header', required: false }),
    });
});
