import request from 'supertest';
import type { CreatedOrganization } from '../../src/organizations/organizations.service';
import { newTenant, startTestApp, TestApp } from '../helpers/app';
import { createSession, txId } from '../helpers/checkout';

/**
 * Two instances of the service on one database, behind a load balancer that sends each request to
 * a different one, behave as one: a hosted page served by one may be posted to the other.
 */
let a: TestApp;
let b: TestApp;
let org: CreatedOrganization;

beforeAll(async () => {
  [a, b] = await Promise.all([startTestApp(), startTestApp()]);
  org = await newTenant(a);
});
afterAll(() => Promise.all([a.close(), b.close()]));

const csrfOf = (html: string) => /name="_csrf" value="([^"]+)"/.exec(html)![1];
const cookiesOf = (res: request.Response) =>
  [res.headers['set-cookie'] ?? []]
    .flat<string[]>()
    .map((c) => c.split(';')[0])
    .join('; ');

it('accepts on one instance the form another instance rendered (one CSRF key for all, from the database)', async () => {
  const { data } = await createSession(a, org.sandbox.secretKey, {
    transactionId: txId(),
    amount: 700,
    cancelUrl: 'https://shop.example.mr/cart',
  });
  const page = await a.http.get(`/checkout/${data.id}`);
  expect(page.status).toBe(200);
  const res = await b.http
    .post(`/checkout/${data.id}/cancel`)
    .set('cookie', cookiesOf(page))
    .type('form')
    .send({ _csrf: csrfOf(page.text) });
  expect([res.status, res.headers.location]).toEqual([303, 'https://shop.example.mr/cart']);
});

it('still refuses a forged token on either instance', async () => {
  const { data } = await createSession(a, org.sandbox.secretKey, { transactionId: txId(), amount: 700 });
  const page = await b.http.get(`/checkout/${data.id}`);
  const res = await a.http
    .post(`/checkout/${data.id}/cancel`)
    .set('cookie', cookiesOf(page))
    .type('form')
    .send({ _csrf: 'forged' });
  expect(res.status).toBe(403);
});
