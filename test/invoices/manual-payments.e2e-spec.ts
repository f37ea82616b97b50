import { Messages } from '../../src/common/errors/messages';
import { ApiKeysService } from '../../src/organizations/api-keys.service';
import type { CreatedOrganization } from '../../src/organizations/organizations.service';
import { newTenant, startTestApp, TestApp } from '../helpers/app';
import { catalog, createSubscription, invoicesOf } from '../helpers/billing';
import { expectText } from '../helpers/http';
import { payRequest } from '../helpers/ledger';
import { balanceOf } from '../helpers/payouts';
import { connectAccount, newPlatform } from '../helpers/platforms';

/* POST /invoices/:id/payments: payments recorded by hand, partial then full. */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

async function pendingInvoice() {
  const org = await newTenant(t);
  const sk = org.sandbox.secretKey;
  const c = await catalog(t, org);
  const sub = await createSubscription(t, sk, { customerId: c.customer.id, priceId: c.price.id });
  const [invoice] = await invoicesOf(t, sk, sub.id);
  return { org, sk, sub, invoice };
}
const record = (key: string, id: string, body: object) =>
  t.http.post(`/api/v1/invoices/${id}/payments`).set('Authorization', key).send(body);
const requestOf = async (key: string, invoiceId: string) =>
  (await t.http.get(`/api/v1/payment-request/by-transaction/${invoiceId}`).set('Authorization', key)).body
    .data;

describe('payments recorded by hand', () => {
  it('records a partial payment, then the rest: amountPaid, amountDue, manualPayments, the request asking what is due, then paid', async () => {
    const { sk, invoice } = await pendingInvoice();
    expect(invoice).toMatchObject({ amountPaid: '0.00', amountDue: '1500.00', manualPayments: [] });
    const first = await record(sk, invoice.id, { amount: 500, method: 'cash' });
    expect(first.status).toBe(200);
    expect(first.body.data).toMatchObject({ status: 'pending', amountPaid: '500.00', amountDue: '1000.00' });
    expect(first.body.data.manualPayments).toEqual([
      {
        id: expect.any(String),
        amount: 500,
        method: 'cash',
        reference: null,
        paidAt: expect.any(String),
        createdAt: expect.any(String),
      },
    ]);
    expect(await requestOf(sk, invoice.id)).toMatchObject({ amount: 1000, status: 'pending' });

    const second = await record(sk, invoice.id, {
      amount: 1000,
      method: 'bank_transfer',
      reference: 'VIR-2026-0042',
      paidAt: '2026-11-20T10:00:00Z',
    });
    expect(second.body.data).toMatchObject({ status: 'paid', amountPaid: '1500.00', amountDue: '0.00' });
    expect(second.body.data.manualPayments[1]).toMatchObject({
      amount: 1000,
      method: 'bank_transfer',
      reference: 'VIR-2026-0042',
      paidAt: '2026-11-20T10:00:00.000Z',
    });
    expect(await requestOf(sk, invoice.id)).toMatchObject({ status: 'paid' });
    const events = await t.query(`SELECT data FROM events WHERE kind = 'invoice-paid' AND data->>'id' = $1`, [
      invoice.id,
    ]);
    expect(events.map((e) => e.data)).toEqual([second.body.data]);
    expect((await t.http.get(`/api/v1/invoices/${invoice.id}`).set('Authorization', sk)).body.data).toEqual(
      second.body.data,
    );
    // Not money that passed through Khoums: no payment of the request.
    const request = await requestOf(sk, invoice.id);
    expect(await t.query(`SELECT 1 FROM payments WHERE payment_request_id = $1`, [request.id])).toEqual([]);
    // Nor in the balance: nothing available or pending, no balance transaction.
    expect(await balanceOf(t, sk)).toMatchObject({ available: 0, pending: 0 });
    expect(
      await t.query(`SELECT 1 FROM balance_transactions WHERE environment_id = $1`, [invoice.environmentId]),
    ).toEqual([]);
  });

  it('answers 400 `Amount exceeds the amount due`, 400 for an amount not positive, 422 for a wrong type or method, changing nothing', async () => {
    const { sk, invoice } = await pendingInvoice();
    expectText(
      await record(sk, invoice.id, { amount: 1501, method: 'cash' }),
      400,
      Messages.amountExceedsDue,
    );
    await record(sk, invoice.id, { amount: 1000, method: 'cheque' });
    expectText(await record(sk, invoice.id, { amount: 501, method: 'cash' }), 400, Messages.amountExceedsDue);
    expectText(await record(sk, invoice.id, { amount: 0, method: 'cash' }), 400, Messages.amountNotPositive);
    expect((await record(sk, invoice.id, { amount: 10.5, method: 'cash' })).status).toBe(422);
    expect((await record(sk, invoice.id, { amount: 10, method: 'card' })).status).toBe(422);
    expect((await record(sk, invoice.id, { method: 'cash' })).status).toBe(422);
    const [after] = await invoicesOf(t, sk, invoice.subscriptionId);
    expect(after).toMatchObject({ amountPaid: '1000.00', amountDue: '500.00' });
  });

  it('answers 409 `Invoice is not pending` for a paid or void invoice', async () => {
    const paid = await pendingInvoice();
    await record(paid.sk, paid.invoice.id, { amount: 1500, method: 'cash' });
    expectText(
      await record(paid.sk, paid.invoice.id, { amount: 1, method: 'cash' }),
      409,
      Messages.invoiceNotPending,
    );
    const voided = await pendingInvoice();
    await t.http
      .post(`/api/v1/subscriptions/${voided.sub.id}/cancel`)
      .set('Authorization', voided.sk)
      .send({});
    expectText(
      await record(voided.sk, voided.invoice.id, { amount: 1, method: 'cash' }),
      409,
      Messages.invoiceNotPending,
    );
  });

  it('answers 409 `A payment for this payment request is already in progress` while a payment is with the bank', async () => {
    const { org, sk, invoice } = await pendingInvoice();
    const methods = await t.http.get('/api/v1/payment-methods').set('Authorization', sk);
    const masrivi = (methods.body.data as { type: string; id: string }[]).find(
      (m) => m.type === 'masrivi',
    )!.id;
    const pay = await t.http
      .post('/api/v1/payment')
      .set('Authorization', org.sandbox.publishableKey)
      .send({ transactionId: invoice.id, phoneNumber: '22229003', configurationId: masrivi });
    expect(pay.body.data.status).toBe('pending');
    expectText(
      await record(sk, invoice.id, { amount: 100, method: 'cash' }),
      409,
      Messages.paymentInProgress,
    );
  });

  it('records one of two concurrent payments that together exceed the amount due', async () => {
    const { sk, invoice } = await pendingInvoice();
    const results = await Promise.all([
      record(sk, invoice.id, { amount: 1000, method: 'cash' }),
      record(sk, invoice.id, { amount: 1000, method: 'cash' }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 400]);
    const [after] = await invoicesOf(t, sk, invoice.subscriptionId);
    expect(after).toMatchObject({ amountPaid: '1000.00', amountDue: '500.00' });
    expect(after.manualPayments).toHaveLength(1);
  });

  it('records in the key’s own environment only: a Production key gets 404 for a Sandbox invoice and records nothing', async () => {
    const { org, sk, invoice } = await pendingInvoice();
    expectText(
      await record(org.production.secretKey, invoice.id, { amount: 100, method: 'cash' }),
      404,
      Messages.invoiceNotFound,
    );
    const [after] = await invoicesOf(t, sk, invoice.subscriptionId);
    expect(after).toMatchObject({ amountPaid: '0.00', manualPayments: [] });
  });

  it('keeps invoices to their organization: another one gets 404 and records nothing', async () => {
    const { invoice, sk } = await pendingInvoice();
    const other = await newTenant(t);
    expectText(
      await record(other.sandbox.secretKey, invoice.id, { amount: 100, method: 'cash' }),
      404,
      Messages.invoiceNotFound,
    );
    const [after] = await invoicesOf(t, sk, invoice.subscriptionId);
    expect(after.amountPaid).toBe('0.00');
    expectText(
      await record(other.sandbox.publishableKey, invoice.id, { amount: 1, method: 'cash' }),
      403,
      Messages.unauthorizedAccess,
    );
  });
});

/*
 * An invoice whose request carries a platform's application fee (docs/platforms.md "Charge for
 * it"): the fee is taken only on what is paid through Khoums, so a payment by hand shrinks the
 * request's fee with its amount (pro rata, rounded half up) and never answers 500.
 */
describe('payments recorded by hand on an invoice with an application fee', () => {
  let platform: CreatedOrganization;
  beforeAll(async () => {
    platform = await newPlatform(t);
  });

  /** A connected account's pending invoice of `amount` with `applicationFeeBps`, and the account's own keys. */
  async function accountInvoice(amount: number, applicationFeeBps: number) {
    const account = await connectAccount(t, platform);
    const [env] = await t.query<{ id: string }>(
      "SELECT id FROM environments WHERE organization_id = $1 AND kind = 'sandbox'",
      [account.id],
    );
    const keys = t.app.get(ApiKeysService);
    const own = {
      secretKey: (await keys.issue(account.id, { id: env.id, kind: 'sandbox' }, 'secret')).key,
      publishableKey: (await keys.issue(account.id, { id: env.id, kind: 'sandbox' }, 'publishable')).key,
    };
    const post = async (path: string, body: object) => {
      const res = await t.http
        .post(`/api/v1${path}`)
        .set('Authorization', platform.sandbox.secretKey)
        .set('Khoums-Account', account.id)
        .send(body);
      expect(res.status).toBe(200);
      return res.body.data;
    };
    const product = await post('/products', { name: 'Plan' });
    const price = await post('/prices', { productId: product.id, amount, interval: 'monthly' });
    const customer = await post('/customers', { externalUserId: `u-${Date.now()}`, phone: '22123456' });
    const sub = await post('/subscriptions', {
      customerId: customer.id,
      priceId: price.id,
      applicationFeeBps,
    });
    const [invoice] = await invoicesOf(t, own.secretKey, sub.id);
    return { account, env: env.id, own, invoice };
  }
  const forAccount = (accountId: string, path: string) =>
    t.http
      .post(`/api/v1${path}`)
      .set('Authorization', platform.sandbox.secretKey)
      .set('Khoums-Account', accountId);
  const feeOfRequest = async (invoiceId: string) =>
    (
      await t.query<{ amount: number; application_fee: number | null }>(
        'SELECT amount, application_fee FROM payment_requests WHERE transaction_id = $1',
        [invoiceId],
      )
    )[0];

  it('through Khoums-Account: 600 of 1000 by hand leaves 400 due with a fee of 200, and paying the rest moves only that fee', async () => {
    const { account, env, own, invoice } = await accountInvoice(1000, 5000);
    expect(await feeOfRequest(invoice.id)).toEqual({ amount: 1000, application_fee: 500 });

    const res = await forAccount(account.id, `/invoices/${invoice.id}/payments`).send({
      amount: 600,
      method: 'cash',
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ status: 'pending', amountPaid: '600.00', amountDue: '400.00' });
    // round_half_up(500 × 400 / 1000) = 200, as the request shows it.
    expect(await feeOfRequest(invoice.id)).toEqual({ amount: 400, application_fee: 200 });
    const shown = await t.http
      .get(`/api/v1/payment-request/by-transaction/${invoice.id}`)
      .set('Authorization', own.secretKey);
    expect(shown.body.data).toMatchObject({ amount: 400, applicationFee: 200 });

    // The rest paid through Khoums: the payment of 400, and the platform's fee on it only.
    const payment = await payRequest(t, own, invoice.id);
    expect(payment).toMatchObject({ status: 'completed', amount: 400 });
    const rows = await t.query<{ type: string; amount: string; environment_id: string }>(
      'SELECT type, amount::text, environment_id FROM balance_transactions WHERE source_id = $1 ORDER BY type',
      [payment.id],
    );
    expect(rows).toEqual([
      { type: 'application_fee', amount: '-200', environment_id: env },
      { type: 'application_fee_received', amount: '200', environment_id: platform.sandbox.environmentId },
      { type: 'payment', amount: '400', environment_id: env },
    ]);
    const [after] = await invoicesOf(t, own.secretKey, invoice.subscriptionId);
    expect(after).toMatchObject({ status: 'paid', amountPaid: '1000.00', amountDue: '0.00' });
    expect(after.manualPayments.map((m) => m.amount)).toEqual([600]);
  });

  it("with the account's own key: any partial payment leaving less than the fee due answers 200, the fee rounded half up", async () => {
    const { own, invoice } = await accountInvoice(1000, 5000);
    // 999 paid: 1 due, round_half_up(500 × 1 / 1000 = 0.5) = 1, never above what is due.
    const res = await record(own.secretKey, invoice.id, { amount: 999, method: 'bank_transfer' });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ amountDue: '1.00' });
    expect(await feeOfRequest(invoice.id)).toEqual({ amount: 1, application_fee: 1 });
    // The last MRU by hand too: paid, and no fee moved (nothing passed through Khoums).
    const last = await record(own.secretKey, invoice.id, { amount: 1, method: 'cash' });
    expect(last.body.data).toMatchObject({ status: 'paid', amountDue: '0.00' });
    expect(await feeOfRequest(invoice.id)).toEqual({ amount: 1, application_fee: 0 });
    expect(
      await t.query(
        "SELECT 1 FROM balance_transactions WHERE type IN ('application_fee', 'application_fee_received') AND environment_id = $1",
        [invoice.environmentId],
      ),
    ).toEqual([]);
  });

  it('several payments by hand: each shrinks the fee with what is still due; a fee of the whole amount stays the whole amount', async () => {
    const a = await accountInvoice(1000, 5000);
    await record(a.own.secretKey, a.invoice.id, { amount: 333, method: 'cash' });
    expect(await feeOfRequest(a.invoice.id)).toEqual({ amount: 667, application_fee: 334 }); // 333.5
    await record(a.own.secretKey, a.invoice.id, { amount: 334, method: 'cash' });
    expect(await feeOfRequest(a.invoice.id)).toEqual({ amount: 333, application_fee: 167 }); // 166.75

    const whole = await accountInvoice(1000, 10000);
    await record(whole.own.secretKey, whole.invoice.id, { amount: 600, method: 'cheque' });
    expect(await feeOfRequest(whole.invoice.id)).toEqual({ amount: 400, application_fee: 400 });
  });
});
