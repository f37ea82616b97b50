import { GO_LIVE_TEXTS } from '../../src/common/i18n/go-live-texts';
import { ADMIN_TEXTS } from '../../src/common/i18n/admin-texts';
import { newTenant, startTestApp, TestApp } from '../helpers/app';
import { signedInOperator } from '../helpers/admin';
import {
  DASHBOARD_ENV,
  DashboardBrowser,
  invitedMember,
  signedInOwner,
  unescapeHtml,
} from '../helpers/dashboard';
import { approvedAccount, earn, postPayout } from '../helpers/payouts';

/*
 * A verified owner changes the payout account (docs/going-live.md "Changing the payout account"):
 * asked in the dashboard, approved or refused by an operator in /admin, audited, and announced by
 * `account-updated` once approved. Payouts go to the approved account until then.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ ...DASHBOARD_ENV, PAYOUT_DELAY_DAYS: '0' });
});
afterAll(() => t.close());

const g = GO_LIVE_TEXTS.en;
const NEW_IBAN = 'MR1300020001010000123456753';
const OLD_IBAN = 'MR1700020001010000123450279';
const NEW_ACCOUNT = {
  payoutBank: 'BMCI',
  payoutHolder: 'Atar Commerce SARL',
  payoutIban: 'mr13 0002 0001 0100 0012 3456 753',
};

const accountEvents = (organizationId: string) =>
  t.query<{ environmentId: string; data: { payoutAccount: unknown } }>(
    `SELECT environment_id AS "environmentId", data FROM events
      WHERE organization_id = $1 AND kind = 'account-updated' ORDER BY created_at`,
    [organizationId],
  );
const auditOf = (organizationId: string) =>
  t.query<{ actor: string; action: string; before: Record<string, unknown>; after: Record<string, unknown> }>(
    `SELECT actor, action, before, after FROM operator_audit_log WHERE organization_id = $1 ORDER BY created_at, id`,
    [organizationId],
  );
const accountOf = async (key: string) =>
  (await t.http.get('/api/v1/organization').set('Authorization', key).expect(200)).body.data.payoutAccount;

async function verifiedOwnerWithAccount() {
  const owner = await signedInOwner(t, 'Atar Commerce');
  await approvedAccount(t, owner.org.organizationId, OLD_IBAN);
  return owner;
}

async function requestChange(browser: DashboardBrowser, form: Record<string, string> = NEW_ACCOUNT) {
  await browser.get('/dashboard/go-live');
  return browser.post('/dashboard/go-live/payout-account', form);
}

describe('the owner asks', () => {
  it('keeps the request for an operator, and payouts still go to the approved account', async () => {
    const { org, browser } = await verifiedOwnerWithAccount();
    const page = await browser.get('/dashboard/go-live');
    expect(page.text).toContain('data-testid="payout-change-form"');
    const res = await requestChange(browser);
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe('/dashboard/go-live?notice=change-requested');
    const after = unescapeHtml((await browser.get(res.headers.location)).text);
    expect(after).toContain(g.changeRequested);
    expect(after).toMatch(/data-testid="payout-change-request" data-status="pending"/);
    expect(after).toContain('…6753');

    const key = org.sandbox.secretKey;
    expect(await accountOf(key)).toEqual({
      bank: 'BNM',
      holderName: 'Boutique Test',
      ibanLast4: '0279',
      status: 'approved',
    });
    await earn(t, key, 1200);
    const payout = (await postPayout(t, key).expect(200)).body.data;
    expect(payout.destination.ibanLast4).toBe('0279');
    // Asking is not a change of the account: no event yet.
    expect(await accountEvents(org.organizationId)).toEqual([]);
  });

  it('checks each field, in the page’s language, and changes nothing when one is wrong', async () => {
    const { org, browser } = await verifiedOwnerWithAccount();
    const res = await requestChange(browser, {
      payoutBank: 'NOPE',
      payoutHolder: ' ',
      payoutIban: 'MR1300020001010000123456754',
    });
    expect(res.status).toBe(400);
    const html = unescapeHtml(res.text);
    expect(html).toContain(`data-testid="error-payoutBank">${g.problem_invalidBank}`);
    expect(html).toContain(`data-testid="error-payoutHolder">${g.problem_required}`);
    expect(html).toContain(`data-testid="error-payoutIban">${g.problem_invalidIban}`);
    const fr = new DashboardBrowser(t, undefined, 'fr');
    await fr.signIn(org.email, org.password);
    const inFrench = await requestChange(fr, { ...NEW_ACCOUNT, payoutIban: 'MR00' });
    expect(unescapeHtml(inFrench.text)).toContain(GO_LIVE_TEXTS.fr.problem_invalidIban);
    expect(
      await t.query('SELECT 1 FROM payout_account_changes WHERE organization_id = $1', [org.organizationId]),
    ).toEqual([]);
  });

  it('is refused (409) before verification: the go-live application sets the account then', async () => {
    const org = await newTenant(t, 'Not yet', { verification: 'unverified' });
    const browser = new DashboardBrowser(t);
    await browser.signIn(org.email, org.password);
    const page = await browser.get('/dashboard/go-live');
    expect(page.text).not.toContain('data-testid="payout-change-form"');
    const res = await requestChange(browser);
    expect(res.status).toBe(409);
    expect(unescapeHtml(res.text)).toContain(g.changeNeedsVerification);
    expect(
      await t.query('SELECT 1 FROM payout_account_changes WHERE organization_id = $1', [org.organizationId]),
    ).toEqual([]);
  });

  it('is for owners only', async () => {
    const { org, browser } = await verifiedOwnerWithAccount();
    const member = (await invitedMember(t, browser, 'developer')).browser;
    await member.get('/dashboard');
    const res = await member.post('/dashboard/go-live/payout-account', NEW_ACCOUNT);
    expect(res.status).toBe(403);
    expect(
      await t.query('SELECT 1 FROM payout_account_changes WHERE organization_id = $1', [org.organizationId]),
    ).toEqual([]);
  });
});

describe('an operator decides', () => {
  it('approves: the account is replaced, `account-updated` sent in both environments, the audit log has before and after, payouts go to it', async () => {
    const { org, browser } = await verifiedOwnerWithAccount();
    await requestChange(browser);
    const { operator, browser: console } = await signedInOperator(t);
    const queue = await console.get('/admin');
    expect(queue.text).toContain(`data-testid="change-queued" data-id="${org.organizationId}"`);
    const path = `/admin/organizations/${org.organizationId}`;
    const page = await console.get(path);
    expect(page.text).toContain(`data-testid="change-iban">${NEW_IBAN}<`);
    const res = await console.post(`${path}/payout-account-change/approve`);
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe(`${path}?notice=payoutAccountChangeApproved`);

    const key = org.sandbox.secretKey;
    const account = { bank: 'BMCI', holderName: 'Atar Commerce SARL', ibanLast4: '6753', status: 'approved' };
    expect(await accountOf(key)).toEqual(account);
    const events = await accountEvents(org.organizationId);
    expect(events.map((e) => e.environmentId).sort()).toEqual(
      [org.sandbox.environmentId, org.production.environmentId].sort(),
    );
    expect(events.map((e) => e.data.payoutAccount)).toEqual([account, account]);
    const audit = await auditOf(org.organizationId);
    expect(audit.map((e) => [e.actor, e.action])).toEqual([
      [operator.email, 'organization.payout_account_change_approve'],
    ]);
    expect(audit[0].before).toMatchObject({
      payoutAccount: { bank: 'BNM', ibanLast4: '0279', status: 'approved' },
      payoutAccountChange: { bank: 'BMCI', ibanLast4: '6753', status: 'pending' },
    });
    expect(audit[0].after).toMatchObject({ payoutAccount: account, payoutAccountChange: null });
    expect(JSON.stringify(audit)).not.toContain(NEW_IBAN);
    await earn(t, key, 900);
    expect((await postPayout(t, key).expect(200)).body.data.destination.ibanLast4).toBe('6753');

    // Decided once: approving again finds nothing waiting.
    await console.get(path);
    const again = await console.post(`${path}/payout-account-change/approve`);
    expect(again.status).toBe(409);
    expect(unescapeHtml(again.text)).toContain(ADMIN_TEXTS.en.noPayoutAccountChange);
    expect(await accountEvents(org.organizationId)).toHaveLength(2);
  });

  it('rejects: the account stays, no event, the owner reads the refusal and may ask again', async () => {
    const { org, browser } = await verifiedOwnerWithAccount();
    await requestChange(browser);
    const { browser: console } = await signedInOperator(t);
    const path = `/admin/organizations/${org.organizationId}`;
    await console.get(path);
    expect((await console.post(`${path}/payout-account-change/reject`)).status).toBe(303);
    expect((await accountOf(org.sandbox.secretKey)).ibanLast4).toBe('0279');
    expect(await accountEvents(org.organizationId)).toEqual([]);
    expect((await auditOf(org.organizationId)).map((e) => e.action)).toEqual([
      'organization.payout_account_change_reject',
    ]);
    expect((await console.get('/admin')).text).not.toContain(`data-id="${org.organizationId}"`);
    const page = await browser.get('/dashboard/go-live');
    expect(page.text).toMatch(/data-testid="payout-change-request" data-status="rejected"/);
    expect((await requestChange(browser)).status).toBe(303);
    expect((await browser.get('/dashboard/go-live')).text).toMatch(/data-status="pending"/);
  });
});
