import { Messages } from '../../src/common/errors/messages';
import { Metrics } from '../../src/common/metrics/metrics';
import { LedgerRepository } from '../../src/ledger/ledger.repository';
import { PayoutRun } from '../../src/payouts/payout-run';
import { newTenant, privateDatabase, startTestApp, TestApp } from '../helpers/app';
import { expectText } from '../helpers/http';
import { balanceOf, earn, FAILING_IBAN, payableTenant, postPayout } from '../helpers/payouts';

/*
 * The payout schedule and the payout run. The run over every environment is tested on a database
 * of its own (it claims every due environment it finds); the Sandbox route runs one environment.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ PAYOUT_DELAY_DAYS: '0' });
});
afterAll(() => t.close());

const get = (path: string, key: string) => t.http.get(`/api/v1${path}`).set('Authorization', key);
const patch = (key: string, body: object) =>
  t.http.patch('/api/v1/payout-schedule').set('Authorization', key).send(body);
const runSandbox = (key: string) => t.http.post('/api/v1/sandbox/payouts/run').set('Authorization', key);

describe('GET/PATCH /payout-schedule', () => {
  it('is daily with a minimum of 1000 MRU by default, for each environment of its own', async () => {
    const org = await newTenant(t);
    const schedule = (await get('/payout-schedule', org.sandbox.secretKey).expect(200)).body.data;
    expect(schedule).toEqual({
      interval: 'daily',
      weeklyDay: null,
      minimumAmount: 1000,
      hourUtc: 8,
      environmentId: org.sandbox.environmentId,
      updatedAt: expect.any(String),
    });
    await patch(org.sandbox.secretKey, { interval: 'manual' }).expect(200);
    expect((await get('/payout-schedule', org.production.secretKey).expect(200)).body.data).toMatchObject({
      interval: 'daily',
      environmentId: org.production.environmentId,
    });
  });

  it('changes the interval, the weekly day (Monday unless given) and the minimum', async () => {
    const org = await newTenant(t);
    const key = org.sandbox.secretKey;
    expect((await patch(key, { interval: 'weekly' }).expect(200)).body.data).toMatchObject({
      interval: 'weekly',
      weeklyDay: 'monday',
      minimumAmount: 1000,
    });
    expect(
      (await patch(key, { weeklyDay: 'friday', minimumAmount: 5000 }).expect(200)).body.data,
    ).toMatchObject({
      interval: 'weekly',
      weeklyDay: 'friday',
      minimumAmount: 5000,
    });
    expect((await patch(key, { interval: 'daily' }).expect(200)).body.data).toMatchObject({
      interval: 'daily',
      weeklyDay: null,
      minimumAmount: 5000,
    });
    expect((await get('/payout-schedule', key).expect(200)).body.data.minimumAmount).toBe(5000);
  });

  it('refuses what it cannot store: 422 for an unknown interval or day, 400 for a minimum out of range', async () => {
    const org = await newTenant(t);
    const key = org.sandbox.secretKey;
    expect((await patch(key, { interval: 'hourly' })).status).toBe(422);
    expect((await patch(key, { weeklyDay: 'someday' })).status).toBe(422);
    expect((await patch(key, { minimumAmount: 10.5 })).status).toBe(422);
    expectText(await patch(key, { minimumAmount: 0 }), 400, Messages.amountNotPositive);
    expectText(await patch(key, { minimumAmount: 100000001 }), 400, Messages.amountTooLarge);
    expectText(await get('/payout-schedule', org.sandbox.publishableKey), 403, Messages.unauthorizedAccess);
  });
});

describe('POST /sandbox/payouts/run', () => {
  it('answers 400 `Payout runs are only available in sandbox` to a Production key', async () => {
    const org = await payableTenant(t);
    expectText(await runSandbox(org.production.secretKey), 400, Messages.payoutRunsSandboxOnly);
  });

  it('pays the available balance once it reaches the minimum, to the approved account, once', async () => {
    const org = await payableTenant(t);
    const key = org.sandbox.secretKey;
    await earn(t, key, 600);
    expect((await runSandbox(key).expect(200)).body.data).toEqual({ payoutsCreated: 0, payoutsUpdated: 0 });
    await earn(t, key, 900);
    expect((await runSandbox(key).expect(200)).body.data).toEqual({ payoutsCreated: 1, payoutsUpdated: 1 });
    const [payout] = (await get('/payouts', key).expect(200)).body.data;
    expect(payout).toMatchObject({ amount: 1500, status: 'paid' });
    expect((await balanceOf(t, key)).available).toBe(0);
    expect((await runSandbox(key).expect(200)).body.data).toEqual({ payoutsCreated: 0, payoutsUpdated: 0 });
  });

  it('pays nothing on a manual schedule, while payouts are held, or without an approved account', async () => {
    const manual = await payableTenant(t);
    await earn(t, manual.sandbox.secretKey, 2000);
    await patch(manual.sandbox.secretKey, { interval: 'manual' }).expect(200);
    expect((await runSandbox(manual.sandbox.secretKey).expect(200)).body.data.payoutsCreated).toBe(0);

    const noAccount = await newTenant(t);
    await earn(t, noAccount.sandbox.secretKey, 2000);
    expect((await runSandbox(noAccount.sandbox.secretKey).expect(200)).body.data.payoutsCreated).toBe(0);
    expect((await balanceOf(t, noAccount.sandbox.secretKey)).available).toBe(2000);
  });

  it('leaves a negative balance waiting: no payout until it is positive again', async () => {
    const org = await payableTenant(t);
    const key = org.sandbox.secretKey;
    await earn(t, key, 3000);
    await postPayout(t, key).expect(200);
    // A refund after the payout took the balance below zero (as the ledger records one).
    await t.query(
      `INSERT INTO balance_transactions (id, type, amount, fee, net, source_id, available_on, environment_id, organization_id)
       VALUES (gen_random_uuid(), 'refund', -1200, 0, -1200, gen_random_uuid(), now(), $1, $2)`,
      [org.sandbox.environmentId, org.organizationId],
    );
    expect((await balanceOf(t, key)).available).toBe(-1200);
    expect((await runSandbox(key).expect(200)).body.data.payoutsCreated).toBe(0);
    expectText(await postPayout(t, key), 400, Messages.insufficientAvailableBalance);
    await earn(t, key, 2500);
    await patch(key, { minimumAmount: 1 }).expect(200);
    expect((await runSandbox(key).expect(200)).body.data.payoutsCreated).toBe(1);
    expect((await get('/payouts?limit=1', key).expect(200)).body.data[0].amount).toBe(1300);
  });

  it('counts payouts by status in khoums_payouts_total', async () => {
    const org = await payableTenant(t, FAILING_IBAN);
    await earn(t, org.sandbox.secretKey, 1000);
    const metrics = t.app.get(Metrics);
    const failedBefore =
      (await metrics.payouts.get()).values.find((v) => v.labels.status === 'failed')?.value ?? 0;
    await runSandbox(org.sandbox.secretKey).expect(200);
    const failedAfter = (await metrics.payouts.get()).values.find((v) => v.labels.status === 'failed')?.value;
    expect(failedAfter).toBe(failedBefore + 1);
  });
});

describe('the payout run over every environment', () => {
  let db: { url: string; drop(): Promise<void> };
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    db = await privateDatabase();
    [a, b] = await Promise.all([
      startTestApp({ PAYOUT_DELAY_DAYS: '0' }, db.url),
      startTestApp({ PAYOUT_DELAY_DAYS: '0' }, db.url),
    ]);
  });
  afterAll(async () => {
    await Promise.all([a.close(), b.close()]);
    await db.drop();
  });

  const payoutsOf = (environmentId: string) =>
    a.query<{ amount: number; automatic: boolean }>(
      `SELECT amount::int, automatic FROM payouts WHERE environment_id = $1`,
      [environmentId],
    );

  it('pays each due environment once when two instances run at once, from PAYOUT_HOUR_UTC, and weekly ones on their day', async () => {
    const orgs = await Promise.all(Array.from({ length: 12 }, () => payableTenant(a)));
    for (const [i, org] of orgs.entries()) await earn(a, org.sandbox.secretKey, 1000 + i);
    const weekly = orgs[0];
    await a.http
      .patch('/api/v1/payout-schedule')
      .set('Authorization', weekly.sandbox.secretKey)
      .send({ interval: 'weekly', weeklyDay: 'friday' })
      .expect(200);

    // Wednesday 2026-11-25, before the hour: nothing.
    const early = new Date('2026-11-25T07:59:00Z');
    expect((await a.app.get(PayoutRun).run({ now: early })).payoutsCreated).toBe(0);

    const wednesday = new Date('2026-11-25T08:30:00Z');
    const [ra, rb] = await Promise.all([
      a.app.get(PayoutRun).run({ now: wednesday }),
      b.app.get(PayoutRun).run({ now: wednesday }),
    ]);
    expect(ra.payoutsCreated + rb.payoutsCreated).toBe(11);
    for (const [i, org] of orgs.entries()) {
      expect(await payoutsOf(org.sandbox.environmentId)).toEqual(
        i === 0 ? [] : [{ amount: 1000 + i, automatic: true }],
      );
      expect((await balanceOf(a, org.sandbox.secretKey)).available).toBe(i === 0 ? 1000 : 0);
    }

    // The same day again: each environment was considered today already, even with new money.
    await earn(a, orgs[1].sandbox.secretKey, 5000);
    const again = await Promise.all([
      a.app.get(PayoutRun).run({ now: wednesday }),
      b.app.get(PayoutRun).run({ now: wednesday }),
    ]);
    expect(again[0].payoutsCreated + again[1].payoutsCreated).toBe(0);

    // Friday: the weekly one, and the daily one with new money.
    const friday = new Date('2026-11-27T09:00:00Z');
    const fridayRuns = await Promise.all([
      a.app.get(PayoutRun).run({ now: friday }),
      b.app.get(PayoutRun).run({ now: friday }),
    ]);
    expect(fridayRuns[0].payoutsCreated + fridayRuns[1].payoutsCreated).toBe(2);
    expect(await payoutsOf(weekly.sandbox.environmentId)).toEqual([{ amount: 1000, automatic: true }]);
    const [{ n }] = await a.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM payouts WHERE status <> 'paid'`,
    );
    expect(n).toBe(0);

    // The ledger agrees: every payout has its one transaction of minus its amount, and the
    // ledger's own check (payments, refunds, balances) finds nothing.
    const unbalanced = await a.query(
      `SELECT p.id FROM payouts p
         LEFT JOIN balance_transactions t ON t.source_id = p.id AND t.type = 'payout'
        GROUP BY p.id, p.amount HAVING count(t.id) <> 1 OR sum(t.amount) <> -p.amount`,
    );
    expect(unbalanced).toEqual([]);
    expect((await a.app.get(LedgerRepository).check()).problems).toEqual([]);
  });

  it('sends again a payout whose sender died before the gateway answered, once its lease has ended', async () => {
    const org = await payableTenant(a);
    await a.http
      .patch('/api/v1/payout-schedule')
      .set('Authorization', org.sandbox.secretKey)
      .send({ interval: 'manual' })
      .expect(200);
    // A payout made (committed) whose sending never happened: as if the instance died there.
    const [{ id }] = await a.query<{ id: string }>(
      `INSERT INTO payouts (id, environment_id, organization_id, amount, status, automatic, bank, holder_name, iban,
                            next_attempt_at)
       VALUES (gen_random_uuid(), $1, $2, 4000, 'pending', false, 'BNM', 'Boutique', 'MR1300020001010000123456753',
               now() + interval '1 minute')
       RETURNING id`,
      [org.sandbox.environmentId, org.organizationId],
    );
    const run = () =>
      Promise.all([
        a.app.get(PayoutRun).run({ environmentId: org.sandbox.environmentId }),
        b.app.get(PayoutRun).run({ environmentId: org.sandbox.environmentId }),
      ]);
    let runs = await run();
    expect(runs.map((r) => r.payoutsUpdated)).toEqual([0, 0]); // still leased to its (dead) sender
    await a.query(`UPDATE payouts SET next_attempt_at = now() WHERE id = $1`, [id]);
    runs = await run();
    expect(runs[0].payoutsUpdated + runs[1].payoutsUpdated).toBe(1);
    const [payout] = await a.query<{ status: string; attempts: number }>(
      `SELECT status, attempts FROM payouts WHERE id = $1`,
      [id],
    );
    expect(payout).toEqual({ status: 'paid', attempts: 1 });
  });
});
