import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { newTenant, startTestApp, TestApp } from '../helpers/app';
import { APPLICATION, ID_NUMBER, newOperator, PDF, PNG } from '../helpers/admin';
import {
  ARTIFACTS,
  launchBrowser,
  screenshot,
  TestBrowser,
  seriousViolations,
  brokenWords,
} from '../helpers/browser';
import { DASHBOARD_ENV } from '../helpers/dashboard';
import { approvedAccount } from '../helpers/payouts';

/*
 * Going live in real Chromium, both sides: the owner applies on /dashboard/go-live with two files,
 * an operator signs in to /admin with a TOTP code (and changes the one-time password), opens a
 * document, rejects with a reason, the owner reads it and corrects, the operator approves, and the
 * Production key then creates a payment request. Every page visited passes axe-core (no serious or
 * critical violation) at 360 and 1280 px with nothing wider than the screen; the console is also
 * checked in Arabic (right to left) and French. `UPDATE_SCREENSHOTS=1` also writes
 * docs/screenshots/go-live.png and admin-queue.png (a normal run leaves the tree as it was).
 */
const DOCS_SCREENSHOTS = resolve(__dirname, '../../docs/screenshots');
jest.setTimeout(240_000);

let t: TestApp;
let b: TestBrowser;
let base: string;

beforeAll(async () => {
  t = await startTestApp(DASHBOARD_ENV);
  const { port } = t.app.getHttpServer().address() as { port: number };
  base = `http://127.0.0.1:${port}`;
  b = await launchBrowser();
});
afterAll(async () => {
  await b?.close();
  await t?.close();
});

/** The page passes axe at both widths with nothing wider than the screen, and is saved at both. */
async function check(page: Page, name: string, forDocs?: string): Promise<void> {
  for (const width of [360, 1280]) {
    await page.setViewportSize({ width, height: width === 360 ? 780 : 900 });
    expect({ name, width, violations: await seriousViolations(page) }).toEqual({
      name,
      width,
      violations: [],
    });
    const overflow = await page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth');
    expect({ name, width, overflow: overflow <= 0 }).toEqual({ name, width, overflow: true });
    expect({ name, width, broken: await brokenWords(page) }).toEqual({ name, width, broken: [] });
    await screenshot(page, `${name}-${width}`);
  }
  if (forDocs && process.env.UPDATE_SCREENSHOTS) {
    mkdirSync(DOCS_SCREENSHOTS, { recursive: true });
    copyFileSync(join(ARTIFACTS, `${name}-1280.png`), join(DOCS_SCREENSHOTS, forDocs));
  }
}

const status = async (organizationId: string) =>
  (await t.query('SELECT verification_status FROM organizations WHERE id = $1', [organizationId]))[0]
    .verification_status as string;

it('goes live: apply with two files, reject with a reason, correct, approve, then take money in Production', async () => {
  const org = await newTenant(t, 'Boutique Atar', { verification: 'unverified' });
  const operator = await newOperator(t);

  // The owner applies.
  const ownerContext = await b.browser.newContext({
    locale: 'en-GB',
    viewport: { width: 1280, height: 900 },
  });
  const owner = await ownerContext.newPage();
  await owner.goto(`${base}/dashboard/login`);
  await owner.fill('#email', org.email);
  await owner.fill('#password', org.password);
  await Promise.all([owner.waitForURL(`${base}/dashboard`), owner.click('button[type=submit]')]);
  expect(await owner.getAttribute('[data-testid=verification-status]', 'data-status')).toBe('unverified');
  await owner.click('nav >> text=Go live');
  await owner.waitForSelector('[data-testid=go-live-form]');
  await check(owner, 'go-live-empty');
  for (const [field, value] of Object.entries(APPLICATION)) {
    if (field === 'legalForm' || field === 'payoutBank') await owner.selectOption(`#${field}`, value);
    else await owner.fill(`#${field}`, value);
  }
  await owner.setInputFiles('#rccmExtract', { name: 'rccm.pdf', mimeType: 'application/pdf', buffer: PDF });
  await owner.setInputFiles('#representativeIdDocument', {
    name: 'id.png',
    mimeType: 'image/png',
    buffer: PNG,
  });
  await Promise.all([owner.waitForURL(/notice=submitted/), owner.click('[data-testid=apply]')]);
  expect(await owner.getAttribute('[data-testid=standing]', 'data-status')).toBe('submitted');
  expect(await status(org.organizationId)).toBe('submitted');

  // The operator signs in with the one-time password and a TOTP code, then chooses a password.
  const opsContext = await b.browser.newContext({ locale: 'en-GB', viewport: { width: 1280, height: 900 } });
  const ops = await opsContext.newPage();
  ops.on('dialog', (dialog) => void dialog.accept());
  await ops.goto(`${base}/admin/login`);
  await check(ops, 'admin-login');
  await ops.fill('#email', operator.email);
  await ops.fill('#password', operator.password);
  await ops.fill('#code', operator.code());
  await Promise.all([ops.waitForURL(`${base}/admin/password`), ops.click('[data-testid=sign-in]')]);
  await check(ops, 'admin-password');
  await ops.fill('#currentPassword', operator.password);
  await ops.fill('#newPassword', 'a password of my own');
  await ops.fill('#confirmPassword', 'a password of my own');
  await Promise.all([
    ops.waitForURL(/\/admin\?notice=passwordChanged/),
    ops.click('[data-testid=change-password]'),
  ]);

  // The queue, the application, a document.
  expect(await ops.textContent('[data-testid=notice]')).toBe('Password changed.');
  await ops.click('nav >> text=Applications');
  const row = ops.locator(`[data-testid=queued][data-id="${org.organizationId}"]`);
  await row.waitFor();
  await check(ops, 'admin-queue', 'admin-queue.png');
  await Promise.all([ops.waitForURL(/\/admin\/organizations\//), row.locator('a').click()]);
  expect(await ops.textContent('[data-testid=field-representativeIdNumber]')).toBe(ID_NUMBER);
  await check(ops, 'admin-application');
  const [download] = await Promise.all([
    ops.waitForEvent('download'),
    ops.click('[data-testid=document-rccm_extract]'),
  ]);
  expect(download.suggestedFilename()).toBe(`rccm-extract-${org.organizationId}.pdf`);
  expect(Buffer.compare(readFileSync(await download.path()), PDF)).toBe(0);

  // Rejected with a reason.
  const reason = 'The RCCM extract is older than three months: send a recent one.';
  await ops.fill('#reason', reason);
  await Promise.all([ops.waitForURL(/notice=rejected/), ops.click('[data-testid=reject]')]);
  expect(await ops.getAttribute('[data-testid=organization-detail]', 'data-status')).toBe('rejected');
  expect(await status(org.organizationId)).toBe('rejected');

  // The owner reads the reason and corrects: a new extract, the ID document kept.
  await owner.goto(`${base}/dashboard/go-live`);
  expect(await owner.textContent('[data-testid=rejection-reason]')).toBe(reason);
  expect(await owner.inputValue('#legalName')).toBe(APPLICATION.legalName);
  await check(owner, 'go-live', 'go-live.png');
  await owner.fill('#representativeIdNumber', ID_NUMBER);
  const recent = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.from('RECENT EXTRACT '.repeat(20))]);
  await owner.setInputFiles('#rccmExtract', {
    name: 'rccm-2.pdf',
    mimeType: 'application/pdf',
    buffer: recent,
  });
  await Promise.all([owner.waitForURL(/notice=submitted/), owner.click('[data-testid=apply]')]);
  expect(await status(org.organizationId)).toBe('submitted');

  // Approved.
  await ops.goto(`${base}/admin/organizations/${org.organizationId}`);
  await Promise.all([ops.waitForURL(/notice=verified/), ops.click('[data-testid=approve]')]);
  expect(await ops.getAttribute('[data-testid=organization-detail]', 'data-status')).toBe('verified');
  await ops.click('nav >> text=Audit log');
  await ops.waitForSelector('[data-testid=audit-entry]');
  const actions = await ops
    .locator(`[data-testid=audit-entry][data-organization="${org.organizationId}"]`)
    .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-action')));
  // The two decisions, and each reading of personal data: the document opened, and the four
  // showings of the page with the ID number (before the rejection, after it, before and after
  // the approval).
  expect(actions.sort()).toEqual([
    'organization.open_document',
    'organization.reject',
    'organization.show_id_number',
    'organization.show_id_number',
    'organization.show_id_number',
    'organization.show_id_number',
    'organization.verify',
  ]);
  await check(ops, 'admin-audit');
  // Filtered to the documents opened: who opened which.
  await ops.selectOption('#action', 'organization.open_document');
  await Promise.all([ops.waitForURL(/action=organization.open_document/), ops.click('form.filters button')]);
  const opened = ops.locator(`[data-testid=audit-entry][data-organization="${org.organizationId}"]`);
  expect(await opened.count()).toBe(1);
  expect(await opened.locator('[data-testid=audit-who]').textContent()).toBe(operator.email);
  expect(await opened.locator('[data-testid=audit-read]').textContent()).toBe('Opened: RCCM extract');
  await check(ops, 'admin-audit-reads');

  await owner.goto(`${base}/dashboard`);
  expect(await owner.getAttribute('[data-testid=verification-status]', 'data-status')).toBe('verified');

  // The Production key now creates a payment request.
  const created = await t.http
    .post('/api/v1/payment-request')
    .set('Authorization', org.production.secretKey)
    .send({ transactionId: 'went-live-1', amount: 1500, phoneNumber: '22123456' });
  expect(created.status).toBe(200);

  // The console in Arabic (right to left) and French.
  for (const [lang, dir] of [
    ['ar', 'rtl'],
    ['fr', 'ltr'],
  ]) {
    for (const [path, name] of [
      ['/admin', 'queue'],
      [`/admin/organizations/${org.organizationId}`, 'organization'],
      [`/admin/audit?organization=${org.organizationId}`, 'audit'],
      ['/admin/organizations', 'organizations'],
      ['/admin/gimtel-apps', 'gimtel-apps'],
    ]) {
      await ops.goto(`${base}${path}${path.includes('?') ? '&' : '?'}lang=${lang}`);
      expect({
        path,
        lang: await ops.getAttribute('html', 'lang'),
        dir: await ops.getAttribute('html', 'dir'),
      }).toEqual({ path, lang, dir });
      await check(ops, `admin-${lang}-${name}`);
    }
  }
  await ownerContext.close();
  await opsContext.close();
});

it('changes the payout account of a verified organization: the owner asks, an operator approves in the console', async () => {
  const org = await newTenant(t, 'Boutique Kiffa');
  await approvedAccount(t, org.organizationId, 'MR1700020001010000123450279');
  const operator = await newOperator(t);
  const context = await b.browser.newContext({ locale: 'en-GB', viewport: { width: 1280, height: 900 } });

  const owner = await context.newPage();
  await owner.goto(`${base}/dashboard/login`);
  await owner.fill('#email', org.email);
  await owner.fill('#password', org.password);
  await Promise.all([owner.waitForURL(`${base}/dashboard`), owner.click('button[type=submit]')]);
  await owner.goto(`${base}/dashboard/go-live`);
  await owner.selectOption('#payoutBank', 'BMCI');
  await owner.fill('#payoutHolder', 'Boutique Kiffa SARL');
  await owner.fill('#payoutIban', 'MR13 0002 0001 0100 0012 3456 753');
  await Promise.all([
    owner.waitForURL(/notice=change-requested/),
    owner.click('[data-testid=request-payout-change]'),
  ]);
  expect(await owner.getAttribute('[data-testid=payout-change-request]', 'data-status')).toBe('pending');
  await check(owner, 'go-live-payout-change');

  const opsContext = await b.browser.newContext({ locale: 'en-GB', viewport: { width: 1280, height: 900 } });
  const ops = await opsContext.newPage();
  await ops.goto(`${base}/admin/login`);
  await ops.fill('#email', operator.email);
  await ops.fill('#password', operator.password);
  await ops.fill('#code', operator.code());
  await Promise.all([ops.waitForURL(`${base}/admin/password`), ops.click('[data-testid=sign-in]')]);
  await ops.fill('#currentPassword', operator.password);
  await ops.fill('#newPassword', 'a password of my own');
  await ops.fill('#confirmPassword', 'a password of my own');
  await Promise.all([
    ops.waitForURL(/\/admin\?notice=passwordChanged/),
    ops.click('[data-testid=change-password]'),
  ]);
  const row = ops.locator(`[data-testid=change-queued][data-id="${org.organizationId}"]`);
  await Promise.all([ops.waitForURL(/\/admin\/organizations\//), row.locator('a').click()]);
  expect(await ops.textContent('[data-testid=change-iban]')).toBe('MR1300020001010000123456753');
  await check(ops, 'admin-payout-change');
  await Promise.all([
    ops.waitForURL(/notice=payoutAccountChangeApproved/),
    ops.click('[data-testid=approve-payout-change]'),
  ]);
  expect(await ops.locator('[data-testid=payout-account-change]').count()).toBe(0);

  const record = await t.http
    .get('/api/v1/organization')
    .set('Authorization', org.sandbox.secretKey)
    .expect(200);
  expect(record.body.data.payoutAccount).toEqual({
    bank: 'BMCI',
    holderName: 'Boutique Kiffa SARL',
    ibanLast4: '6753',
    status: 'approved',
  });
  await owner.goto(`${base}/dashboard/go-live`);
  expect(await owner.locator('[data-testid=payout-change-request]').count()).toBe(0);
  await context.close();
  await opsContext.close();
});
