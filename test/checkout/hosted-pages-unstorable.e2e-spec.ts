import request from 'supertest';
import type { CreatedOrganization } from '../../src/organizations/organizations.service';
import { newTenant, startTestApp, TestApp } from '../helpers/app';
import { catalog, createSubscription, invoicesOf } from '../helpers/billing';
import { createSession, txId } from '../helpers/checkout';

/**
 * The hosted pages' pay form (a checkout session's and an invoice's) with a NUL character in any
 * field, paying through the Sandbox bank simulator: the form again with its error, never a 500.
 */
const NUL = 'a\u0000b';
let t: TestApp;
let org: CreatedOrganization;
let sk: string;
let methods: Record<string, string>;
beforeAll(async () => {
  t = await startTestApp();
  org = await newTenant(t);
  sk = org.sandbox.secretKey;
  const res = await t.http.get('/api/v1/payment-methods').set('Authorization', sk);
  methods = Object.fromEntries((res.body.data as { type: string; id: string }[]).map((m) => [m.type, m.id]));
});
afterAll(() => t.close());

const csrfOf = (html: string) => /name="_csrf" value="([^"]+)"/.exec(html)![1];

async function payWith(pagePath: string, field: string) {
  const browser = request.agent(t.app.getHttpServer());
  const page = await browser.get(pagePath);
  const form: Record<string, string> = {
    _csrf: csrfOf(page.text),
    paymentMethodId: methods.bankily,
    phoneNumber: '22123456',
    passCode: '1234',
    idempotencyKey: /name="idempotencyKey" value="([^"]+)"/.exec(page.text)?.[1] ?? 'k',
  };
  return browser
    .post(`${pagePath}/pay`)
    .type('form')
    .send(new URLSearchParams({ ...form, [field]: NUL }).toString());
}

/** Each field with a NUL, and what the page answers: the form again (its status), or the redirect of a paid page. */
const ANSWERS: Array<[field: string, status: number]> = [
  ['_csrf', 403],
  ['paymentMethodId', 400],
  ['phoneNumber', 400],
  ['passCode', 502], // sent to the bank, whose simulator declines a pass code that is not 4 to 6 digits
  ['idempotencyKey', 303], // a form without a valid key pays without one
];

async function checkoutPage() {
  const { data } = await createSession(t, sk, { transactionId: txId(), amount: 1500 });
  return `/checkout/${data.id}`;
}

async function invoicePage() {
  const c = await catalog(t, org);
  const s = await createSubscription(t, sk, { customerId: c.customer.id, priceId: c.price.id });
  const [invoice] = await invoicesOf(t, sk, s.id);
  return new URL(invoice.checkoutUrl).pathname;
}

describe.each([
  ['a checkout session', checkoutPage],
  ['an invoice', invoicePage],
])("%s's pay form", (_, open) => {
  it.each(ANSWERS)('with a NUL in %s answers %s, never a 500', async (field, status) => {
    const res = await payWith(await open(), field);
    expect(res.status).toBe(status);
    if (status !== 303) expect(res.text).toContain('<form method="post"');
  });
});

it('answers a NUL in the page address with the not-found page', async () => {
  for (const path of ['/checkout/a%00b', '/checkout/invoices/a%00b', '/checkout/a%00b/status']) {
    const res = await request(t.app.getHttpServer()).get(path);
    expect({ path, status: res.status }).toEqual({ path, status: 404 });
  }
});
