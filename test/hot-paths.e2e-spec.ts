import { Client } from 'pg';
import type { CreatedOrganization } from '../src/organizations/organizations.service';
import { newTenant, startTestApp, TestApp } from './helpers/app';

/**
 * STYLE.md: no needless round trips on the hot paths. Counts the statements each request sends to
 * PostgreSQL (every pg query goes through Client.prototype.query), so a change that adds one fails here.
 */
let t: TestApp;
let org: CreatedOrganization;
beforeAll(async () => {
  t = await startTestApp();
  org = await newTenant(t);
});
afterAll(() => t.close());

async function statementsFor(
  send: () => Promise<{ status: number }>,
): Promise<{ status: number; statements: number }> {
  const spy = jest.spyOn(Client.prototype, 'query');
  try {
    const res = await send();
    return { status: res.status, statements: spy.mock.calls.length };
  } finally {
    spy.mockRestore();
  }
}

it('creates a payment request in two statements: the key look-up and one insert of the request with its event', async () => {
  const r = await statementsFor(() =>
    t.http
      .post('/api/v1/payment-request')
      .set('Authorization', org.sandbox.secretKey)
      .send({ transactionId: 'hot-1', amount: 10 }),
  );
  expect(r).toEqual({ status: 200, statements: 2 });
});

it('looks a payment request up by transactionId in two statements', async () => {
  const r = await statementsFor(() =>
    t.http
      .get('/api/v1/payment-request/by-transaction/hot-1')
      .set('Authorization', org.sandbox.publishableKey),
  );
  expect(r).toEqual({ status: 200, statements: 2 });
});

it('rejects an unknown key after one statement and a missing key without any', async () => {
  expect(
    await statementsFor(() =>
      t.http.get('/api/v1/payment-request').set('Authorization', 'sk_test_' + 'z'.repeat(40)),
    ),
  ).toEqual({
    status: 401,
    statements: 1,
  });
  expect(await statementsFor(() => t.http.get('/api/v1/payment-request'))).toEqual({
    status: 401,
    statements: 0,
  });
});

it('pays in four statements: the key, one read (method and request), opening the payment, settling it', async () => {
  await t.http
    .post('/api/v1/payment-request')
    .set('Authorization', org.sandbox.secretKey)
    .send({ transactionId: 'hot-pay', amount: 10 });
  const methods = await t.http
    .get('/api/v1/payment-methods')
    .set('Authorization', org.sandbox.publishableKey);
  const masrivi = (methods.body.data as { id: string; type: string }[]).find((m) => m.type === 'masrivi')!;
  const r = await statementsFor(() =>
    t.http
      .post('/api/v1/payment')
      .set('Authorization', org.sandbox.publishableKey)
      .send({ transactionId: 'hot-pay', phoneNumber: '22222222', configurationId: masrivi.id }),
  );
  expect(r).toEqual({ status: 200, statements: 4 });
});

it('looks up a rolled key (live until its expires_at) in the same one statement, and refuses it after', async () => {
  const rolled = await newTenant(t);
  await t.query(`UPDATE api_keys SET expires_at = now() + interval '1 hour' WHERE environment_id = $1`, [
    rolled.sandbox.environmentId,
  ]);
  const get = () =>
    t.http
      .get('/api/v1/payment-request/by-transaction/none')
      .set('Authorization', rolled.sandbox.publishableKey);
  expect(await statementsFor(get)).toEqual({ status: 404, statements: 2 });
  await t.query(`UPDATE api_keys SET expires_at = now() - interval '1 second' WHERE environment_id = $1`, [
    rolled.sandbox.environmentId,
  ]);
  expect(await statementsFor(get)).toEqual({ status: 401, statements: 1 });
});
