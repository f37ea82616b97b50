import { Messages } from '../../src/common/errors/messages';
import { en } from '../../src/common/i18n/dashboard/en';
import { fr } from '../../src/common/i18n/dashboard/fr';
import { formatMru } from '../../src/common/i18n/languages';
import { REFUND_REASON_MAX } from '../../src/ledger/dto/refund.dto';
import { newTenant, startTestApp, TestApp } from '../helpers/app';
import {
  DASHBOARD_ENV,
  DashboardBrowser,
  invitedMember,
  relLink,
  signedInOwner,
  unescapeHtml,
} from '../helpers/dashboard';
import { paidRequest, parseCsv } from '../helpers/money';
import { approvedAccount, earn, postPayout } from '../helpers/payouts';

/*
 * The dashboard's money pages with real money (Sandbox payments completed through POST /payment,
 * a fee of 1 %, available at once): the balance on the home page, refunds from a payment request's
 * page, payouts and their transactions, "pay out now", the payout schedule and the settlement
 * report with its CSV. Each form: the API's exact messages, owners only, CSRF; every id: tenancy.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ ...DASHBOARD_ENV, PAYOUT_DELAY_DAYS: '0', DEFAULT_FEE_BPS: '100' });
});
afterAll(() => t.close());

const mru = (n: number) => formatMru(n, 'en');
/** The text of the element carrying `data-testid="<id>"` (its first), tags removed. */
const testId = (html: string, id: string): string | undefined => {
  const m = new RegExp(`data-testid="${id}"[^>]*>([\\s\\S]*?)</(dd|td|span|p|li)>`).exec(html);
  return m ? unescapeHtml(m[1].replace(/<[^>]+>/g, '').trim()) : undefined;
};
const count = (html: string, id: string) => html.split(`data-testid="${id}"`).length - 1;
const errorsOf = (html: string) =>
  [...html.matchAll(/data-testid="error"[^>]*>([^<]*)</g)].map((m) => unescapeHtml(m[1]));

const refundsOf = async (paymentId: string) =>
  t.query<{ amount: string; status: string; reason: string | null }>(
    'SELECT amount::text, status, reason FROM refunds WHERE payment_id = $1 ORDER BY created_at',
    [paymentId],
  );
const payoutsOf = (environmentId: string) =>
  t.query<{ id: string; amount: string }>(
    'SELECT id, amount::text FROM payouts WHERE environment_id = $1 ORDER BY created_at',
    [environmentId],
  );
const scheduleOf = async (environmentId: string) =>
  (
    await t.query<{ interval: string; weekly_day: string | null; minimum_amount: string }>(
      'SELECT interval, weekly_day, minimum_amount::text FROM payout_schedules WHERE environment_id = $1',
      [environmentId],
    )
  )[0];

/** An owner signed in, whose organization has an approved payout account. */
async function payableOwner() {
  const { org, browser } = await signedInOwner(t, 'Money Merchant');
  await approvedAccount(t, org.organizationId);
  return { org, browser };
}

describe('home: the balance', () => {
  it("shows the session environment's available and pending balance, in MRU", async () => {
    const { org, browser } = await payableOwner();
    await earn(t, org.sandbox.secretKey, 2000, 3000); // fees 20 + 30
    const home = await browser.get('/dashboard');
    expect(home.status).toBe(200);
    expect(testId(home.text, 'balance-available')).toBe(mru(4950));
    expect(testId(home.text, 'balance-pending')).toBe(mru(0));
    // A refund debits it at once.
    const api = await t.http.get('/api/v1/balance').set('Authorization', org.sandbox.secretKey).expect(200);
    expect(api.body.data.available).toBe(4950);
    await browser.post('/dashboard/environment', { environment: 'production', return: '/dashboard' });
    const production = await browser.get('/dashboard');
    expect(testId(production.text, 'balance-available')).toBe(mru(0));
  });
});

describe("refunds on a payment request's page", () => {
  it('refunds part, then what is left by default: the refunds, refundedAmount, the ledger and events as through the API', async () => {
    const { org, browser } = await payableOwner();
    const paid = await paidRequest(t, org.sandbox.secretKey, 2000);
    const paymentId = paid.payment.id as string;
    const page = await browser.get(`/dashboard/payment-requests/${paid.requestId}`);
    expect(page.status).toBe(200);
    expect(count(page.text, 'refund-form')).toBe(1);
    expect(testId(page.text, 'refunded-amount')).toBe(mru(0));
    expect(testId(page.text, 'left-to-refund')).toBe(mru(2000));
    expect(page.text).toContain(en.noRefunds);

    const first = await browser.post(`/dashboard/payments/${paymentId}/refunds`, {
      amount: '500',
      reason: 'damaged box',
    });
    expect(first.status).toBe(303);
    expect(first.headers.location).toBe(
      `/dashboard/payment-requests/${paid.requestId}?notice=refundCreated#payment-${paymentId}`,
    );
    const after = await browser.get(first.headers.location);
    expect(after.text).toContain(en.notices.refundCreated);
    expect(testId(after.text, 'refunded-amount')).toBe(mru(500));
    expect(testId(after.text, 'left-to-refund')).toBe(mru(1500));
    expect(count(after.text, 'refund')).toBe(1);
    expect(testId(after.text, 'refund-amount')).toBe(mru(500));
    expect(testId(after.text, 'refund-status')).toBe(en.refundStatus_succeeded);
    expect(after.text).toContain('damaged box');
    expect(await refundsOf(paymentId)).toEqual([
      { amount: '500', status: 'succeeded', reason: 'damaged box' },
    ]);

    // Empty amount: what is left.
    const second = await browser.post(`/dashboard/payments/${paymentId}/refunds`, { amount: '', reason: '' });
    expect(second.status).toBe(303);
    expect((await refundsOf(paymentId)).map((r) => r.amount)).toEqual(['500', '1500']);
    const done = await browser.get(`/dashboard/payment-requests/${paid.requestId}`);
    expect(testId(done.text, 'refunded-amount')).toBe(mru(2000));
    expect(count(done.text, 'refund-form')).toBe(0); // nothing left to refund
    expect(count(done.text, 'refund-status')).toBe(2);

    // Exactly what POST /refunds records: the API shows the payment and the refunds, the ledger and the events.
    const payment = await t.http
      .get(`/api/v1/payment/${paymentId}`)
      .set('Authorization', org.sandbox.secretKey)
      .expect(200);
    expect(payment.body.data).toMatchObject({ status: 'completed', refundedAmount: 2000 });
    const refunds = await t.http
      .get(`/api/v1/refunds?paymentId=${paymentId}`)
      .set('Authorization', org.sandbox.secretKey)
      .expect(200);
    expect(refunds.body.data).toHaveLength(2);
    for (const r of refunds.body.data as { id: string; amount: number }[]) {
      const [tx] = await t.query<{ type: string; net: string }>(
        'SELECT type, net::text FROM balance_transactions WHERE source_id = $1',
        [r.id],
      );
      expect(tx).toEqual({ type: 'refund', net: String(-r.amount) });
      const kinds = await t.query<{ kind: string }>(
        `SELECT kind FROM events WHERE data->>'id' = $1 ORDER BY created_at, kind`,
        [r.id],
      );
      expect(kinds.map((k) => k.kind)).toEqual(['refund-created', 'refund-updated']);
    }
    const balance = await t.http
      .get('/api/v1/balance')
      .set('Authorization', org.sandbox.secretKey)
      .expect(200);
    expect(balance.body.data.available).toBe(1980 - 2000);
  });

  it("shows the API's exact messages on the form, and refunds nothing", async () => {
    const { org, browser } = await payableOwner();
    const paid = await paidRequest(t, org.sandbox.secretKey, 1000);
    const paymentId = paid.payment.id as string;
    const page = await browser.get(`/dashboard/payment-requests/${paid.requestId}`);
    // The reason's field stops where the API's refund does.
    expect(page.text).toContain(`name="reason" type="text" maxlength="${REFUND_REASON_MAX}"`);

    const tooMuch = await browser.post(`/dashboard/payments/${paymentId}/refunds`, { amount: '1001' });
    expect(tooMuch.status).toBe(200);
    expect(errorsOf(tooMuch.text)).toEqual([en.apiRules.refund_amount_exceeds_left]);
    expect(tooMuch.text).toContain('value="1001"'); // the form keeps what was sent

    const zero = await browser.post(`/dashboard/payments/${paymentId}/refunds`, { amount: '0' });
    expect(errorsOf(zero.text)).toEqual([en.apiRules.amount_not_positive]);

    const words = await browser.post(`/dashboard/payments/${paymentId}/refunds`, { amount: 'ten' });
    expect(errorsOf(words.text)).toEqual([en.invalidAmount]);

    const longReason = await browser.post(`/dashboard/payments/${paymentId}/refunds`, {
      amount: '10',
      reason: 'x'.repeat(REFUND_REASON_MAX + 1),
    });
    expect(errorsOf(longReason.text)).toEqual([en.reasonTooLong]);

    // A payment the bank declined (Sandbox: a phone ending 9001).
    const declined = await paidRequest(t, org.sandbox.secretKey, 1000, '22229001');
    const [failed] = await t.query<{ id: string; status: string }>(
      'SELECT id, status FROM payments WHERE payment_request_id = $1',
      [declined.requestId],
    );
    expect(failed.status).toBe('failed');
    const failedPage = await browser.get(`/dashboard/payment-requests/${declined.requestId}`);
    expect(count(failedPage.text, 'refund-form')).toBe(0);
    const notCompleted = await browser.post(`/dashboard/payments/${failed.id}/refunds`, { amount: '' });
    expect(notCompleted.status).toBe(200);
    expect(errorsOf(notCompleted.text)).toEqual([en.apiRules.refund_payment_not_completed]);

    expect(await refundsOf(paymentId)).toEqual([]);
    expect(await refundsOf(failed.id)).toEqual([]);
  });

  it('shows a refund the bank refused as failed, and gives its amount back to what is left (Sandbox: paid from a phone ending 9004)', async () => {
    const { org, browser } = await payableOwner();
    const paid = await paidRequest(t, org.sandbox.secretKey, 1000, '22229004');
    const paymentId = paid.payment.id as string;
    await browser.get(`/dashboard/payment-requests/${paid.requestId}`);
    const res = await browser.post(`/dashboard/payments/${paymentId}/refunds`, { amount: '300' });
    expect(res.status).toBe(303);
    const page = await browser.get(res.headers.location);
    expect(testId(page.text, 'refund-status')).toBe(en.refundStatus_failed);
    expect(testId(page.text, 'refunded-amount')).toBe(mru(0));
    expect(testId(page.text, 'left-to-refund')).toBe(mru(1000));
    expect(count(page.text, 'refund-form')).toBe(1);
    expect(await refundsOf(paymentId)).toEqual([{ amount: '300', status: 'failed', reason: null }]);
    const types = await t.query<{ type: string }>(
      `SELECT b.type FROM balance_transactions b JOIN refunds r ON r.id = b.source_id WHERE r.payment_id = $1 ORDER BY b.created_at, b.type`,
      [paymentId],
    );
    expect(types.map((x) => x.type)).toEqual(['refund', 'refund_failure']);
  });

  it('shows the rule in the page’s language, on a French page', async () => {
    const { org, browser } = await payableOwner();
    const paid = await paidRequest(t, org.sandbox.secretKey, 1000);
    await browser.get(`/dashboard/payment-requests/${paid.requestId}?lang=fr`);
    const res = await browser.post(`/dashboard/payments/${paid.payment.id as string}/refunds`, {
      amount: '5000',
    });
    expect(errorsOf(res.text)).toEqual([fr.apiRules.refund_amount_exceeds_left]);
    expect(res.text).not.toContain(Messages.refundExceedsAmountLeft);
    expect(res.text).toContain('<html lang="fr"');
  });
});

describe('payouts', () => {
  it('pays out now: the payout page with the transactions it paid, the list with status, amount and ibanLast4', async () => {
    const { org, browser } = await payableOwner();
    const paymentIds = await earn(t, org.sandbox.secretKey, 3000, 2000);
    const list = await browser.get('/dashboard/payouts');
    expect(list.status).toBe(200);
    expect(list.text).toContain(en.noPayouts);
    expect(testId(list.text, 'balance-available')).toBe(mru(4950));
    expect(count(list.text, 'pay-now-form')).toBe(1);

    const res = await browser.post('/dashboard/payouts', { amount: '' });
    expect(res.status).toBe(303);
    const [payout] = await payoutsOf(org.sandbox.environmentId);
    expect(payout.amount).toBe('4950');
    expect(res.headers.location).toBe(`/dashboard/payouts/${payout.id}?notice=payoutCreated`);

    const page = await browser.get(res.headers.location);
    expect(page.status).toBe(200);
    expect(page.text).toContain(en.notices.payoutCreated);
    expect(testId(page.text, 'payout-amount')).toBe(mru(4950));
    expect(testId(page.text, 'payout-status')).toBe(en.payoutStatus_paid);
    expect(testId(page.text, 'iban-last4')).toBe('IBAN ending in 6753');
    const sources = [
      ...page.text.matchAll(/data-testid="balance-transaction" data-source-id="([^"]+)"/g),
    ].map((m) => m[1]);
    // The payments it paid, and its own `payout` transaction.
    expect(sources.sort()).toEqual([...paymentIds, payout.id].sort());

    const after = await browser.get('/dashboard/payouts');
    expect(count(after.text, 'payout')).toBe(1);
    expect(testId(after.text, 'payout-amount')).toBe(mru(4950));
    expect(testId(after.text, 'payout-status')).toBe(en.payoutStatus_paid);
    expect(after.text).toContain(`href="/dashboard/payouts/${payout.id}"`);
    expect(testId(after.text, 'balance-available')).toBe(mru(0));

    // Nothing left: the API's message.
    const again = await browser.post('/dashboard/payouts', { amount: '' });
    expect(again.status).toBe(200);
    expect(errorsOf(again.text)).toEqual([en.apiRules.insufficient_available_balance]);
    const tooMuch = await browser.post('/dashboard/payouts', { amount: '1' });
    expect(errorsOf(tooMuch.text)).toEqual([en.apiRules.insufficient_available_balance]);
    const words = await browser.post('/dashboard/payouts', { amount: 'all' });
    expect(errorsOf(words.text)).toEqual([en.invalidAmount]);
    expect(await payoutsOf(org.sandbox.environmentId)).toHaveLength(1);
  });

  it('pays out a chosen amount; without an approved payout account: `Payouts are on hold for this organization`', async () => {
    const { org, browser } = await payableOwner();
    await earn(t, org.sandbox.secretKey, 1000);
    await browser.get('/dashboard/payouts');
    const res = await browser.post('/dashboard/payouts', { amount: '400' });
    expect(res.status).toBe(303);
    expect((await payoutsOf(org.sandbox.environmentId)).map((p) => p.amount)).toEqual(['400']);

    const held = await signedInOwner(t, 'Held Merchant');
    await earn(t, held.org.sandbox.secretKey, 1000);
    await held.browser.get('/dashboard/payouts');
    const refused = await held.browser.post('/dashboard/payouts', { amount: '' });
    expect(refused.status).toBe(200);
    expect(errorsOf(refused.text)).toEqual([en.apiRules.payouts_on_hold]);
    expect(await payoutsOf(held.org.sandbox.environmentId)).toEqual([]);
    // On a French page, the 409 in French beside the French amounts, never the API's English.
    await held.browser.get('/dashboard/payouts?lang=fr');
    const inFrench = await held.browser.post('/dashboard/payouts', { amount: '' });
    expect(inFrench.text).toContain('<html lang="fr"');
    expect(errorsOf(inFrench.text)).toEqual([fr.apiRules.payouts_on_hold]);
    expect(inFrench.text).not.toContain(Messages.payoutsOnHold);
    expect(inFrench.text).not.toMatch(/data-testid="error" lang="en"/);
  });

  it('pays out nothing from Production until the organization is verified (the API’s message)', async () => {
    const org = await newTenant(t, 'Unverified Merchant', { verification: 'unverified' });
    await approvedAccount(t, org.organizationId);
    const browser = new DashboardBrowser(t);
    await browser.signIn(org.email, org.password);
    await browser.post('/dashboard/environment', { environment: 'production', return: '/dashboard/payouts' });
    await browser.get('/dashboard/payouts');
    const res = await browser.post('/dashboard/payouts', { amount: '' });
    expect(errorsOf(res.text)).toEqual([en.apiRules.organization_not_verified]);
    expect(await payoutsOf(org.production.environmentId)).toEqual([]);
  });

  it('lists payouts newest first, 25 a page', async () => {
    const { org, browser } = await payableOwner();
    await earn(t, org.sandbox.secretKey, 10_000);
    const ids: string[] = [];
    for (let i = 1; i <= 26; i += 1) {
      const res = await postPayout(t, org.sandbox.secretKey, { amount: i });
      expect(res.status).toBe(200);
      ids.push(res.body.data.id as string);
    }
    const shown = (html: string) =>
      [...html.matchAll(/data-testid="payout" data-id="([^"]+)"/g)].map((m) => m[1]);
    const first = await browser.get('/dashboard/payouts');
    expect(shown(first.text)).toEqual([...ids].reverse().slice(0, 25));
    const next = relLink(first.text, 'next');
    expect(next).toBe('/dashboard/payouts?page=2');
    const second = await browser.get(next!);
    expect(shown(second.text)).toEqual([ids[0]]);
    expect(second.text).not.toContain('rel="next"');
    expect(relLink(second.text, 'prev')).toBe('/dashboard/payouts');
  });
});

describe('the payout schedule', () => {
  it('shows the schedule and saves it (weekly on a day, minimum amount), this environment only', async () => {
    const { org, browser } = await payableOwner();
    const page = await browser.get('/dashboard/payouts');
    expect(testId(page.text, 'schedule-interval')).toBe(en.payoutInterval_daily);
    expect(testId(page.text, 'schedule-minimum')).toBe(mru(1000));
    const res = await browser.post('/dashboard/payout-schedule', {
      interval: 'weekly',
      weeklyDay: 'friday',
      minimumAmount: '5000',
    });
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe('/dashboard/payouts?notice=scheduleSaved');
    expect(await scheduleOf(org.sandbox.environmentId)).toEqual({
      interval: 'weekly',
      weekly_day: 'friday',
      minimum_amount: '5000',
    });
    const api = await t.http
      .get('/api/v1/payout-schedule')
      .set('Authorization', org.sandbox.secretKey)
      .expect(200);
    expect(api.body.data).toMatchObject({ interval: 'weekly', weeklyDay: 'friday', minimumAmount: 5000 });
    const saved = await browser.get(res.headers.location);
    expect(testId(saved.text, 'schedule-interval')).toBe(
      `${en.payoutInterval_weekly} (${en.weekday_friday})`,
    );
    expect(saved.text).toContain(en.notices.scheduleSaved);

    // Manual: no weekly day kept.
    await browser.post('/dashboard/payout-schedule', {
      interval: 'manual',
      weeklyDay: 'friday',
      minimumAmount: '5000',
    });
    expect(await scheduleOf(org.sandbox.environmentId)).toMatchObject({
      interval: 'manual',
      weekly_day: null,
    });

    // Production's schedule is its own.
    expect(await scheduleOf(org.production.environmentId)).toEqual({
      interval: 'daily',
      weekly_day: null,
      minimum_amount: '1000',
    });
  });

  it('shows what is wrong with the form, and changes nothing', async () => {
    const { org, browser } = await payableOwner();
    await browser.get('/dashboard/payouts');
    const before = await scheduleOf(org.sandbox.environmentId);
    const badInterval = await browser.post('/dashboard/payout-schedule', {
      interval: 'hourly',
      minimumAmount: '10',
    });
    expect(badInterval.status).toBe(200);
    expect(errorsOf(badInterval.text)).toEqual([en.chooseScheduleInterval]);
    const noDay = await browser.post('/dashboard/payout-schedule', {
      interval: 'weekly',
      weeklyDay: 'someday',
      minimumAmount: '10',
    });
    expect(errorsOf(noDay.text)).toEqual([en.chooseWeekday]);
    const zero = await browser.post('/dashboard/payout-schedule', { interval: 'daily', minimumAmount: '0' });
    expect(errorsOf(zero.text)).toEqual([en.apiRules.amount_not_positive]);
    const words = await browser.post('/dashboard/payout-schedule', {
      interval: 'daily',
      minimumAmount: 'lots',
    });
    expect(errorsOf(words.text)).toEqual([en.invalidAmount]);
    expect(words.text).toContain('value="lots"');
    expect(await scheduleOf(org.sandbox.environmentId)).toEqual(before);
  });
});

describe('roles, CSRF and tenancy of the money forms', () => {
  it('developers and viewers see no form and get 403; a post without the CSRF token is 403; nothing changes', async () => {
    const { org, browser: owner } = await payableOwner();
    const paid = await paidRequest(t, org.sandbox.secretKey, 1000);
    const paymentId = paid.payment.id as string;
    const forms: [string, Record<string, string>][] = [
      [`/dashboard/payments/${paymentId}/refunds`, { amount: '100' }],
      ['/dashboard/payouts', { amount: '' }],
      ['/dashboard/payout-schedule', { interval: 'manual', minimumAmount: '10' }],
    ];
    const before = await scheduleOf(org.sandbox.environmentId);
    for (const role of ['developer', 'viewer'] as const) {
      const { browser } = await invitedMember(t, owner, role);
      const request = await browser.get(`/dashboard/payment-requests/${paid.requestId}`);
      expect(request.status).toBe(200);
      expect(count(request.text, 'refund-form')).toBe(0);
      expect(testId(request.text, 'refunded-amount')).toBe(mru(0)); // they see the refunds
      const payouts = await browser.get('/dashboard/payouts');
      expect(count(payouts.text, 'pay-now-form')).toBe(0);
      expect(count(payouts.text, 'schedule-form')).toBe(0);
      expect(testId(payouts.text, 'schedule-interval')).toBe(en.payoutInterval_daily);
      for (const [path, form] of forms) {
        const res = await browser.post(path, form);
        expect({ role, path, status: res.status }).toEqual({ role, path, status: 403 });
        expect(res.text).toContain(en.forbiddenBody);
      }
    }
    await owner.get('/dashboard/payouts');
    for (const [path, form] of forms) {
      const res = await owner.post(path, { ...form, _csrf: null });
      expect({ path, status: res.status }).toEqual({ path, status: 403 });
      expect(res.text).toContain(en.securityBody);
      const wrong = await owner.post(path, { ...form, _csrf: 'forged' });
      expect({ path, status: wrong.status }).toEqual({ path, status: 403 });
    }
    expect(await refundsOf(paymentId)).toEqual([]);
    expect(await payoutsOf(org.sandbox.environmentId)).toEqual([]);
    expect(await scheduleOf(org.sandbox.environmentId)).toEqual(before);
  });

  it("another organization's payout or payment, and the other environment's, are the 404 page", async () => {
    const victim = await payableOwner();
    const [victimPayment] = await earn(t, victim.org.sandbox.secretKey, 3000);
    await victim.browser.get('/dashboard/payouts');
    const made = await victim.browser.post('/dashboard/payouts', { amount: '' });
    const payoutId = /\/dashboard\/payouts\/([0-9a-f-]+)/.exec(made.headers.location)![1];
    expect((await victim.browser.get(`/dashboard/payouts/${payoutId}`)).status).toBe(200);

    const { org: other, browser: intruder } = await payableOwner();
    await earn(t, other.sandbox.secretKey, 1000);
    await intruder.get('/dashboard/payouts');
    const payout = await intruder.get(`/dashboard/payouts/${payoutId}`);
    expect(payout.status).toBe(404);
    expect(payout.text).toContain(en.notFoundBody);
    await intruder.get('/dashboard/payouts');
    const refund = await intruder.post(`/dashboard/payments/${victimPayment}/refunds`, { amount: '' });
    expect(refund.status).toBe(404);
    expect(await refundsOf(victimPayment)).toEqual([]);
    for (const path of [
      '/dashboard/payouts/not-a-uuid',
      '/dashboard/payouts/00000000-0000-4000-8000-000000000000',
    ])
      expect((await intruder.get(path)).status).toBe(404);

    // The Sandbox payout and payment seen from the organization's own Production.
    await victim.browser.post('/dashboard/environment', { environment: 'production', return: '/dashboard' });
    expect((await victim.browser.get(`/dashboard/payouts/${payoutId}`)).status).toBe(404);
    const list = await victim.browser.get('/dashboard/payouts');
    expect(list.text).toContain(en.noPayouts);
    const fromProduction = await victim.browser.post(`/dashboard/payments/${victimPayment}/refunds`, {
      amount: '',
    });
    expect(fromProduction.status).toBe(404);
    expect(await refundsOf(victimPayment)).toEqual([]);
  });
});

describe('the settlement report', () => {
  it('shows the last 30 days per day and bank app, and downloads the same rows as the API’s CSV', async () => {
    const { org, browser } = await payableOwner();
    const paid = await paidRequest(t, org.sandbox.secretKey, 2000);
    await paidRequest(t, org.sandbox.secretKey, 1000);
    await t.http
      .post('/api/v1/refunds')
      .set('Authorization', org.sandbox.secretKey)
      .send({ paymentId: paid.payment.id, amount: 500 })
      .expect(200);
    const today = new Date().toISOString().slice(0, 10);
    const from = new Date(Date.now() - 29 * 86_400_000).toISOString().slice(0, 10);

    const page = await browser.get('/dashboard/reports/settlement');
    expect(page.status).toBe(200);
    expect(page.text).toContain(`name="from" type="date" value="${from}"`);
    expect(page.text).toContain(`name="to" type="date" value="${today}"`);
    expect(count(page.text, 'settlement-row')).toBe(1);
    expect(page.text).toContain(`data-day="${today}" data-method="masrivi"`);
    expect(testId(page.text, 'row-payments')).toBe('2');
    expect(testId(page.text, 'row-gross')).toBe(mru(3000));
    expect(testId(page.text, 'row-fees')).toBe(mru(30));
    expect(testId(page.text, 'row-refunds')).toBe(mru(500));
    expect(testId(page.text, 'row-net')).toBe(mru(2470));

    const href = unescapeHtml(/href="([^"]+)" download data-testid="download-csv"/.exec(page.text)![1]);
    expect(href).toBe(`/dashboard/reports/settlement.csv?from=${from}&to=${today}`);
    const csv = await browser.get(href);
    expect(csv.status).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.headers['content-disposition']).toBe(`attachment; filename="settlement-${from}-${today}.csv"`);
    const api = await t.http
      .get(`/api/v1/reports/settlement?from=${from}&to=${today}`)
      .set('Authorization', org.sandbox.secretKey)
      .set('Accept', 'text/csv')
      .expect(200);
    expect(csv.text).toBe(api.text);
    expect(parseCsv(csv.text)).toEqual([
      ['date', 'paymentMethod', 'payments', 'gross', 'fees', 'refunds', 'net'],
      [today, 'masrivi', '2', '3000', '30', '500', '2470'],
    ]);

    // Another range, and one the API refuses (its message).
    const old = await browser.get('/dashboard/reports/settlement?from=2020-01-01&to=2020-01-31');
    expect(old.text).toContain(en.noSettlementRows);
    const backwards = await browser.get(`/dashboard/reports/settlement?from=${today}&to=2020-01-01`);
    expect(backwards.status).toBe(200);
    expect(errorsOf(backwards.text)).toEqual([en.apiRules.settlement_report_range]);
    const badCsv = await browser.get(`/dashboard/reports/settlement.csv?from=${today}&to=2020-01-01`);
    expect(badCsv.status).toBe(400);

    // Production's report is its own.
    await browser.post('/dashboard/environment', { environment: 'production', return: '/dashboard' });
    const production = await browser.get('/dashboard/reports/settlement');
    expect(production.text).toContain(en.noSettlementRows);
    const productionCsv = await browser.get(href);
    expect(parseCsv(productionCsv.text)).toEqual([
      ['date', 'paymentMethod', 'payments', 'gross', 'fees', 'refunds', 'net'],
    ]);
  });

  it('answers 303 to the sign-in page without a session', async () => {
    const browser = new DashboardBrowser(t);
    for (const path of [
      '/dashboard/payouts',
      '/dashboard/reports/settlement',
      '/dashboard/reports/settlement.csv',
    ])
      expect((await browser.get(path)).status).toBe(303);
  });
});
