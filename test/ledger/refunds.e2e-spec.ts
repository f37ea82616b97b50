import { Messages } from '../../src/common/errors/messages';
import { Metrics } from '../../src/common/metrics/metrics';
import type { CreatedOrganization } from '../../src/organizations/organizations.service';
import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { databaseEnv, newTenant, privateDatabase, startTestApp, TestApp } from '../helpers/app';
import { catalog, createSubscription, invoicesOf } from '../helpers/billing';
import { expect422, expectText } from '../helpers/http';
import { paidPayment, payRequest } from '../helpers/ledger';
import { buildDist } from '../helpers/build';

/**
 * Refunds in the Sandbox (the built-in bank: a payment from a phone ending 9004 completes and its
 * refunds fail): the rules and their exact answers, the balance debited at creation and credited
 * back on failure, `refundedAmount`, the invoice refunded in full, events, Idempotency-Key,
 * tenancy and concurrent refunds of one payment. The Production path (the gateway, its faults
 * and the refunds job) is in refunds-gateway.e2e-spec.ts. A database of its own, so that the
 * ledger check run after the concurrent refunds (the last tests) sees only this file's money.
 */
const ROOT = resolve(__dirname, '../..');
jest.setTimeout(180_000);

let t: TestApp;
let db: { url: string; drop(): Promise<void> };
let org: CreatedOrganization;

beforeAll(async () => {
  db = await privateDatabase();
  t = await startTestApp({ DEFAULT_FEE_BPS: '100' }, db.url);
  org = await newTenant(t);
});
afterAll(async () => {
  await t?.close();
  await db?.drop();
});

const refund = (body: object, key = org.sandbox.secretKey) =>
  t.http.post('/api/v1/refunds').set('Authorization', key).send(body);
const get = (path: string, key = org.sandbox.secretKey) =>
  t.http.get(`/api/v1${path}`).set('Authorization', key);
const events = (kind: string, id: string) =>
  t.query<{ data: Record<string, unknown> }>(
    `SELECT data FROM events WHERE kind = $1 AND data->>'id' = $2 ORDER BY created_at, id`,
    [kind, id],
  );
const transactionsOf = (sourceId: string) =>
  t.query<{ type: string; amount: string; fee: string; net: string }>(
    `SELECT type, amount::text, fee::text, net::text FROM balance_transactions WHERE source_id = $1 ORDER BY created_at, type`,
    [sourceId],
  );

describe('POST /refunds', () => {
  it('refunds what is left by default: succeeded, the balance debited (the fee kept), refundedAmount, events', async () => {
    const o = await newTenant(t);
    const payment = await paidPayment(t, o.sandbox, 2000); // fee 20
    const res = await refund({ paymentId: payment.id, reason: 'customer asked' }, o.sandbox.secretKey).expect(
      200,
    );
    const r = res.body.data;
    expect(r).toEqual({
      id: expect.any(String),
      paymentId: payment.id,
      transactionId: payment.transactionId,
      amount: 2000,
      status: 'succeeded',
      reason: 'customer asked',
      failureReason: null,
      environmentId: o.sandbox.environmentId,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect(await transactionsOf(r.id)).toEqual([{ type: 'refund', amount: '-2000', fee: '0', net: '-2000' }]);
    const balance = await get('/balance', o.sandbox.secretKey).expect(200);
    expect(balance.body.data).toEqual({ available: -2000, pending: 1980, currency: 'MRU' });
    const p = await get(`/payment/${payment.id}`, o.sandbox.secretKey).expect(200);
    expect(p.body.data).toMatchObject({ status: 'completed', refundedAmount: 2000 });
    const created = await events('refund-created', r.id);
    expect(created).toEqual([{ data: { ...r, status: 'pending', updatedAt: r.createdAt } }]);
    expect(await events('refund-updated', r.id)).toEqual([{ data: r }]);
    // Nothing is left: a second refund is refused.
    expectText(
      await refund({ paymentId: payment.id }, o.sandbox.secretKey),
      400,
      Messages.refundExceedsAmountLeft,
    );
  });

  it('takes partial amounts until the payment is refunded, never beyond', async () => {
    const payment = await paidPayment(t, org.sandbox, 1000);
    await refund({ paymentId: payment.id, amount: 300 }).expect(200);
    expectText(await refund({ paymentId: payment.id, amount: 701 }), 400, Messages.refundExceedsAmountLeft);
    const rest = await refund({ paymentId: payment.id }).expect(200);
    expect(rest.body.data.amount).toBe(700);
    expect((await get(`/payment/${payment.id}`)).body.data.refundedAmount).toBe(1000);
  });

  it('fails in the Sandbox for a payment from a phone ending 9004: the amount is credited back (refund_failure)', async () => {
    const o = await newTenant(t);
    const payment = await paidPayment(t, o.sandbox, 1500, '22229004');
    expect(payment.status).toBe('completed');
    const res = await refund({ paymentId: payment.id, amount: 500 }, o.sandbox.secretKey).expect(200);
    expect(res.body.data).toMatchObject({ status: 'failed', failureReason: expect.any(String), amount: 500 });
    const failures = await t.app.get(Metrics).refunds.get();
    expect(failures.values.find((v) => v.labels.status === 'failed')?.value).toBeGreaterThanOrEqual(1);
    expect(await transactionsOf(res.body.data.id)).toEqual([
      { type: 'refund', amount: '-500', fee: '0', net: '-500' },
      { type: 'refund_failure', amount: '500', fee: '0', net: '500' },
    ]);
    expect((await get(`/payment/${payment.id}`, o.sandbox.secretKey)).body.data.refundedAmount).toBe(0);
    const balance = (await get('/balance', o.sandbox.secretKey)).body.data;
    expect(balance.available + balance.pending).toBe(1500 - 15);
    // What failed may be refunded again (and fails again here).
    await refund({ paymentId: payment.id }, o.sandbox.secretKey).expect(200);
  });

  it('answers 404 Payment not found for an unknown payment, and for another organization’s or environment’s', async () => {
    const payment = await paidPayment(t, org.sandbox, 800);
    expectText(
      await refund({ paymentId: '00000000-0000-4000-8000-000000000000' }),
      404,
      Messages.paymentNotFound,
    );
    const other = await newTenant(t);
    expectText(
      await refund({ paymentId: payment.id }, other.sandbox.secretKey),
      404,
      Messages.paymentNotFound,
    );
    expectText(
      await refund({ paymentId: payment.id }, org.production.secretKey),
      404,
      Messages.paymentNotFound,
    );
    expect((await get(`/payment/${payment.id}`)).body.data.refundedAmount).toBe(0);
  });

  it('answers 409 Only completed payments can be refunded for a failed or pending payment', async () => {
    const failed = await paidPayment(t, org.sandbox, 800, '22229001');
    expect(failed.status).toBe('failed');
    expectText(await refund({ paymentId: failed.id }), 409, Messages.onlyCompletedPaymentsRefundable);
    const pending = await paidPayment(t, org.sandbox, 800, '22229003');
    expect(pending.status).toBe('pending');
    expectText(await refund({ paymentId: pending.id }), 409, Messages.onlyCompletedPaymentsRefundable);
  });

  it('answers 400 for an amount that is not positive, and 422 for malformed input', async () => {
    const payment = await paidPayment(t, org.sandbox, 800);
    expectText(await refund({ paymentId: payment.id, amount: 0 }), 400, Messages.amountNotPositive);
    expectText(await refund({ paymentId: payment.id, amount: -5 }), 400, Messages.amountNotPositive);
    expect422(await refund({ paymentId: payment.id, amount: 1.5 }), 'body', '/amount');
    expect422(await refund({ paymentId: 'nope' }), 'body', '/paymentId');
    expect422(await refund({}), 'body', '/paymentId');
    expect422(await refund({ paymentId: payment.id, reason: 'x'.repeat(501) }), 'body', '/reason');
    expect((await get(`/payment/${payment.id}`)).body.data.refundedAmount).toBe(0);
  });

  it('is for secret keys only, and gated in Production until the organization is verified', async () => {
    const payment = await paidPayment(t, org.sandbox, 800);
    expectText(
      await refund({ paymentId: payment.id }, org.sandbox.publishableKey),
      403,
      Messages.unauthorizedAccess,
    );
    const unverified = await newTenant(t, 'Unverified', { verification: 'unverified' });
    expectText(
      await refund({ paymentId: payment.id }, unverified.production.secretKey),
      403,
      Messages.organizationNotVerified,
    );
  });

  it('with an Idempotency-Key: a retry answers the same refund, refunded once', async () => {
    const payment = await paidPayment(t, org.sandbox, 900);
    const send = () =>
      t.http
        .post('/api/v1/refunds')
        .set('Authorization', org.sandbox.secretKey)
        .set('Idempotency-Key', `refund-${payment.id}`)
        .send({ paymentId: payment.id, amount: 400 });
    const first = await send().expect(200);
    const again = await send().expect(200);
    expect(again.body).toEqual(first.body);
    expect(again.headers['idempotent-replayed']).toBe('true');
    const list = await get(`/refunds?paymentId=${payment.id}`).expect(200);
    expect(list.body.pagination.total).toBe(1);
    expect((await get(`/payment/${payment.id}`)).body.data.refundedAmount).toBe(400);
  });

  it('never refunds more than the payment under 20 concurrent refunds', async () => {
    const o = await newTenant(t);
    const payment = await paidPayment(t, o.sandbox, 1000);
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => refund({ paymentId: payment.id, amount: 150 }, o.sandbox.secretKey)),
    );
    const ok = answers.filter((a) => a.status === 200);
    expect(ok).toHaveLength(6);
    for (const a of answers.filter((x) => x.status !== 200))
      expect({ status: a.status, text: a.text }).toEqual({
        status: 400,
        text: Messages.refundExceedsAmountLeft,
      });
    expect((await get(`/payment/${payment.id}`, o.sandbox.secretKey)).body.data.refundedAmount).toBe(900);
    const [sum] = await t.query<{ n: number; total: string }>(
      `SELECT count(*)::int AS n, sum(amount)::text AS total FROM balance_transactions
        WHERE payment_id = $1 AND type = 'refund'`,
      [payment.id],
    );
    expect(sum).toEqual({ n: 6, total: '-900' });
    // And 20 more for the rest by default: exactly one gets the 100 left.
    const rest = await Promise.all(
      Array.from({ length: 20 }, () => refund({ paymentId: payment.id }, o.sandbox.secretKey)),
    );
    expect(rest.filter((a) => a.status === 200).map((a) => a.body.data.amount)).toEqual([100]);
    expect((await get(`/payment/${payment.id}`, o.sandbox.secretKey)).body.data.refundedAmount).toBe(1000);
  });
});

describe('an invoice refunded in full', () => {
  it('becomes refunded with invoice-refunded; a partial refund leaves it paid', async () => {
    const o = await newTenant(t);
    const c = await catalog(t, o);
    const s = await createSubscription(t, o.sandbox.secretKey, {
      customerId: c.customer.id,
      priceId: c.price.id,
    });
    const [invoice] = await invoicesOf(t, o.sandbox.secretKey, s.id);
    const payment = await payRequest(t, o.sandbox, invoice.id);
    expect(payment.status).toBe('completed');
    await refund({ paymentId: payment.id, amount: 500 }, o.sandbox.secretKey).expect(200);
    expect((await get(`/invoices/${invoice.id}`, o.sandbox.secretKey)).body.data.status).toBe('paid');
    expect(await events('invoice-refunded', invoice.id)).toEqual([]);
    await refund({ paymentId: payment.id }, o.sandbox.secretKey).expect(200);
    const refunded = (await get(`/invoices/${invoice.id}`, o.sandbox.secretKey)).body.data;
    expect(refunded).toMatchObject({ id: invoice.id, status: 'refunded' });
    expect(await events('invoice-refunded', invoice.id)).toEqual([{ data: refunded }]);
  });
});

describe('GET /refunds and GET /refunds/:id', () => {
  it('lists newest first with filters, and reads one; other organizations and environments see nothing', async () => {
    const o = await newTenant(t);
    const a = await paidPayment(t, o.sandbox, 1000);
    const b = await paidPayment(t, o.sandbox, 1000, '22229004');
    const r1 = (await refund({ paymentId: a.id, amount: 100 }, o.sandbox.secretKey).expect(200)).body.data;
    const r2 = (await refund({ paymentId: b.id, amount: 200 }, o.sandbox.secretKey).expect(200)).body.data;
    const r3 = (await refund({ paymentId: a.id, amount: 300 }, o.sandbox.secretKey).expect(200)).body.data;
    const key = o.sandbox.secretKey;
    const ids = async (query: string) =>
      (await get(`/refunds${query}`, key).expect(200)).body.data.map((r: { id: string }) => r.id);
    expect(await ids('')).toEqual([r3.id, r2.id, r1.id]);
    expect(await ids(`?paymentId=${a.id}`)).toEqual([r3.id, r1.id]);
    expect(await ids('?status=failed')).toEqual([r2.id]);
    expect(await ids('?status=succeeded&limit=1&page=2')).toEqual([r1.id]);
    expect((await get(`/refunds/${r2.id}`, key).expect(200)).body.data).toEqual(r2);

    const other = await newTenant(t);
    expectText(await get(`/refunds/${r1.id}`, other.sandbox.secretKey), 404, Messages.refundNotFound);
    expectText(await get(`/refunds/${r1.id}`, o.production.secretKey), 404, Messages.refundNotFound);
    expect((await get('/refunds', other.sandbox.secretKey)).body.data).toEqual([]);
    expect((await get('/refunds', o.production.secretKey)).body.data).toEqual([]);
    expectText(await get('/refunds/00000000-0000-4000-8000-000000000000', key), 404, Messages.refundNotFound);
  });

  it('validates its query and params, and is for secret keys only', async () => {
    expect422(await get('/refunds/nope'), 'params', '/id');
    expect422(await get('/refunds?status=done'), 'query', '/status');
    expect422(await get('/refunds?paymentId=nope'), 'query', '/paymentId');
    expect422(await get('/refunds?limit=0'), 'query', '/limit');
    expectText(await get('/refunds', org.sandbox.publishableKey), 403, Messages.unauthorizedAccess);
  });
});

/** The built CLI, as an operator runs it, against this file's database. */
function ledgerCheck(): {
  status: number;
  json: { ok: boolean; environments: Array<Record<string, unknown>> };
} {
  let stdout: string;
  let status = 0;
  try {
    stdout = execFileSync(process.execPath, ['dist/src/cli/main.js', 'ledger:check', '--json'], {
      cwd: ROOT,
      env: { ...process.env, ...databaseEnv(db.url), LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'pipe', 'pipe'],
    }).toString();
  } catch (e) {
    const err = e as { stdout: Buffer; status: number };
    stdout = err.stdout.toString();
    status = err.status;
  }
  return { status, json: JSON.parse(stdout) };
}

describe('npm run cli -- ledger:check --json (after the concurrent refunds above)', () => {
  beforeAll(() => {
    buildDist();
  });

  it('finds every payment, refund and balance in agreement, and exits 0', async () => {
    const { status, json } = ledgerCheck();
    expect(json.ok).toBe(true);
    expect(status).toBe(0);
    const mine = json.environments.find((e) => e.environmentId === org.sandbox.environmentId)!;
    expect(mine).toMatchObject({ problems: [], transactions: expect.any(Number) });
    expect(mine.net).toBe(mine.balance);
    expect(json.environments.every((e) => (e.problems as unknown[]).length === 0)).toBe(true);
  });

  it('exits non-zero on a difference, and says which', async () => {
    const payment = await paidPayment(t, org.sandbox, 1000);
    // A payment transaction lost, a refundedAmount that no refund explains, a balance out of step.
    await t.query(`DELETE FROM balance_transactions WHERE source_id = $1`, [payment.id]);
    await t.query(`UPDATE payments SET refunded_amount = 10 WHERE id = $1`, [payment.id]);
    const { status, json } = ledgerCheck();
    expect(status).toBe(1);
    expect(json.ok).toBe(false);
    const mine = json.environments.find((e) => e.environmentId === org.sandbox.environmentId)!;
    expect((mine.problems as Array<{ kind: string; id: string }>).map((p) => [p.kind, p.id]).sort()).toEqual(
      [
        ['balance_differs', null],
        ['payment_without_transaction', payment.id],
        ['refunded_amount_differs', payment.id],
      ].sort(),
    );
  });
});
