import { Messages } from '../../src/common/errors/messages';
import type { CreatedOrganization } from '../../src/organizations/organizations.service';
import { newTenant, startTestApp, TestApp } from '../helpers/app';
import { createCustomer, uniqueId } from '../helpers/billing';
import { expect422, expectText } from '../helpers/http';

let t: TestApp;
let org: CreatedOrganization;
let sk: string;
beforeAll(async () => {
  t = await startTestApp();
  org = await newTenant(t);
  sk = org.sandbox.secretKey;
});
afterAll(() => t.close());

const get = (path: string, key = sk) => t.http.get(`/api/v1${path}`).set('Authorization', key);
const post = (body: object, key = sk) =>
  t.http.post('/api/v1/customers').set('Authorization', key).send(body);
const patch = (id: string, body: object, key = sk) =>
  t.http.patch(`/api/v1/customers/${id}`).set('Authorization', key).send(body);

describe('customers', () => {
  it('creates a customer with all its fields, the phone normalised to its 8 digits', async () => {
    const externalUserId = uniqueId('user');
    const res = await post({ externalUserId, phone: '+222 22 12 34 56' });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      externalUserId,
      phone: '22123456',
      creditBalance: 0,
      language: 'fr',
      testClockId: null,
      organizationId: org.organizationId,
      createdAt: expect.any(String),
    });
    const withoutPhone = await post({ externalUserId: uniqueId('user') });
    expect(withoutPhone.body.data.phone).toBeNull();
  });

  it('keeps the language Khoums writes to the customer in: fr by default, fr, ar or en, 422 otherwise', async () => {
    const ar = await post({ externalUserId: uniqueId('user'), language: 'ar' });
    expect(ar.body.data.language).toBe('ar');
    expect((await post({ externalUserId: uniqueId('user'), language: 'de' })).status).toBe(422);
    const res = await t.http
      .patch(`/api/v1/customers/${ar.body.data.id}`)
      .set('Authorization', org.sandbox.secretKey)
      .send({ language: 'en' });
    expect(res.status).toBe(200);
    expect(res.body.data.language).toBe('en');
    expect(res.body.data.externalUserId).toBe(ar.body.data.externalUserId);
  });

  it('answers 409 with the taken-externalUserId message for a second customer with the same externalUserId, from either environment', async () => {
    const externalUserId = uniqueId('user');
    await createCustomer(t, sk, { externalUserId });
    expectText(
      await post({ externalUserId }),
      409,
      `A customer with externalUserId "${externalUserId}" already exists`,
    );
    expectText(
      await post({ externalUserId }, org.production.secretKey),
      409,
      Messages.customerExternalIdTaken(externalUserId),
    );
  });

  it('creates one customer when the same externalUserId is sent twice at once', async () => {
    const externalUserId = uniqueId('user');
    const results = await Promise.all([post({ externalUserId }), post({ externalUserId })]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
  });

  it('allows the same externalUserId in another organization', async () => {
    const externalUserId = uniqueId('user');
    await createCustomer(t, sk, { externalUserId });
    const b = await newTenant(t);
    expect((await post({ externalUserId }, b.sandbox.secretKey)).status).toBe(200);
  });

  it('is shared by both environments of the organization', async () => {
    const customer = await createCustomer(t, sk);
    const list = await get(`/customers?id=${customer.id}`, org.production.secretKey);
    expect(list.body.data).toEqual([customer]);
    const updated = await patch(customer.id, { phone: '33445566' }, org.production.secretKey);
    expect(updated.body.data.phone).toBe('33445566');
  });

  it('lists newest first, filtered by id or externalUserId, with pagination', async () => {
    const b = await newTenant(t);
    const key = b.sandbox.secretKey;
    const first = await createCustomer(t, key);
    const second = await createCustomer(t, key);
    const all = await get('/customers', key);
    expect(all.body).toEqual({
      data: [second, first],
      pagination: { page: 1, limit: 20, total: 2, totalPages: 1 },
    });
    expect((await get(`/customers?externalUserId=${first.externalUserId}`, key)).body.data).toEqual([first]);
    expect((await get(`/customers?id=${second.id}`, key)).body.data).toEqual([second]);
    expect((await get('/customers?externalUserId=nobody', key)).body.data).toEqual([]);
    expect((await get('/customers?limit=1&page=2', key)).body.data).toEqual([first]);
  });

  it('updates externalUserId and phone; null removes the phone; a taken externalUserId is 409', async () => {
    const a = await createCustomer(t, sk);
    const b = await createCustomer(t, sk);
    const newId = uniqueId('renamed');
    const res = await patch(a.id, { externalUserId: newId, phone: null });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ ...a, externalUserId: newId, phone: null });
    expectText(
      await patch(a.id, { externalUserId: b.externalUserId }),
      409,
      Messages.customerExternalIdTaken(b.externalUserId),
    );
    expect((await patch(a.id, {})).body.data).toEqual({ ...a, externalUserId: newId, phone: null });
  });

  it('answers 400 `Invalid phone number` for a number that is not Mauritanian, 422 for a wrong type', async () => {
    expectText(
      await post({ externalUserId: uniqueId('user'), phone: '12345678' }),
      400,
      Messages.invalidPhoneNumber,
    );
    const c = await createCustomer(t, sk);
    expectText(await patch(c.id, { phone: '999' }), 400, Messages.invalidPhoneNumber);
    expect422(await post({ externalUserId: uniqueId('user'), phone: 22123456 }), 'body', '/phone');
    expect422(await post({}), 'body', '/externalUserId');
    expect422(await post({ externalUserId: '' }), 'body', '/externalUserId');
    expect422(await post({ externalUserId: 'x'.repeat(129) }), 'body', '/externalUserId');
    expect422(await patch('nope', {}), 'params', '/id');
  });

  it('keeps customers to their organization: another one gets 404 and an empty list', async () => {
    const customer = await createCustomer(t, sk);
    const b = await newTenant(t);
    expectText(
      await patch(customer.id, { phone: '22222222' }, b.sandbox.secretKey),
      404,
      Messages.customerNotFound,
    );
    expect((await get(`/customers?id=${customer.id}`, b.sandbox.secretKey)).body.data).toEqual([]);
    expect(
      (await get(`/customers?externalUserId=${customer.externalUserId}`, b.production.secretKey)).body.data,
    ).toEqual([]);
  });

  it('has no get-by-id and no delete, and is for secret keys only', async () => {
    const customer = await createCustomer(t, sk);
    expectText(await get(`/customers/${customer.id}`), 404, Messages.notFound);
    expectText(
      await t.http.delete(`/api/v1/customers/${customer.id}`).set('Authorization', sk),
      404,
      Messages.notFound,
    );
    expectText(await get('/customers', org.sandbox.publishableKey), 403, Messages.unauthorizedAccess);
  });
});
