import { Messages } from '../../src/common/errors/messages';
import { OrganizationsRepository } from '../../src/organizations/organizations.repository';
import { newTenant, startTestApp, TestApp, validationBody } from '../helpers/app';
import { expectText } from '../helpers/http';
import { parseCsv } from '../helpers/money';
import {
  approvedAccount,
  balanceOf,
  earn,
  FAILING_IBAN,
  payableTenant,
  postPayout,
} from '../helpers/payouts';

/*
 * Payouts in the Sandbox (the same code as Production's, with the Sandbox's transfers): POST
 * /payouts, its rules, what it does to the balance and its transactions, its events, and the lists.
 */
let t: TestApp;
let second: TestApp;
beforeAll(async () => {
  [t, second] = await Promise.all([
    startTestApp({ PAYOUT_DELAY_DAYS: '0' }),
    startTestApp({ PAYOUT_DELAY_DAYS: '0' }),
  ]);
});
afterAll(async () => {
  await Promise.all([t.close(), second.close()]);
});

const get = (path: string, key: string) => t.http.get(`/api/v1${path}`).set('Authorization', key);
const transactionsOf = async (key: string, payoutId: string) =>
  (await get(`/balance-transactions?payoutId=${payoutId}&limit=100`, key).expect(200)).body.data as {
    type: string;
    amount: number;
    sourceId: string;
  }[];
const eventsOf = (payoutId: string) =>
  t.query<{ kind: string; data: Record<string, unknown> }>(
    `SELECT kind, data FROM events WHERE data->>'id' = $1 ORDER BY created_at, kind`,
    [payoutId],
  );

describe('POST /payouts: who may be paid', () => {
  it('answers 409 `Payouts are on hold for this organization` without an approved payout account', async () => {
    const org = await newTenant(t);
    await earn(t, org.sandbox.secretKey, 3000);
    expectText(await postPayout(t, org.sandbox.secretKey), 409, Messages.payoutsOnHold);
    await t.app.get(OrganizationsRepository).savePayoutAccount(org.organizationId, {
      bank: 'BNM',
      holderName: 'Boutique',
      iban: 'MR1300020001010000123456753',
      status: 'pending',
    });
    expectText(await postPayout(t, org.sandbox.secretKey), 409, Messages.payoutsOnHold);
    expect(await balanceOf(t, org.sandbox.secretKey)).toEqual({
      available: 3000,
      pending: 0,
      currency: 'MRU',
    });
  });

  it('answers 409 while an operator holds the payouts, and pays once they are released', async () => {
    const org = await payableTenant(t);
    await earn(t, org.sandbox.secretKey, 1500);
    const organizations = t.app.get(OrganizationsRepository);
    await organizations.setTerms(org.organizationId, { payoutsHeld: true });
    expectText(await postPayout(t, org.sandbox.secretKey), 409, Messages.payoutsOnHold);
    await organizations.setTerms(org.organizationId, { payoutsHeld: false });
    expect((await postPayout(t, org.sandbox.secretKey).expect(200)).body.data.amount).toBe(1500);
  });

  it('answers 400 `Insufficient available balance` with nothing available, or for more than is available', async () => {
    const org = await payableTenant(t);
    expectText(await postPayout(t, org.sandbox.secretKey), 400, Messages.insufficientAvailableBalance);
    await earn(t, org.sandbox.secretKey, 2000);
    expectText(
      await postPayout(t, org.sandbox.secretKey, { amount: 2001 }),
      400,
      Messages.insufficientAvailableBalance,
    );
    expect((await balanceOf(t, org.sandbox.secretKey)).available).toBe(2000);
  });

  it('checks the amount: 422 for a non-integer, 400 for zero or above the maximum', async () => {
    const org = await payableTenant(t);
    const res = await postPayout(t, org.sandbox.secretKey, { amount: '10' });
    expect(res.status).toBe(422);
    expect(validationBody(res).property).toBe('/amount');
    expectText(await postPayout(t, org.sandbox.secretKey, { amount: 0 }), 400, Messages.amountNotPositive);
    expectText(
      await postPayout(t, org.sandbox.secretKey, { amount: 100000001 }),
      400,
      Messages.amountTooLarge,
    );
  });

  it('answers 403 to a publishable key and to an unverified Production organization', async () => {
    const org = await payableTenant(t);
    expectText(await postPayout(t, org.sandbox.publishableKey), 403, Messages.unauthorizedAccess);
    const unverified = await newTenant(t, 'Unverified', { verification: 'unverified' });
    await approvedAccount(t, unverified.organizationId);
    expectText(await postPayout(t, unverified.production.secretKey), 403, Messages.organizationNotVerified);
  });
});

describe('POST /payouts: the money', () => {
  it('pays the whole available balance to the account, links the transactions it paid, and records its events', async () => {
    const org = await payableTenant(t);
    const key = org.sandbox.secretKey;
    const payments = await earn(t, key, 3000, 2000);
    const res = await postPayout(t, key).expect(200);
    const payout = res.body.data;
    expect(payout).toEqual({
      id: expect.any(String),
      amount: 5000,
      status: 'paid',
      destination: { bank: 'BNM', holderName: 'Boutique Test', ibanLast4: '6753' },
      failureReason: null,
      bankReference: expect.stringMatching(/^sbx_payout_/),
      arrivedAt: expect.any(String),
      environmentId: org.sandbox.environmentId,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect(await balanceOf(t, key)).toMatchObject({ available: 0, pending: 0 });
    const linked = await transactionsOf(key, payout.id);
    expect(linked.map((x) => [x.type, x.amount, x.sourceId]).sort()).toEqual(
      [
        ['payment', 3000, payments[0]],
        ['payment', 2000, payments[1]],
        ['payout', -5000, payout.id],
      ].sort(),
    );
    expect((await get(`/payouts/${payout.id}`, key).expect(200)).body.data).toEqual(payout);
    const events = await eventsOf(payout.id);
    expect(events.map((e) => e.kind)).toEqual(['payout-created', 'payout-updated']);
    expect(events[0].data).toMatchObject({ id: payout.id, status: 'pending', amount: 5000 });
    expect(events[1].data).toEqual(payout);
  });

  it('pays part of the balance when given an amount, and the rest later', async () => {
    const org = await payableTenant(t);
    const key = org.sandbox.secretKey;
    await earn(t, key, 4000);
    const part = (await postPayout(t, key, { amount: 1500 }).expect(200)).body.data;
    expect(part).toMatchObject({ amount: 1500, status: 'paid' });
    expect((await balanceOf(t, key)).available).toBe(2500);
    expect((await transactionsOf(key, part.id)).map((x) => x.type)).toEqual(['payout']);
    const rest = (await postPayout(t, key).expect(200)).body.data;
    expect(rest.amount).toBe(2500);
    expect((await balanceOf(t, key)).available).toBe(0);
  });

  it('gives each Sandbox payout its own bankReference, two made at once included', async () => {
    const org = await payableTenant(t);
    const key = org.sandbox.secretKey;
    await earn(t, key, 3000);
    const [a, b] = await Promise.all([
      postPayout(t, key, { amount: 1000 }).expect(200),
      postPayout(t, key, { amount: 1000 }).expect(200),
    ]);
    const [first, second] = [a.body.data, b.body.data];
    expect(first.bankReference).toMatch(/^sbx_payout_[0-9a-f]{32}$/);
    expect(second.bankReference).toMatch(/^sbx_payout_[0-9a-f]{32}$/);
    expect(first.bankReference).not.toBe(second.bankReference);
  });

  it('puts a failed payout back in the balance (`payout_failure`), and the next payout pays the same transactions', async () => {
    const org = await payableTenant(t, FAILING_IBAN);
    const key = org.sandbox.secretKey;
    const [payment] = await earn(t, key, 2500);
    const failed = (await postPayout(t, key).expect(200)).body.data;
    expect(failed).toMatchObject({
      amount: 2500,
      status: 'failed',
      failureReason: 'rejected by the sandbox bank',
      arrivedAt: null,
      destination: { ibanLast4: '0001' },
    });
    expect((await balanceOf(t, key)).available).toBe(2500);
    expect((await transactionsOf(key, failed.id)).map((x) => [x.type, x.amount]).sort()).toEqual([
      ['payout', -2500],
      ['payout_failure', 2500],
    ]);
    expect((await get(`/payment/${payment}`, key).expect(200)).body.data.payoutId).toBeNull();
    expect((await eventsOf(failed.id)).map((e) => [e.kind, e.data.status])).toEqual([
      ['payout-created', 'pending'],
      ['payout-updated', 'failed'],
    ]);

    await approvedAccount(t, org.organizationId);
    const paid = (await postPayout(t, key).expect(200)).body.data;
    expect(paid).toMatchObject({ amount: 2500, status: 'paid' });
    expect((await transactionsOf(key, paid.id)).map((x) => x.sourceId).sort()).toEqual(
      [payment, paid.id].sort(),
    );
    expect((await get(`/payment/${payment}`, key).expect(200)).body.data.payoutId).toBe(paid.id);
  });

  it('pays a balance once when two instances are asked at once', async () => {
    const org = await payableTenant(t);
    const key = org.sandbox.secretKey;
    await earn(t, key, 7000);
    const answers = await Promise.all([t, second, t, second].map((app) => postPayout(app, key)));
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([200, 400, 400, 400]);
    for (const a of answers.filter((x) => x.status === 400))
      expect(a.text).toBe(Messages.insufficientAvailableBalance);
    expect((await balanceOf(t, key)).available).toBe(0);
    const [{ n, total }] = await t.query<{ n: number; total: number }>(
      `SELECT count(*)::int AS n, COALESCE(sum(amount), 0)::int AS total FROM payouts WHERE environment_id = $1`,
      [org.sandbox.environmentId],
    );
    expect({ n, total }).toEqual({ n: 1, total: 7000 });
  });
});

describe('GET /payouts and GET /payouts/:id', () => {
  it("lists the environment's payouts newest first, filtered by status, and as CSV", async () => {
    const org = await payableTenant(t);
    const key = org.sandbox.secretKey;
    await earn(t, key, 3000);
    const first = (await postPayout(t, key, { amount: 1000 }).expect(200)).body.data;
    const second_ = (await postPayout(t, key, { amount: 1200 }).expect(200)).body.data;
    const list = (await get('/payouts', key).expect(200)).body;
    expect(list.data.map((p: { id: string }) => p.id)).toEqual([second_.id, first.id]);
    expect(list.pagination).toEqual({ page: 1, limit: 20, total: 2, totalPages: 1 });
    expect((await get('/payouts?status=failed', key).expect(200)).body.data).toEqual([]);
    expect((await get('/payouts?status=paid&limit=1&page=2', key).expect(200)).body.data[0].id).toBe(
      first.id,
    );
    expect((await get('/payouts?status=lost', key)).status).toBe(422);

    const csv = await get('/payouts?status=paid', key).set('Accept', 'text/csv').buffer(true).expect(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    const [header, ...rows] = parseCsv(csv.text);
    expect(header).toEqual([
      'id',
      'createdAt',
      'amount',
      'status',
      'bank',
      'holderName',
      'ibanLast4',
      'failureReason',
      'bankReference',
      'arrivedAt',
    ]);
    expect(rows.map((r) => [r[0], r[2], r[3], r[6]])).toEqual([
      [second_.id, '1200', 'paid', '6753'],
      [first.id, '1000', 'paid', '6753'],
    ]);
  });

  it("answers 404 `Payout not found` for another organization's or the other environment's payout, 422 for a non-uuid", async () => {
    const org = await payableTenant(t);
    await earn(t, org.sandbox.secretKey, 1000);
    const payout = (await postPayout(t, org.sandbox.secretKey).expect(200)).body.data;
    const other = await newTenant(t);
    expectText(await get(`/payouts/${payout.id}`, other.sandbox.secretKey), 404, Messages.payoutNotFound);
    expectText(await get(`/payouts/${payout.id}`, org.production.secretKey), 404, Messages.payoutNotFound);
    expect((await get('/payouts', org.production.secretKey).expect(200)).body.data).toEqual([]);
    expect((await get('/payouts', other.sandbox.secretKey).expect(200)).body.data).toEqual([]);
    const bad = await get('/payouts/not-a-uuid', org.sandbox.secretKey);
    expect(bad.status).toBe(422);
    expect(validationBody(bad).on).toBe('params');
  });
});
