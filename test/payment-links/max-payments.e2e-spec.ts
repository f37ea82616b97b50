import { ExpireCheckoutSessionsJob } from '../../src/checkout/expire-checkout-sessions.job';
import type { CreatedOrganization } from '../../src/organizations/organizations.service';
import { newTenant, startTestApp, TestApp } from '../helpers/app';
import { makeOverdue } from '../helpers/checkout';
import { masriviOf } from '../helpers/money';
import { createLink, openLinkForm, sessionIdOf, submitLinkForm } from '../helpers/payment-links';

/*
 * maxPayments is never exceeded (docs/payment-links.md "Limits"): 50 customers at once on a link
 * with 10 places, through two instances of the service on one database, each customer opening
 * the page, sending its form and paying. The link's row lock, taken by whichever instance, lets
 * exactly 10 start; the 40 others get the 410 page. Places come back when sessions expire unpaid.
 */

// Two instances and a hundred customers' pages and payments: minutes on a loaded machine.
jest.setTimeout(240_000);

let a: TestApp;
let b: TestApp;
let org: CreatedOrganization;
let masrivi: string;
beforeAll(async () => {
  // 25 customers per instance wait on the link's row lock at once, each holding a connection of
  // its instance's pool meanwhile: with the default 10, on a loaded machine the last ones would wait
  // more than the pool's 5 s for one and get 503 (never a second payment: the rule holds either way).
  const env = { DB_POOL_SIZE: '30' };
  [a, b] = await Promise.all([startTestApp(env), startTestApp(env)]);
  org = await newTenant(a, 'Boulangerie du Ksar');
  masrivi = await masriviOf(a, org.sandbox.secretKey);
});
afterAll(async () => {
  await a?.close();
  await b?.close();
});

/** One customer on instance `t`: the page, the form, then the payment; `paid`, `refused` or what went wrong. */
async function customer(t: TestApp, code: string, phone: string): Promise<string> {
  const form = await openLinkForm(t, code).catch(() => null);
  if (!form) return 'refused';
  const res = await submitLinkForm(t, code, form, { phoneNumber: phone });
  if (res.status === 410) return 'refused';
  const sessionId = sessionIdOf(res);
  const paid = await t.http
    .post(`/api/v1/checkout-session/public/${sessionId}/pay`)
    .send({ configurationId: masrivi, phoneNumber: phone });
  return paid.status === 200 && paid.body.data.status === 'completed' ? 'paid' : `pay ${paid.status}`;
}

/** 50 customers at once, alternating between the two instances. */
const crowd = (code: string) =>
  Promise.all(
    Array.from({ length: 50 }, (_, i) =>
      customer(i % 2 === 0 ? a : b, code, `22${String(100000 + i).padStart(6, '0')}`),
    ),
  );

async function paidCount(linkId: string): Promise<number> {
  const [row] = await a.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM payment_requests WHERE payment_link_id = $1 AND status = 'paid'`,
    [linkId],
  );
  return row.n;
}

it('lets 10 of 50 customers at once pay a link with 10 places, on two instances; the 40 others get 410', async () => {
  const link = await createLink(a, org.sandbox.secretKey, { maxPayments: 10, amount: 500 });
  const outcomes = await crowd(link.code);
  expect(outcomes.filter((o) => o === 'paid')).toHaveLength(10);
  expect(outcomes.filter((o) => o === 'refused')).toHaveLength(40);
  expect(await paidCount(link.id)).toBe(10);
  const record = await a.http
    .get(`/api/v1/payment-links/${link.id}`)
    .set('Authorization', org.sandbox.secretKey);
  expect(record.body.data).toMatchObject({ paymentsCount: 10, amountCollected: 5000 });
  expect((await b.http.get(`/l/${link.code}`)).status).toBe(410);
});

it('holds the places of payments started and not paid, and frees them when their sessions expire', async () => {
  const link = await createLink(a, org.sandbox.secretKey, { maxPayments: 10 });
  // 50 customers at once send the form and do not pay (yet): 10 hold the places.
  const started = await Promise.all(
    Array.from({ length: 50 }, async (_, i) => {
      const t = i % 2 === 0 ? a : b;
      const form = await openLinkForm(t, link.code).catch(() => null);
      if (!form) return null;
      const res = await submitLinkForm(t, link.code, form, { phoneNumber: '22123456' });
      return res.status === 303 ? sessionIdOf(res) : null;
    }),
  );
  const sessions = started.filter((s): s is string => s !== null);
  expect(sessions).toHaveLength(10);
  expect((await a.http.get(`/l/${link.code}`)).status).toBe(410);

  // Four pay; six walk away and their sessions expire: six places again, for the next crowd.
  for (const id of sessions.slice(0, 4))
    await a.http
      .post(`/api/v1/checkout-session/public/${id}/pay`)
      .send({ configurationId: masrivi })
      .expect(200);
  for (const id of sessions.slice(4)) await makeOverdue(a, id);
  await Promise.all([a.app.get(ExpireCheckoutSessionsJob).run(), b.app.get(ExpireCheckoutSessionsJob).run()]);

  const outcomes = await crowd(link.code);
  expect(outcomes.filter((o) => o === 'paid')).toHaveLength(6);
  expect(outcomes.filter((o) => o === 'refused')).toHaveLength(44);
  expect(await paidCount(link.id)).toBe(10);
  // The expired ones can never be paid now: still 10.
  for (const id of sessions.slice(4))
    expect(
      (await a.http.post(`/api/v1/checkout-session/public/${id}/pay`).send({ configurationId: masrivi }))
        .status,
    ).toBe(409);
  expect(await paidCount(link.id)).toBe(10);
});
