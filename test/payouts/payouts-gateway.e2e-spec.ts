import { PayoutRun } from '../../src/payouts/payout-run';
import { BankSimulator, startBankSimulator } from '../../src/payments/banks/simulator/bank-simulator';
import { startTestApp, TestApp } from '../helpers/app';
import { balanceOf, earn, FAILING_IBAN, payableTenant, postPayout } from '../helpers/payouts';

/*
 * Production payouts: the transfer through the payout gateway (the bank simulator), in transit
 * until the bank confirms, refused, and with the gateway down. Payments reach the same simulator
 * (BANK_MASRIVI_URL) so the Production balance fills as it would.
 */
let t: TestApp;
let sim: BankSimulator;
beforeAll(async () => {
  sim = await startBankSimulator({ apiKey: 'gateway-key' });
  t = await startTestApp({
    PAYOUT_DELAY_DAYS: '0',
    BANK_TIMEOUT_MS: '400',
    BANK_MASRIVI_URL: sim.url,
    BANK_MASRIVI_API_KEY: 'gateway-key',
    PAYOUT_GATEWAY_URL: sim.url,
    PAYOUT_GATEWAY_API_KEY: 'gateway-key',
  });
});
beforeEach(() => sim.reset());
afterAll(async () => {
  await t.close();
  await sim.close();
});

const get = (path: string, key: string) => t.http.get(`/api/v1${path}`).set('Authorization', key);
/** Lets the job ask about the environment's payouts now (as if their wait had passed) and runs it. */
async function runNow(environmentId: string) {
  await t.query(`UPDATE payouts SET next_attempt_at = now() WHERE environment_id = $1`, [environmentId]);
  return t.app.get(PayoutRun).run({ environmentId });
}

describe('Production payouts through the payout gateway', () => {
  it('sends the transfer with the account and amount, once, and is paid', async () => {
    const org = await payableTenant(t);
    await earn(t, org.production.secretKey, 8000);
    const payout = (await postPayout(t, org.production.secretKey).expect(200)).body.data;
    expect(payout).toMatchObject({
      amount: 8000,
      status: 'paid',
      bankReference: expect.stringMatching(/^trf_/),
    });
    expect(sim.transfer(payout.id)).toMatchObject({ amount: 8000, iban: 'MR1300020001010000123456753' });
    expect(sim.stats()).toMatchObject({ transferRequests: 1, transfers: 1 });
    expect((await balanceOf(t, org.production.secretKey)).available).toBe(0);
  });

  it('stays in_transit until the bank confirms, then paid when the job asks again', async () => {
    const org = await payableTenant(t);
    await earn(t, org.production.secretKey, 3000);
    sim.setMode('pending');
    const payout = (await postPayout(t, org.production.secretKey).expect(200)).body.data;
    expect(payout).toMatchObject({ status: 'in_transit', arrivedAt: null });
    expect((await runNow(org.production.environmentId)).payoutsUpdated).toBe(0);
    sim.settleTransfer(payout.id, 'paid');
    expect((await runNow(org.production.environmentId)).payoutsUpdated).toBe(1);
    expect(
      (await get(`/payouts/${payout.id}`, org.production.secretKey).expect(200)).body.data,
    ).toMatchObject({
      status: 'paid',
      arrivedAt: expect.any(String),
    });
    expect(sim.stats().transfers).toBe(1);
    const kinds = await t.query<{ kind: string; status: string }>(
      `SELECT kind, data->>'status' AS status FROM events WHERE data->>'id' = $1 ORDER BY created_at`,
      [payout.id],
    );
    expect(kinds.map((k) => k.status)).toEqual(['pending', 'in_transit', 'paid']);
  });

  it('fails a transfer the bank refuses and puts the money back', async () => {
    const org = await payableTenant(t, FAILING_IBAN);
    await earn(t, org.production.secretKey, 2200);
    const payout = (await postPayout(t, org.production.secretKey).expect(200)).body.data;
    expect(payout).toMatchObject({ status: 'failed', failureReason: 'account closed' });
    expect((await balanceOf(t, org.production.secretKey)).available).toBe(2200);
  });

  it('keeps a payout pending while the gateway is down, and sends it once it is back: one transfer', async () => {
    const org = await payableTenant(t);
    await earn(t, org.production.secretKey, 4100);
    sim.setMode('error');
    const payout = (await postPayout(t, org.production.secretKey).expect(200)).body.data;
    expect(payout).toMatchObject({ status: 'pending' });
    expect((await balanceOf(t, org.production.secretKey)).available).toBe(0);
    sim.setMode('hang');
    expect((await runNow(org.production.environmentId)).payoutsUpdated).toBe(0);
    sim.setMode('normal');
    expect((await runNow(org.production.environmentId)).payoutsUpdated).toBe(1);
    expect((await get(`/payouts/${payout.id}`, org.production.secretKey).expect(200)).body.data.status).toBe(
      'paid',
    );
    expect(sim.stats()).toMatchObject({ transfers: 1 });
  });
});
