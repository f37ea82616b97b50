import { newTenant, startTestApp, TestApp } from '../helpers/app';
import { DASHBOARD_ENV, DashboardBrowser, signedInOwner, unescapeHtml } from '../helpers/dashboard';
import { paidRequest, parseCsv } from '../helpers/money';
import { createLink } from '../helpers/payment-links';
import { approvedAccount, earn, postPayout } from '../helpers/payouts';

/*
 * The dashboard's lists as CSV (docs/dashboard.md "Lists as CSV"): every list that the API answers
 * as CSV has its button, whose file is the API's, for the environment shown and its records only.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ ...DASHBOARD_ENV, PAYOUT_DELAY_DAYS: '0' });
});
afterAll(() => t.close());

const hrefOf = (html: string) =>
  unescapeHtml(/<a href="([^"]+)" download data-testid="download-csv">/.exec(html)?.[1] ?? '');

async function download(browser: DashboardBrowser, page: string) {
  const href = hrefOf((await browser.get(page)).text);
  expect({ page, href }).toEqual({ page, href: expect.stringMatching(/\.csv(\?|$)/) });
  const res = await browser.agent
    .get(href)
    .set('x-forwarded-for', browser.ip)
    .buffer(true)
    .parse((r, done) => {
      let text = '';
      r.on('data', (c: Buffer) => (text += c.toString()));
      r.on('end', () => done(null, text));
    });
  expect(res.status).toBe(200);
  expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
  expect(res.headers['content-disposition']).toMatch(/^attachment; filename="[a-z-]+\.csv"$/);
  return { href, rows: parseCsv(res.body as string) };
}

it('offers a CSV button on each list the API exports, with the API’s file, payments naming their bank app', async () => {
  const { org, browser } = await signedInOwner(t, 'Export Merchant');
  await approvedAccount(t, org.organizationId);
  const key = org.sandbox.secretKey;
  const paid = await paidRequest(t, key, 2500);
  const failed = await paidRequest(t, key, 700, '22229001');
  const other = await newTenant(t);
  await paidRequest(t, other.sandbox.secretKey, 900);

  const payments = await download(browser, '/dashboard/payments');
  expect(payments.rows[0]).toContain('paymentMethod');
  const method = payments.rows[0].indexOf('paymentMethod');
  expect(payments.rows.slice(1).map((r) => [r[2], r[method]])).toEqual([
    [failed.transactionId, 'Masrivi'],
    [paid.transactionId, 'Masrivi'],
  ]);
  expect(payments.rows[0]).not.toContain('configurationId');
  // The list's status filter goes with the button.
  const completed = await download(browser, '/dashboard/payments?status=completed');
  expect(completed.href).toBe('/dashboard/payments.csv?status=completed');
  expect(completed.rows.slice(1).map((r) => r[2])).toEqual([paid.transactionId]);

  const requests = await download(browser, '/dashboard/payment-requests');
  const transactionId = requests.rows[0].indexOf('transactionId');
  const requested = requests.rows.slice(1).map((r) => r[transactionId]);
  expect(requested.sort()).toEqual([paid.transactionId, failed.transactionId].sort());

  await earn(t, key, 1000);
  const payout = (await postPayout(t, key).expect(200)).body.data;
  const payouts = await download(browser, '/dashboard/payouts');
  expect(payouts.rows.slice(1).map((r) => r[0])).toEqual([payout.id]);
  const paidOut = await download(browser, `/dashboard/payouts/${payout.id}`);
  const type = paidOut.rows[0].indexOf('type');
  expect(
    paidOut.rows
      .slice(1)
      .map((r) => r[type])
      .sort(),
  ).toEqual(['payment', 'payment', 'payout']);

  const invoices = await download(browser, '/dashboard/invoices');
  expect(invoices.rows).toHaveLength(1);

  const link = await createLink(t, key);
  const linkRequests = await download(browser, `/dashboard/payment-links/${link.id}`);
  expect(linkRequests.href).toBe(`/dashboard/payment-links/${link.id}/requests.csv`);
  expect(linkRequests.rows).toHaveLength(1);

  // Another organization's payout is not found.
  const otherPayout = await browser.get(
    `/dashboard/payouts/${'0'.repeat(8)}-0000-7000-8000-${'0'.repeat(12)}/transactions.csv`,
  );
  expect(otherPayout.status).toBe(404);
});
