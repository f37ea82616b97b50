import type { Page } from 'playwright-core';
import { OperatorActionsService } from '../../src/admin/operator-actions.service';
import { CLI_ACTOR } from '../../src/admin/audit-log.repository';
import { OrganizationsRepository } from '../../src/organizations/organizations.repository';
import { newTenant, startTestApp, TestApp } from '../helpers/app';
import { launchBrowser, TestBrowser } from '../helpers/browser';
import { DASHBOARD_ENV } from '../helpers/dashboard';

/*
 * Latin values on Arabic pages keep their own order (docs/dashboard.md "Languages"): read from
 * where Chromium draws them, not from the HTML. Each value is isolated (`<bdi>`, `dir="auto"` or
 * a whole placeholder), so a right-to-left sentence places them right to left and none is reordered
 * inside: the payout account's bank, holder and IBAN digits on go-live, an operator's French reason
 * with its full stop at its end, the hour of the payout schedule as `08:00`.
 */
jest.setTimeout(120_000);

let t: TestApp;
let b: TestBrowser;
let base: string;
beforeAll(async () => {
  t = await startTestApp({ ...DASHBOARD_ENV, PAYOUT_HOUR_UTC: '8' });
  const { port } = t.app.getHttpServer().address() as { port: number };
  base = `http://127.0.0.1:${port}`;
  b = await launchBrowser();
});
afterAll(async () => {
  await b?.close();
  await t?.close();
});

/** Where the browser draws each substring inside `selector` (the left edge of its first box). */
function leftOf(page: Page, selector: string, parts: string[]): Promise<number[]> {
  return page.evaluate(`(() => {
    const root = document.querySelector(${JSON.stringify(selector)});
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    const nodes = [];
    for (let n = walker.nextNode(); n; n = walker.nextNode()) nodes.push(n);
    return ${JSON.stringify(parts)}.map((part) => {
      for (const node of nodes) {
        const at = (node.textContent || '').indexOf(part);
        if (at < 0) continue;
        const range = document.createRange();
        range.setStart(node, at);
        range.setEnd(node, at + part.length);
        return range.getBoundingClientRect().left;
      }
      throw new Error('not found: ' + part);
    });
  })()`);
}

async function signedIn(email: string, password: string): Promise<Page> {
  const context = await b.browser.newContext({ locale: 'ar', viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await page.goto(`${base}/dashboard/login?lang=ar`);
  await page.fill('#email', email);
  await page.fill('#password', password);
  await Promise.all([page.waitForURL(`${base}/dashboard`), page.click('button[type=submit]')]);
  return page;
}

it('draws the payout account line right to left, each value left to right inside', async () => {
  const org = await newTenant(t, 'Atar Commerce');
  await t.app.get(OrganizationsRepository).savePayoutAccount(org.organizationId, {
    bank: 'BMCI',
    holderName: 'Atar Commerce SARL',
    iban: 'MR1300020001010000123456753',
    status: 'approved',
  });
  const page = await signedIn(org.email, org.password);
  await page.goto(`${base}/dashboard/go-live?lang=ar`);
  expect(await page.getAttribute('html', 'dir')).toBe('rtl');
  const [bank, holder, digits] = await leftOf(page, '[data-testid=payout-account]', ['BMCI', 'Atar', '6753']);
  // In the sentence's order, right to left: the bank first (rightmost), then the holder, then the IBAN.
  expect(bank).toBeGreaterThan(holder);
  expect(holder).toBeGreaterThan(digits);
  // Inside the holder's name, its own order: left to right.
  const [atar, sarl] = await leftOf(page, '[data-testid=payout-account]', ['Atar', 'SARL']);
  expect(sarl).toBeGreaterThan(atar);

  // The payout schedule's hour, whole: 08:00, never 00:8.
  await page.goto(`${base}/dashboard/payouts?lang=ar`);
  const [hour, minutes] = await leftOf(page, '[data-testid=schedule-help]', ['08', ':00']);
  expect(minutes).toBeGreaterThan(hour);
  await page.context().close();
});

it("keeps an operator's French reason in its own order, its full stop at its end", async () => {
  const org = await newTenant(t, 'Boutique Kaédi', { verification: 'unverified' });
  await t.app.get(OrganizationsRepository).setVerification(org.organizationId, 'submitted', null);
  await t.app
    .get(OperatorActionsService)
    .reject(CLI_ACTOR, org.organizationId, "L'extrait du RCCM est illisible.");
  const page = await signedIn(org.email, org.password);
  await page.goto(`${base}/dashboard/go-live?lang=ar`);
  const [first, last, stop] = await leftOf(page, '[data-testid=rejection-reason]', [
    "L'extrait",
    'illisible',
    '.',
  ]);
  expect(last).toBeGreaterThan(first);
  expect(stop).toBeGreaterThan(last);
  await page.context().close();
});
