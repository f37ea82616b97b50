import { Messages } from '../../src/common/errors/messages';
import type { CreatedOrganization } from '../../src/organizations/organizations.service';
import { newTenant, startTestApp, TestApp } from '../helpers/app';
import { expect422, expectText } from '../helpers/http';

let t: TestApp;
let org: CreatedOrganization;
beforeAll(async () => {
  t = await startTestApp();
  org = await newTenant(t);
});
afterAll(() => t.close());

const PATH = '/api/v1/payment-request';
let seq = 0;
const txn = (label = 'order') => `${label}-${Date.now()}-${++seq}`;

function create(key: string, body: unknown) {
  return t.http
    .post(PATH)
    .set('Authorization', key)
    .send(body as object);
}

async function eventsFor(
  transactionId: string,
): Promise<Array<{ kind: string; data: Record<string, unknown> }>> {
  return t.query(`SELECT kind, data FROM events WHERE data->>'transactionId' = $1 ORDER BY created_at`, [
    transactionId,
  ]);
}

describe('POST /payment-request', () => {
  it('creates a pending payment request and answers 200 with it in data', async () => {
    const transactionId = txn();
    const res = await create(org.sandbox.secretKey, {
      transactionId,
      amount: 1500,
      phoneNumber: '+222 22 12 34 56',
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      transactionId,
      amount: 1500,
      phoneNumber: '22123456',
      status: 'pending',
      paidAt: null,
      invoiceId: null,
      applicationFee: null,
      paymentLinkId: null,
      environmentId: org.sandbox.environmentId,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      totalAmount: 1500,
      retryCount: 0,
    });
  });

  it('records payment-request-created with the request as data, in the same transaction', async () => {
    const transactionId = txn();
    const res = await create(org.sandbox.secretKey, { transactionId, amount: 10 });
    const events = await eventsFor(transactionId);
    expect(events).toEqual([{ kind: 'payment-request-created', data: res.body.data }]);
  });

  it('accepts a request without phoneNumber and ignores unknown properties', async () => {
    const res = await create(org.sandbox.secretKey, { transactionId: txn(), amount: 5, color: 'blue' });
    expect(res.status).toBe(200);
    expect(res.body.data.phoneNumber).toBeNull();
    expect(res.body.data).not.toHaveProperty('color');
  });

  it('returns 409 with the transactionId when it is already used in the environment, and writes nothing', async () => {
    const transactionId = txn();
    expect((await create(org.sandbox.secretKey, { transactionId, amount: 10 })).status).toBe(200);
    const again = await create(org.sandbox.secretKey, { transactionId, amount: 99 });
    expectText(
      again,
      409,
      `A payment request with transactionId "${transactionId}" already exists in this environment`,
    );
    expect(await eventsFor(transactionId)).toHaveLength(1);
    const rows = await t.query('SELECT amount FROM payment_requests WHERE transaction_id = $1', [
      transactionId,
    ]);
    expect(rows).toEqual([{ amount: 10 }]);
  });

  it('allows the same transactionId in the other environment and in another organization', async () => {
    const other = await newTenant(t);
    const transactionId = txn();
    expect((await create(org.sandbox.secretKey, { transactionId, amount: 10 })).status).toBe(200);
    expect((await create(org.production.secretKey, { transactionId, amount: 10 })).status).toBe(200);
    expect((await create(other.sandbox.secretKey, { transactionId, amount: 10 })).status).toBe(200);
  });

  it.each([0, -1, -100000])('returns 400 when amount is %p', async (amount) => {
    const transactionId = txn();
    expectText(
      await create(org.sandbox.secretKey, { transactionId, amount }),
      400,
      Messages.amountNotPositive,
    );
    expect(await eventsFor(transactionId)).toHaveLength(0);
  });

  it('returns 400 when amount exceeds 100000000 and accepts exactly 100000000', async () => {
    expectText(
      await create(org.sandbox.secretKey, { transactionId: txn(), amount: 100000001 }),
      400,
      'Amount must not exceed 100000000',
    );
    expect((await create(org.sandbox.secretKey, { transactionId: txn(), amount: 100000000 })).status).toBe(
      200,
    );
  });

  it.each(['12345678', '5212345', '2212345', 'abc', '+22312345678'])(
    'returns 400 for the phone number %p',
    async (phoneNumber) => {
      expectText(
        await create(org.sandbox.secretKey, { transactionId: txn(), amount: 10, phoneNumber }),
        400,
        Messages.invalidPhoneNumber,
      );
    },
  );

  it.each([
    ['a string amount', { amount: '10' }, '/amount'],
    ['a fractional amount', { amount: 10.5 }, '/amount'],
    ['a boolean amount', { amount: true }, '/amount'],
    ['a null amount', { amount: null }, '/amount'],
    ['a numeric transactionId', { transactionId: 42 }, '/transactionId'],
    ['an empty transactionId', { transactionId: '' }, '/transactionId'],
    ['a 129-character transactionId', { transactionId: 'x'.repeat(129) }, '/transactionId'],
    ['a transactionId with a control character', { transactionId: 'a\u0007b' }, '/transactionId'],
    ['a numeric phoneNumber', { phoneNumber: 22123456 }, '/phoneNumber'],
  ])('returns 422 on the body for %s', async (_label, override, property) => {
    const body = { transactionId: txn(), amount: 10, ...override };
    const res = await create(org.sandbox.secretKey, body);
    const v = expect422(res, 'body', property);
    expect(v.found).toEqual(body);
    expect(v.expected).toMatchObject({
      transactionId: expect.any(String),
      amount: 'integer',
      'phoneNumber?': expect.any(String),
    });
  });

  it('accepts a 128-character transactionId', async () => {
    const transactionId = `${Date.now()}`.padEnd(128, 'y');
    expect((await create(org.sandbox.secretKey, { transactionId, amount: 1 })).status).toBe(200);
  });

  it('returns 422 listing every missing field, the first one as the main property', async () => {
    const res = await create(org.sandbox.secretKey, {});
    const v = expect422(res, 'body', '/transactionId');
    expect(v.message).toBe('Required property');
    expect(v.summary).toBe("Property 'transactionId' is missing");
    expect(v.errors.map((e) => e.property).sort()).toEqual(['/amount', '/transactionId']);
  });

  it('treats an empty body sent as JSON as {} (422, not 400)', async () => {
    const res = await t.http
      .post(PATH)
      .set('Authorization', org.sandbox.secretKey)
      .set('content-type', 'application/json');
    expect422(res, 'body', '/transactionId');
  });

  it('returns 422 when the body is JSON but not an object', async () => {
    const res = await t.http
      .post(PATH)
      .set('Authorization', org.sandbox.secretKey)
      .set('content-type', 'application/json')
      .send('[1,2]');
    expect422(res, 'body', '');
  });

  it('checks types (422) before business rules (400)', async () => {
    const res = await create(org.sandbox.secretKey, { amount: 0 });
    expect422(res, 'body', '/transactionId');
  });

  it('gives exactly one 200 and nineteen 409 for 20 simultaneous POSTs with one transactionId, and one row', async () => {
    const transactionId = txn('race');
    const results = await Promise.all(
      Array.from({ length: 20 }, () => create(org.sandbox.secretKey, { transactionId, amount: 700 })),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(19);
    const rows = await t.query('SELECT id FROM payment_requests WHERE transaction_id = $1', [transactionId]);
    expect(rows).toHaveLength(1);
    expect(await eventsFor(transactionId)).toHaveLength(1);
  });
});

describe('GET /payment-request/by-transaction/:transactionId', () => {
  it('returns the whole record to a secret key', async () => {
    const created = (
      await create(org.sandbox.secretKey, {
        transactionId: txn('look'),
        amount: 321,
        phoneNumber: '33123456',
      })
    ).body.data;
    const res = await t.http
      .get(`${PATH}/by-transaction/${encodeURIComponent(created.transactionId)}`)
      .set('Authorization', org.sandbox.secretKey);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: created });
  });

  it('returns only id, amount and phoneNumber to a publishable key', async () => {
    const created = (
      await create(org.sandbox.secretKey, { transactionId: txn('pk'), amount: 321, phoneNumber: '33123456' })
    ).body.data;
    const res = await t.http
      .get(`${PATH}/by-transaction/${created.transactionId}`)
      .set('Authorization', org.sandbox.publishableKey);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: { id: created.id, amount: 321, phoneNumber: '33123456' } });
  });

  it('finds transactionIds with spaces and slashes when URL-encoded', async () => {
    const transactionId = `${txn()} / #1`;
    expect((await create(org.sandbox.secretKey, { transactionId, amount: 3 })).status).toBe(200);
    const res = await t.http
      .get(`${PATH}/by-transaction/${encodeURIComponent(transactionId)}`)
      .set('Authorization', org.sandbox.secretKey);
    expect(res.status).toBe(200);
    expect(res.body.data.transactionId).toBe(transactionId);
  });

  it('returns 404 for an unknown transactionId', async () => {
    const res = await t.http
      .get(`${PATH}/by-transaction/nope-${Date.now()}`)
      .set('Authorization', org.sandbox.secretKey);
    expectText(res, 404, Messages.paymentRequestNotFound);
  });

  it("returns 404 to the other environment's keys and to another organization", async () => {
    const other = await newTenant(t);
    const { transactionId } = (await create(org.sandbox.secretKey, { transactionId: txn(), amount: 3 })).body
      .data;
    for (const key of [org.production.secretKey, org.production.publishableKey, other.sandbox.secretKey]) {
      const res = await t.http.get(`${PATH}/by-transaction/${transactionId}`).set('Authorization', key);
      expectText(res, 404, Messages.paymentRequestNotFound);
    }
  });
});

describe('GET /payment-request/:id', () => {
  it('returns the request to a secret key of its environment', async () => {
    const created = (await create(org.production.secretKey, { transactionId: txn(), amount: 77 })).body.data;
    const res = await t.http.get(`${PATH}/${created.id}`).set('Authorization', org.production.secretKey);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: created });
  });

  it('returns 422 on params when the id is not a UUID', async () => {
    const res = await t.http.get(`${PATH}/not-a-uuid`).set('Authorization', org.sandbox.secretKey);
    const v = expect422(res, 'params', '/id');
    expect(v.found).toEqual({ id: 'not-a-uuid' });
  });

  it('returns 404 for an unknown id, another environment and another organization', async () => {
    const other = await newTenant(t);
    const created = (await create(org.sandbox.secretKey, { transactionId: txn(), amount: 77 })).body.data;
    for (const [key, id] of [
      [org.sandbox.secretKey, '00000000-0000-4000-8000-000000000000'],
      [org.production.secretKey, created.id],
      [other.sandbox.secretKey, created.id],
    ]) {
      expectText(
        await t.http.get(`${PATH}/${id}`).set('Authorization', key),
        404,
        Messages.paymentRequestNotFound,
      );
    }
  });
});

describe('GET /payment-request (list)', () => {
  let lister: CreatedOrganization;
  const ids: string[] = [];
  beforeAll(async () => {
    lister = await newTenant(t);
    for (let i = 0; i < 25; i++) {
      ids.push(
        (await create(lister.sandbox.secretKey, { transactionId: `list-${i}`, amount: i + 1 })).body.data.id,
      );
    }
    await create(lister.production.secretKey, { transactionId: 'prod-only', amount: 1 });
    // Distinct creation times, so "newest first" has one right answer even for requests made in the same millisecond.
    await t.query(
      `UPDATE payment_requests SET created_at = timestamptz '2026-01-01' + (split_part(transaction_id, '-', 2)::int * interval '1 second')
        WHERE id = ANY($1::uuid[])`,
      [ids],
    );
    await t.query(`UPDATE payment_requests SET status = 'paid', paid_at = now() WHERE id = $1`, [ids[3]]);
  });

  it('lists newest first with default page 1 and limit 20', async () => {
    const res = await t.http.get(PATH).set('Authorization', lister.sandbox.secretKey);
    expect(res.status).toBe(200);
    expect(res.body.pagination).toEqual({ page: 1, limit: 20, total: 25, totalPages: 2 });
    expect(res.body.data).toHaveLength(20);
    expect(res.body.data[0].transactionId).toBe('list-24');
  });

  it('returns the rest on page 2 and an empty page past the end', async () => {
    const p2 = await t.http.get(`${PATH}?page=2`).set('Authorization', lister.sandbox.secretKey);
    expect(p2.body.data.map((r: { transactionId: string }) => r.transactionId)).toEqual([
      'list-4',
      'list-3',
      'list-2',
      'list-1',
      'list-0',
    ]);
    const p9 = await t.http.get(`${PATH}?page=9`).set('Authorization', lister.sandbox.secretKey);
    expect(p9.status).toBe(200);
    expect(p9.body).toEqual({ data: [], pagination: { page: 9, limit: 20, total: 25, totalPages: 2 } });
  });

  it('accepts limit 100 and rejects limit 101 with 422 on the query', async () => {
    const ok = await t.http.get(`${PATH}?limit=100`).set('Authorization', lister.sandbox.secretKey);
    expect(ok.body.pagination).toEqual({ page: 1, limit: 100, total: 25, totalPages: 1 });
    expect422(
      await t.http.get(`${PATH}?limit=101`).set('Authorization', lister.sandbox.secretKey),
      'query',
      '/limit',
    );
  });

  it.each(['page=0', 'page=-1', 'page=abc', 'page=1.5', 'limit=0', 'limit=x', 'status=refunded'])(
    'returns 422 on the query for %s',
    async (qs) => {
      const res = await t.http.get(`${PATH}?${qs}`).set('Authorization', lister.sandbox.secretKey);
      expect422(res, 'query', `/${qs.split('=')[0]}`);
    },
  );

  it('filters by status', async () => {
    const res = await t.http.get(`${PATH}?status=paid`).set('Authorization', lister.sandbox.secretKey);
    expect(res.body.data.map((r: { id: string }) => r.id)).toEqual([ids[3]]);
    expect(res.body.pagination.total).toBe(1);
  });

  it("lists only the key's environment", async () => {
    const res = await t.http.get(PATH).set('Authorization', lister.production.secretKey);
    expect(res.body.data.map((r: { transactionId: string }) => r.transactionId)).toEqual(['prod-only']);
  });
});
