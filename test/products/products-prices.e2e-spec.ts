import { Messages } from '../../src/common/errors/messages';
import type { CreatedOrganization } from '../../src/organizations/organizations.service';
import { newTenant, startTestApp, TestApp } from '../helpers/app';
import { createPrice, createProduct } from '../helpers/billing';
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
const patch = (path: string, body: object = {}, key = sk) =>
  t.http.patch(`/api/v1${path}`).set('Authorization', key).send(body);
const post = (path: string, body: object = {}, key = sk) =>
  t.http.post(`/api/v1${path}`).set('Authorization', key).send(body);

describe('products', () => {
  it('creates a product in the environment of the key, with all its fields and 200', async () => {
    const res = await post('/products', { name: 'Abonnement Premium', description: 'Accès illimité' });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: 'Abonnement Premium',
      description: 'Accès illimité',
      active: true,
      organizationId: org.organizationId,
      environmentId: org.sandbox.environmentId,
      createdAt: expect.any(String),
    });
    expect(res.body.data).not.toHaveProperty('prices');
  });

  it('gets a product with its active prices only, and lists products with theirs', async () => {
    const product = await createProduct(t, sk, { name: 'Box' });
    const monthly = await createPrice(t, sk, product.id, { amount: 1000, interval: 'monthly' });
    const yearly = await createPrice(t, sk, product.id, { amount: 10000, interval: 'yearly' });
    await patch(`/prices/${yearly.id}/archive`);
    const res = await get(`/products/${product.id}`);
    expect(res.status).toBe(200);
    expect(res.body.data.prices).toEqual([monthly]);

    const list = await get(`/products?id=${product.id}`);
    expect(list.body).toEqual({
      data: [{ ...product, prices: [monthly] }],
      pagination: { page: 1, limit: 20, total: 1, totalPages: 1 },
    });
  });

  it('lists active products of the environment, newest first, with pagination', async () => {
    const other = await newTenant(t);
    const key = other.sandbox.secretKey;
    const a = await createProduct(t, key, { name: 'A' });
    const b = await createProduct(t, key, { name: 'B' });
    const c = await createProduct(t, key, { name: 'C' });
    await patch(`/products/${b.id}/archive`, {}, key);
    await createProduct(t, other.production.secretKey, { name: 'Live' });
    const page1 = await get('/products?limit=1', key);
    expect(page1.body.data.map((p: { id: string }) => p.id)).toEqual([c.id]);
    expect(page1.body.pagination).toEqual({ page: 1, limit: 1, total: 2, totalPages: 2 });
    const page2 = await get('/products?limit=1&page=2', key);
    expect(page2.body.data.map((p: { id: string }) => p.id)).toEqual([a.id]);
  });

  it('updates name and description (null clears it)', async () => {
    const product = await createProduct(t, sk, { name: 'Old', description: 'x' });
    const res = await patch(`/products/${product.id}`, { name: 'New', description: null });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id: product.id, name: 'New', description: null, active: true });
  });

  it('archives a product: active false, then gone from lists and look-ups, and it cannot be updated or restored', async () => {
    const product = await createProduct(t, sk);
    const price = await createPrice(t, sk, product.id);
    const res = await patch(`/products/${product.id}/archive`);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id: product.id, active: false });
    expectText(await get(`/products/${product.id}`), 404, Messages.productNotFound);
    expect((await get(`/products?id=${product.id}`)).body.data).toEqual([]);
    expectText(await patch(`/products/${product.id}`, { name: 'Back' }), 404, Messages.productNotFound);
    expectText(await patch(`/products/${product.id}`, { active: true }), 404, Messages.productNotFound);
    expectText(await patch(`/products/${product.id}/archive`), 404, Messages.productNotFound);
    // Its prices are unchanged and still readable.
    expect((await get(`/prices/${price.id}`)).body.data).toEqual(price);
  });

  it('archives through PATCH with active: false, as the client library does', async () => {
    const product = await createProduct(t, sk);
    expect((await patch(`/products/${product.id}`, { active: false })).body.data.active).toBe(false);
    expectText(await get(`/products/${product.id}`), 404, Messages.productNotFound);
  });

  it('validates: a missing or empty name, a wrong type and a non-UUID id are 422', async () => {
    expect422(await post('/products', {}), 'body', '/name');
    expect422(await post('/products', { name: '' }), 'body', '/name');
    expect422(await post('/products', { name: 'x', description: 5 }), 'body', '/description');
    expect422(await get('/products/not-a-uuid'), 'params', '/id');
    expect422(await get('/products?limit=101'), 'query', '/limit');
  });

  it('keeps products to their environment: the other environment and another organization get 404', async () => {
    const product = await createProduct(t, sk);
    expectText(await get(`/products/${product.id}`, org.production.secretKey), 404, Messages.productNotFound);
    for (const [path, body] of [
      [`/products/${product.id}`, { name: 'x' }],
      [`/products/${product.id}`, { active: false }],
      [`/products/${product.id}/archive`, {}],
    ] as const) {
      expectText(await patch(path, body, org.production.secretKey), 404, Messages.productNotFound);
    }
    expect((await get(`/products/${product.id}`)).body.data).toMatchObject({
      name: product.name,
      active: true,
    });
    const b = await newTenant(t);
    expectText(await get(`/products/${product.id}`, b.sandbox.secretKey), 404, Messages.productNotFound);
    expectText(
      await patch(`/products/${product.id}`, { name: 'x' }, b.sandbox.secretKey),
      404,
      Messages.productNotFound,
    );
    expectText(
      await patch(`/products/${product.id}/archive`, {}, b.sandbox.secretKey),
      404,
      Messages.productNotFound,
    );
    expect((await get(`/products?id=${product.id}`, b.sandbox.secretKey)).body.data).toEqual([]);
  });

  it('is for secret keys only', async () => {
    expectText(await get('/products', org.sandbox.publishableKey), 403, Messages.unauthorizedAccess);
    expectText(
      await post('/products', { name: 'x' }, org.sandbox.publishableKey),
      403,
      Messages.unauthorizedAccess,
    );
    expectText(await t.http.get('/api/v1/products'), 401, Messages.apiKeyRequired);
  });
});

describe('prices', () => {
  it('creates a price for an active product of the environment', async () => {
    const product = await createProduct(t, sk);
    const res = await post('/prices', { productId: product.id, amount: 2500, interval: 'weekly' });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      productId: product.id,
      amount: 2500,
      interval: 'weekly',
      active: true,
      createdAt: expect.any(String),
    });
    expect((await get(`/prices/${res.body.data.id}`)).body.data).toEqual(res.body.data);
  });

  it('answers 400 `Price amount must be a positive number` for 0 or less, and 400 over the maximum', async () => {
    const product = await createProduct(t, sk);
    for (const amount of [0, -100]) {
      expectText(
        await post('/prices', { productId: product.id, amount, interval: 'monthly' }),
        400,
        Messages.priceAmountNotPositive,
      );
    }
    expectText(
      await post('/prices', { productId: product.id, amount: 100_000_001, interval: 'monthly' }),
      400,
      Messages.amountTooLarge,
    );
    const price = await createPrice(t, sk, product.id);
    expectText(await patch(`/prices/${price.id}`, { amount: 0 }), 400, Messages.priceAmountNotPositive);
  });

  it('validates shapes with 422: amount not an integer, an unknown interval, a missing productId', async () => {
    const product = await createProduct(t, sk);
    expect422(
      await post('/prices', { productId: product.id, amount: '10', interval: 'monthly' }),
      'body',
      '/amount',
    );
    expect422(
      await post('/prices', { productId: product.id, amount: 10.5, interval: 'monthly' }),
      'body',
      '/amount',
    );
    expect422(
      await post('/prices', { productId: product.id, amount: 10, interval: 'daily' }),
      'body',
      '/interval',
    );
    expect422(await post('/prices', { amount: 10, interval: 'monthly' }), 'body', '/productId');
    expect422(await patch('/prices/nope', {}), 'params', '/id');
  });

  it('needs an active product of the key’s environment (404 `Product not found`)', async () => {
    const product = await createProduct(t, sk);
    const body = { productId: product.id, amount: 100, interval: 'monthly' };
    expectText(await post('/prices', body, org.production.secretKey), 404, Messages.productNotFound);
    await patch(`/products/${product.id}/archive`);
    expectText(await post('/prices', body), 404, Messages.productNotFound);
    expectText(
      await post('/prices', { ...body, productId: '00000000-0000-4000-8000-000000000000' }),
      404,
      Messages.productNotFound,
    );
  });

  it('is readable with any secret key of the organization, and by no other organization', async () => {
    const product = await createProduct(t, sk);
    const price = await createPrice(t, sk, product.id);
    expect((await get(`/prices/${price.id}`, org.production.secretKey)).body.data).toEqual(price);
    const b = await newTenant(t);
    expectText(await get(`/prices/${price.id}`, b.sandbox.secretKey), 404, Messages.priceNotFound);
    expectText(
      await patch(`/prices/${price.id}`, { amount: 5 }, b.sandbox.secretKey),
      404,
      Messages.priceNotFound,
    );
    expectText(
      await patch(`/prices/${price.id}/archive`, {}, b.sandbox.secretKey),
      404,
      Messages.priceNotFound,
    );
    expectText(
      await get(`/prices/${price.id}`, org.sandbox.publishableKey),
      403,
      Messages.unauthorizedAccess,
    );
  });

  it('changes a price only with a key of its product’s environment: the other environment gets 404 and nothing changes', async () => {
    for (const [owner, other] of [
      [org.production.secretKey, org.sandbox.secretKey],
      [org.sandbox.secretKey, org.production.secretKey],
    ]) {
      const product = await createProduct(t, owner);
      const price = await createPrice(t, owner, product.id, { amount: 1000 });
      for (const [path, body] of [
        [`/prices/${price.id}`, { amount: 1 }],
        [`/prices/${price.id}`, { interval: 'weekly' }],
        [`/prices/${price.id}`, { amount: 1, replaceExisting: true }],
        [`/prices/${price.id}/archive`, {}],
      ] as const) {
        expectText(await patch(path, body, other), 404, Messages.priceNotFound);
      }
      // Reading stays organization-wide.
      expect((await get(`/prices/${price.id}`, other)).body.data).toEqual(price);
      expect((await get(`/products/${product.id}`, owner)).body.data.prices).toEqual([price]);
      const [row] = await t.query('SELECT amount, interval, active, replaced_by FROM prices WHERE id = $1', [
        price.id,
      ]);
      expect(row).toEqual({ amount: 1000, interval: 'monthly', active: true, replaced_by: null });
      expect((await patch(`/prices/${price.id}`, { amount: 1100 }, owner)).body.data.amount).toBe(1100);
    }
  });

  it('updates in place: same id, new amount and interval', async () => {
    const product = await createProduct(t, sk);
    const price = await createPrice(t, sk, product.id, { amount: 1000 });
    const res = await patch(`/prices/${price.id}`, { amount: 1200, interval: 'yearly' });
    expect(res.body.data).toEqual({ ...price, amount: 1200, interval: 'yearly' });
    expect((await get(`/products/${product.id}`)).body.data.prices).toEqual([res.body.data]);
  });

  it('replaces with replaceExisting: a new price (new id) is returned, the old one is inactive and hidden', async () => {
    const product = await createProduct(t, sk);
    const price = await createPrice(t, sk, product.id, { amount: 1000 });
    const res = await patch(`/prices/${price.id}`, { amount: 1300, replaceExisting: true });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      productId: product.id,
      amount: 1300,
      interval: 'monthly',
      active: true,
    });
    expect(res.body.data.id).not.toBe(price.id);
    expectText(await get(`/prices/${price.id}`), 404, Messages.priceNotFound);
    expect((await get(`/products/${product.id}`)).body.data.prices).toEqual([res.body.data]);
    const [old] = await t.query('SELECT active, replaced_by FROM prices WHERE id = $1', [price.id]);
    expect(old).toEqual({ active: false, replaced_by: res.body.data.id });
    // A replaced price cannot be replaced again.
    expectText(await patch(`/prices/${price.id}`, { replaceExisting: true }), 404, Messages.priceNotFound);
  });

  it('replaces a price once under concurrent replacements', async () => {
    const product = await createProduct(t, sk);
    const price = await createPrice(t, sk, product.id);
    const results = await Promise.all(
      Array.from({ length: 4 }, () => patch(`/prices/${price.id}`, { amount: 1700, replaceExisting: true })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 404, 404, 404]);
    expect((await get(`/products/${product.id}`)).body.data.prices).toHaveLength(1);
  });

  it('archives a price: active false, hidden from look-ups and the product’s list; archiving again is 404', async () => {
    const product = await createProduct(t, sk);
    const price = await createPrice(t, sk, product.id);
    const res = await patch(`/prices/${price.id}/archive`);
    expect(res.body.data).toEqual({ ...price, active: false });
    expectText(await get(`/prices/${price.id}`), 404, Messages.priceNotFound);
    expect((await get(`/products/${product.id}`)).body.data.prices).toEqual([]);
    expectText(await patch(`/prices/${price.id}/archive`), 404, Messages.priceNotFound);
  });

  it('has no list route', async () => {
    expectText(await get('/prices'), 404, Messages.notFound);
  });
});
