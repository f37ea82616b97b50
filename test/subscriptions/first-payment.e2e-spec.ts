import { BillingRun } from '../../src/billing/billing-run';
import { Messages } from '../../src/common/errors/messages';
import type { CreatedOrganization } from '../../src/organizations/organizations.service';
import { newTenant, startTestApp, TestApp } from '../helpers/app';
import { catalog, createSubscription, invoicesOf } from '../helpers/billing';
import { expectText } from '../helpers/http';

/*
 * requireFirstPayment: `incomplete` with its first invoice due at once; paid → `active` (in the
 * payment's statement); unpaid 23 hours later → `incomplete_expired` (the billing run) and the
 * invoice void.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const HOUR = 3_600_000;
async function setup() {
  const org = await newTenant(t);
  const c = await catalog(t, org);
  const res = await t.http.get('/api/v1/payment-methods').set('Authorization', org.sandbox.secretKey);
  const masrivi = (res.body.data as { type: string; id: string }[]).find((m) => m.type === 'masrivi')!.id;
  return { org, c, masrivi, sk: org.sandbox.secretKey };
}
const getSub = async (org: CreatedOrganization, id: string) =>
  (await t.http.get(`/api/v1/subscriptions/${id}`).set('Authorization', org.sandbox.secretKey)).body.data;
const updates = (id: string) =>
  t.query<{ status: string }>(
    `SELECT data->>'status' AS status FROM events WHERE kind = 'subscription-updated' AND data->>'id' = $1 ORDER BY created_at, id`,
    [id],
  );

describe('subscriptions that require a first payment', () => {
  it('start incomplete with their first invoice due at once, shown in the event, the list filter and the get', async () => {
    const { org, c, sk } = await setup();
    const sub = await createSubscription(t, sk, {
      customerId: c.customer.id,
      priceId: c.price.id,
      requireFirstPayment: true,
    });
    expect(sub.status).toBe('incomplete');
    const invoices = await invoicesOf(t, sk, sub.id);
    expect(invoices).toHaveLength(1);
    expect(invoices[0]).toMatchObject({ status: 'pending', amount: '1500.00' });
    expect(new Date(invoices[0].dueDate!).getTime()).toBeLessThanOrEqual(Date.now());
    expect((await getSub(org, sub.id)).status).toBe('incomplete');
    const [created] = await t.query(
      `SELECT data FROM events WHERE kind = 'subscription-created' AND data->>'id' = $1`,
      [sub.id],
    );
    expect(created.data.status).toBe('incomplete');
    const list = (status: string) =>
      t.http.get(`/api/v1/subscriptions?status=${status}`).set('Authorization', sk);
    expect((await list('incomplete')).body.data.map((s: { id: string }) => s.id)).toEqual([sub.id]);
    expect((await list('past_due')).body.data).toEqual([]);
    expect((await list('active')).body.data).toEqual([]);
  });

  it('becomes active when its first invoice is paid, with subscription-updated, and stays active after 23 hours', async () => {
    const { org, c, sk, masrivi } = await setup();
    const sub = await createSubscription(t, sk, {
      customerId: c.customer.id,
      priceId: c.price.id,
      requireFirstPayment: true,
    });
    const [invoice] = await invoicesOf(t, sk, sub.id);
    const pay = await t.http
      .post('/api/v1/payment')
      .set('Authorization', org.sandbox.publishableKey)
      .send({ transactionId: invoice.id, phoneNumber: '22222222', configurationId: masrivi });
    expect(pay.status).toBe(200);
    expect((await getSub(org, sub.id)).status).toBe('active');
    expect(await updates(sub.id)).toEqual([{ status: 'active' }]);
    const run = await t.app
      .get(BillingRun)
      .run({ environmentId: org.sandbox.environmentId, now: new Date(Date.now() + 23 * HOUR + 60_000) });
    expect(run.invoicesCreated).toBe(0);
    expect((await getSub(org, sub.id)).status).toBe('active');
    expect((await invoicesOf(t, sk, sub.id))[0].status).toBe('paid');
  });

  it('expires incomplete_expired 23 hours later unpaid, its invoice void, once', async () => {
    const { org, c, sk } = await setup();
    const sub = await createSubscription(t, sk, {
      customerId: c.customer.id,
      priceId: c.price.id,
      requireFirstPayment: true,
    });
    const run = (h: number) =>
      t.app
        .get(BillingRun)
        .run({ environmentId: org.sandbox.environmentId, now: new Date(Date.now() + h * HOUR) });
    expect((await run(22)).subscriptionsUpdated).toBe(0);
    expect((await getSub(org, sub.id)).status).toBe('incomplete');
    expect((await run(23.1)).subscriptionsUpdated).toBe(1);
    expect((await run(24)).subscriptionsUpdated).toBe(0);
    const after = await getSub(org, sub.id);
    expect(after.status).toBe('incomplete_expired');
    expect(after.nextBillingDate).toBeNull();
    expect((await invoicesOf(t, sk, sub.id)).map((i) => i.status)).toEqual(['void']);
    expect(await updates(sub.id)).toEqual([{ status: 'incomplete_expired' }]);
    expectText(
      await t.http.post(`/api/v1/subscriptions/${sub.id}/resume`).set('Authorization', sk),
      409,
      'A incomplete_expired subscription cannot be resumed',
    );
  });

  it('answers 400 `A subscription with a trial cannot require a first payment`, creating nothing', async () => {
    const { c, sk } = await setup();
    const trialEnd = new Date(Date.now() + 10 * 86_400_000).toISOString();
    for (const body of [
      { trial: true, trialPeriod: '1_week' },
      { trialPeriod: 7 },
      { trial: true, trialEnd },
    ]) {
      expectText(
        await t.http
          .post('/api/v1/subscriptions')
          .set('Authorization', sk)
          .send({ customerId: c.customer.id, priceId: c.price.id, requireFirstPayment: true, ...body }),
        400,
        Messages.trialWithFirstPayment,
      );
    }
    const list = await t.http.get('/api/v1/subscriptions').set('Authorization', sk);
    expect(list.body.data).toEqual([]);
    expect(Messages.trialWithFirstPayment).toBe('A subscription with a trial cannot require a first payment');
  });
});
