import { randomUUID } from 'node:crypto';
import { Messages } from '../../src/common/errors/messages';
import { LedgerRepository } from '../../src/ledger/ledger.repository';
import type { CreatedOrganization } from '../../src/organizations/organizations.service';
import { newTenant, startTestApp, TestApp } from '../helpers/app';
import { expect422, expectText } from '../helpers/http';
import { connectAccount, newPlatform } from '../helpers/platforms';

let t: TestApp;
let platform: CreatedOrganization;
let account: { id: string };
beforeAll(async () => {
  t = await startTestApp();
  platform = await newPlatform(t);
  account = await connectAccount(t, platform);
});
afterAll(() => t.close());

const api = (path: string) => `/api/v1${path}`;
const forAccount = (path: string) =>
  t.http.post(api(path)).set('Authorization', platform.sandbox.secretKey).set('Khoums-Account', account.id);
const uid = () => `${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;

describe('applicationFee on payment requests', () => {
  it('is kept and shown on a request made for a connected account (0 and the whole amount included)', async () => {
    for (const fee of [0, 150, 1000]) {
      const res = await forAccount('/payment-request').send({
        transactionId: `fee-${uid()}`,
        amount: 1000,
        applicationFee: fee,
      });
      expect(res.status).toBe(200);
      expect(res.body.data.applicationFee).toBe(fee);
      const read = await t.http
        .get(api(`/payment-request/${res.body.data.id}`))
        .set('Authorization', platform.sandbox.secretKey)
        .set('Khoums-Account', account.id);
      expect(read.body.data.applicationFee).toBe(fee);
    }
  });

  it('is null when none is asked, for accounts and everyone else', async () => {
    const res = await forAccount('/payment-request').send({ transactionId: `nofee-${uid()}`, amount: 1000 });
    expect(res.body.data.applicationFee).toBeNull();
    const merchant = await newTenant(t);
    const own = await t.http
      .post(api('/payment-request'))
      .set('Authorization', merchant.sandbox.secretKey)
      .send({ transactionId: 'plain', amount: 1000 });
    expect(own.body.data.applicationFee).toBeNull();
  });

  it('without Khoums-Account: 400 Application fees need a connected account, and nothing is created', async () => {
    const merchant = await newTenant(t);
    for (const key of [platform.sandbox.secretKey, merchant.sandbox.secretKey]) {
      const transactionId = `refused-${uid()}`;
      const res = await t.http
        .post(api('/payment-request'))
        .set('Authorization', key)
        .send({ transactionId, amount: 1000, applicationFee: 10 });
      expectText(res, 400, Messages.applicationFeeNeedsAccount);
      const rows = await t.query('SELECT 1 FROM payment_requests WHERE transaction_id = $1', [transactionId]);
      expect(rows).toHaveLength(0);
    }
  });

  it('above the amount: 400 Application fee must not exceed the amount; not a whole MRU ≥ 0: 422', async () => {
    expectText(
      await forAccount('/payment-request').send({
        transactionId: `over-${uid()}`,
        amount: 1000,
        applicationFee: 1001,
      }),
      400,
      Messages.applicationFeeExceedsAmount,
    );
    for (const applicationFee of [-1, 1.5, '10'])
      expect422(
        await forAccount('/payment-request').send({
          transactionId: `bad-${uid()}`,
          amount: 1000,
          applicationFee,
        }),
        'body',
        '/applicationFee',
      );
  });
});

describe('applicationFee on checkout sessions', () => {
  it("sets the fee of the session's new payment request", async () => {
    const res = await forAccount('/checkout-session').send({
      transactionId: `co-${uid()}`,
      amount: 2000,
      applicationFee: 200,
    });
    expect(res.status).toBe(200);
    const pr = await t.http
      .get(api(`/payment-request/${res.body.data.paymentRequestId}`))
      .set('Authorization', platform.sandbox.secretKey)
      .set('Khoums-Account', account.id);
    expect(pr.body.data.applicationFee).toBe(200);
  });

  it('sets the fee of an existing request it names, with its payment-request-updated event', async () => {
    const created = await forAccount('/payment-request').send({
      transactionId: `exist-${uid()}`,
      amount: 500,
    });
    const res = await forAccount('/checkout-session').send({
      paymentRequestId: created.body.data.id,
      applicationFee: 50,
    });
    expect(res.status).toBe(200);
    const [row] = await t.query('SELECT application_fee FROM payment_requests WHERE id = $1', [
      created.body.data.id,
    ]);
    expect(row.application_fee).toBe(50);
    const events = await t.query(
      "SELECT data FROM events WHERE kind = 'payment-request-updated' AND data->>'id' = $1",
      [created.body.data.id],
    );
    expect(events.map((e) => e.data.applicationFee)).toEqual([50]);
    expectText(
      await forAccount('/checkout-session').send({
        paymentRequestId: created.body.data.id,
        applicationFee: 501,
      }),
      400,
      Messages.applicationFeeExceedsAmount,
    );
  });

  it('refuses what payment requests refuse: no account (400), above the amount (400)', async () => {
    expectText(
      await t.http
        .post(api('/checkout-session'))
        .set('Authorization', platform.sandbox.secretKey)
        .send({ transactionId: `co-${uid()}`, amount: 2000, applicationFee: 1 }),
      400,
      Messages.applicationFeeNeedsAccount,
    );
    const transactionId = `co-over-${uid()}`;
    expectText(
      await forAccount('/checkout-session').send({ transactionId, amount: 2000, applicationFee: 2001 }),
      400,
      Messages.applicationFeeExceedsAmount,
    );
    expect(
      await t.query('SELECT 1 FROM payment_requests WHERE transaction_id = $1', [transactionId]),
    ).toHaveLength(0);
  });
});

describe('applicationFeeBps on subscriptions', () => {
  async function price(actingForAccount: boolean, amount: number) {
    const post = (path: string, body: object) =>
      (actingForAccount
        ? forAccount(path)
        : t.http.post(api(path)).set('Authorization', platform.sandbox.secretKey)
      ).send(body);
    const product = await post('/products', { name: 'Plan' });
    const p = await post('/prices', { productId: product.body.data.id, amount, interval: 'monthly' });
    const customer = await post('/customers', { externalUserId: `u-${uid()}`, phone: '22123456' });
    return { priceId: p.body.data.id as string, customerId: customer.body.data.id as string, post };
  }

  it("gives each invoice's payment request its share of the amount, rounded down to whole MRU", async () => {
    const { priceId, customerId, post } = await price(true, 1999);
    const res = await post('/subscriptions', { customerId, priceId, applicationFeeBps: 250 });
    expect(res.status).toBe(200);
    expect(res.body.data.applicationFeeBps).toBe(250);
    const [invoice] = await t.query(
      'SELECT pr.application_fee FROM invoices i JOIN payment_requests pr ON pr.id = i.payment_request_id WHERE i.subscription_id = $1',
      [res.body.data.id],
    );
    expect(invoice.application_fee).toBe(49); // 1999 × 2.5 % = 49.975
    const events = await t.query(
      "SELECT data FROM events WHERE kind = 'payment-request-created' AND data->>'invoiceId' IS NOT NULL AND data->>'applicationFee' = '49'",
    );
    expect(events.length).toBeGreaterThan(0);
  });

  it('is null without one; 400 without Khoums-Account; 422 outside 0..10000', async () => {
    const acting = await price(true, 1000);
    const none = await acting.post('/subscriptions', {
      customerId: acting.customerId,
      priceId: acting.priceId,
    });
    expect(none.body.data.applicationFeeBps).toBeNull();
    const own = await price(false, 1000);
    expectText(
      await own.post('/subscriptions', {
        customerId: own.customerId,
        priceId: own.priceId,
        applicationFeeBps: 100,
      }),
      400,
      Messages.applicationFeeNeedsAccount,
    );
    expectText(
      await own.post('/subscriptions/by-external-user', {
        externalUserId: `u-${uid()}`,
        priceId: own.priceId,
        applicationFeeBps: 100,
      }),
      400,
      Messages.applicationFeeNeedsAccount,
    );
    for (const applicationFeeBps of [-1, 10001, 2.5])
      expect422(
        await acting.post('/subscriptions', {
          customerId: acting.customerId,
          priceId: acting.priceId,
          applicationFeeBps,
        }),
        'body',
        '/applicationFeeBps',
      );
  });
});

describe('moving the fee when the request is paid', () => {
  async function payForAccount(acct: { id: string }, amount: number, applicationFee?: number) {
    const transactionId = `paid-${uid()}`;
    const pr = await t.http
      .post(api('/payment-request'))
      .set('Authorization', platform.sandbox.secretKey)
      .set('Khoums-Account', acct.id)
      .send({ transactionId, amount, ...(applicationFee === undefined ? {} : { applicationFee }) });
    expect(pr.status).toBe(200);
    const methods = await t.http
      .get(api('/payment-methods'))
      .set('Authorization', platform.sandbox.publishableKey)
      .set('Khoums-Account', acct.id);
    const masrivi = methods.body.data.find((m: { type: string }) => m.type === 'masrivi');
    const paid = await t.http
      .post(api('/payment'))
      .set('Authorization', platform.sandbox.publishableKey)
      .set('Khoums-Account', acct.id)
      .send({ transactionId, phoneNumber: '33445566', configurationId: masrivi.id });
    expect(paid.body.data.status).toBe('completed');
    return paid.body.data.id as string;
  }

  const transactionsOf = (paymentId: string) =>
    t.query<{ type: string; amount: string; net: string; environment_id: string; organization_id: string }>(
      `SELECT type, amount::text, net::text, environment_id, organization_id FROM balance_transactions
        WHERE source_id = $1 ORDER BY type`,
      [paymentId],
    );

  it("moves it from the account's balance to the platform's in the settling statement", async () => {
    const acct = await connectAccount(t, platform, 'Fee payer');
    const [accountEnv] = await t.query(
      "SELECT id FROM environments WHERE organization_id = $1 AND kind = 'sandbox'",
      [acct.id],
    );
    const paymentId = await payForAccount(acct, 10000, 750);
    const rows = await transactionsOf(paymentId);
    expect(rows.filter((r) => r.type !== 'payment')).toEqual([
      {
        type: 'application_fee',
        amount: '-750',
        net: '-750',
        environment_id: accountEnv.id,
        organization_id: acct.id,
      },
      {
        type: 'application_fee_received',
        amount: '750',
        net: '750',
        environment_id: platform.sandbox.environmentId,
        organization_id: platform.organizationId,
      },
    ]);
    // The payment's own transaction is the account's, as for any merchant.
    expect(rows.find((r) => r.type === 'payment')).toMatchObject({
      amount: '10000',
      environment_id: accountEnv.id,
    });
    // Both balances show it.
    const platformTx = await t.http
      .get(api('/balance-transactions?type=application_fee_received'))
      .set('Authorization', platform.sandbox.secretKey);
    expect(platformTx.body.data.map((x: { sourceId: string }) => x.sourceId)).toContain(paymentId);
    const accountTx = await t.http
      .get(api('/balance-transactions?type=application_fee'))
      .set('Authorization', platform.sandbox.secretKey)
      .set('Khoums-Account', acct.id);
    expect(accountTx.body.data).toEqual([expect.objectContaining({ sourceId: paymentId, amount: -750 })]);
  });

  it('moves nothing without a fee, or with a fee of 0', async () => {
    const acct = await connectAccount(t, platform, 'No fee');
    for (const fee of [undefined, 0]) {
      const rows = await transactionsOf(await payForAccount(acct, 2000, fee));
      expect(rows.map((r) => r.type)).toEqual(['payment']);
    }
  });

  it('a payment settled again (a retried settlement) never moves the fee twice', async () => {
    const acct = await connectAccount(t, platform, 'Once');
    const paymentId = await payForAccount(acct, 3000, 300);
    // A second settlement of the same payment finds it no longer pending: nothing more is written.
    const again = await t.http
      .post(api(`/payment/${paymentId}/simulate-transfer`))
      .set('Authorization', platform.sandbox.secretKey)
      .set('Khoums-Account', acct.id)
      .send({});
    expect(again.body.data?.status ?? again.status).not.toBe('pending');
    const rows = await transactionsOf(paymentId);
    expect(rows.map((r) => r.type)).toEqual(['application_fee', 'application_fee_received', 'payment']);
  });

  it('the ledger check (ledger:check) finds every fee moved, and reports one that differs', async () => {
    const acct = await connectAccount(t, platform, 'Checked');
    const [env] = await t.query(
      "SELECT id FROM environments WHERE organization_id = $1 AND kind = 'sandbox'",
      [acct.id],
    );
    const withFee = await payForAccount(acct, 5000, 500);
    const withoutFee = await payForAccount(acct, 5000);
    const mine = (problems: { environmentId: string }[]) =>
      problems.filter(
        (p) => p.environmentId === env.id || p.environmentId === platform.sandbox.environmentId,
      );
    expect(mine((await t.app.get(LedgerRepository).check()).problems)).toEqual([]);
    // A fee moved for a payment that has none is found.
    await t.app.get(LedgerRepository).insert({
      id: randomUUID(),
      type: 'application_fee',
      amount: -1,
      fee: 0,
      sourceId: withoutFee,
      paymentId: withoutFee,
      availableOn: new Date(),
      payoutId: null,
      environmentId: env.id,
      organizationId: acct.id,
    });
    expect(mine((await t.app.get(LedgerRepository).check()).problems)).toEqual([
      expect.objectContaining({ kind: 'application_fee_differs', id: withoutFee }),
    ]);
    expect(withFee).not.toBe(withoutFee);
  });

  it('a refund of the payment keeps the fee with the platform', async () => {
    const acct = await connectAccount(t, platform, 'Refunder');
    const paymentId = await payForAccount(acct, 4000, 400);
    const refund = await t.http
      .post(api('/refunds'))
      .set('Authorization', platform.sandbox.secretKey)
      .set('Khoums-Account', acct.id)
      .send({ paymentId });
    expect(refund.status).toBe(200);
    expect(refund.body.data.status).toBe('succeeded');
    const rows = await transactionsOf(paymentId);
    expect(rows.map((r) => [r.type, r.amount])).toEqual([
      ['application_fee', '-400'],
      ['application_fee_received', '400'],
      ['payment', '4000'],
    ]);
    const refunds = await t.query('SELECT amount::text FROM balance_transactions WHERE source_id = $1', [
      refund.body.data.id,
    ]);
    expect(refunds).toEqual([{ amount: '-4000' }]);
  });
});
