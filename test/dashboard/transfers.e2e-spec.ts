import { DASHBOARD_TEXTS } from '../../src/common/i18n/dashboard-texts';
import { startTestApp, TestApp } from '../helpers/app';
import { DASHBOARD_ENV, invitedMember, signedInOwner, unescapeHtml } from '../helpers/dashboard';
import { txId } from '../helpers/checkout';

/*
 * The transfers inbox and the transfer method's form over HTTP (the browser spec drives them in
 * Chromium): tenancy (another organization's transfer is the 404 page, by every route, and
 * nothing changes), a viewer cannot act, the API's refusals in the page's language, and the CSV.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp(DASHBOARD_ENV);
});
afterAll(() => t.close());

async function inject(sk: string, body: Record<string, unknown>): Promise<{ id: string; status: string }> {
  const res = await t.http.post('/api/v1/sandbox/transfers').set('Authorization', sk).send(body);
  expect(res.status).toBe(200);
  return res.body.data;
}

const transferStatus = async (id: string) =>
  (await t.query<{ status: string }>('SELECT status FROM transfers WHERE id = $1', [id]))[0].status;

async function merchantWithTransfer(name: string) {
  const { org, browser } = await signedInOwner(t, name);
  const sk = org.sandbox.secretKey;
  await t.http
    .put('/api/v1/configuration/gimtel')
    .set('Authorization', sk)
    .send({ enabled: true })
    .expect(200);
  const transfer = await inject(sk, { payerPhone: '36111111', amount: 1200, payerApp: 'sedad' });
  return { org, browser, sk, transfer };
}

it("never shows nor changes another organization's transfer: the 404 page by every route", async () => {
  const victim = await merchantWithTransfer('Victim Merchant');
  const attacker = await merchantWithTransfer('Attacker Merchant');
  const victimRequest = txId('victim');
  await t.http
    .post('/api/v1/payment-request')
    .set('Authorization', victim.sk)
    .send({ transactionId: victimRequest, amount: 1200 })
    .expect(200);
  const [request] = await t.query<{ id: string }>(
    'SELECT id FROM payment_requests WHERE transaction_id = $1',
    [victimRequest],
  );

  const page = await attacker.browser.get(`/dashboard/transfers/${victim.transfer.id}`);
  expect(page.status).toBe(404);
  expect(page.text).not.toContain('36111111');
  await attacker.browser.get('/dashboard/transfers');
  for (const path of ['assign', 'return']) {
    const res = await attacker.browser.post(`/dashboard/transfers/${victim.transfer.id}/${path}`, {
      paymentRequestId: request.id,
    });
    expect({ path, status: res.status }).toEqual({ path, status: 404 });
  }
  expect(await transferStatus(victim.transfer.id)).toBe('unmatched');
  // Its own transfer cannot pay the victim's request either.
  await attacker.browser.get(`/dashboard/transfers/${attacker.transfer.id}`);
  const cross = await attacker.browser.post(`/dashboard/transfers/${attacker.transfer.id}/assign`, {
    paymentRequestId: request.id,
  });
  expect(cross.status).toBe(404);
  expect(await transferStatus(attacker.transfer.id)).toBe('unmatched');
  // The lists and the CSV show only the organization's own.
  const list = await attacker.browser.get('/dashboard/transfers');
  expect(list.text).toContain(attacker.transfer.id);
  expect(list.text).not.toContain(victim.transfer.id);
  const csv = await attacker.browser.get('/dashboard/transfers.csv');
  expect(csv.status).toBe(200);
  expect(csv.text).toContain(attacker.transfer.id);
  expect(csv.text).not.toContain(victim.transfer.id);
});

it('refuses in the page language: an amount that does not match, a transfer no longer unmatched', async () => {
  const { browser: fr, sk, transfer } = await merchantWithTransfer('Épicerie Sebkha');
  const other = txId('other-amount');
  await t.http
    .post('/api/v1/payment-request')
    .set('Authorization', sk)
    .send({ transactionId: other, amount: 999 })
    .expect(200);
  const [request] = await t.query<{ id: string }>(
    'SELECT id FROM payment_requests WHERE transaction_id = $1',
    [other],
  );
  // ?lang=fr is remembered (the language cookie): every page after it is in French.
  await fr.get(`/dashboard/transfers/${transfer.id}?lang=fr`);
  const refused = await fr.post(`/dashboard/transfers/${transfer.id}/assign`, {
    paymentRequestId: request.id,
  });
  expect(refused.status).toBe(400);
  expect(unescapeHtml(refused.text)).toContain(DASHBOARD_TEXTS.fr.apiRules.transfer_amount_mismatch);
  expect(await transferStatus(transfer.id)).toBe('unmatched');

  const returned = await fr.post(`/dashboard/transfers/${transfer.id}/return`, {});
  expect(returned.status).toBe(303);
  await fr.get(`/dashboard/transfers/${transfer.id}`);
  const again = await fr.post(`/dashboard/transfers/${transfer.id}/return`, {});
  expect(again.status).toBe(409);
  expect(unescapeHtml(again.text)).toContain(DASHBOARD_TEXTS.fr.apiRules.transfer_not_unmatched);
});

it('lets a viewer read the inbox but neither assign, return nor change the transfer method', async () => {
  const { browser: owner, transfer } = await merchantWithTransfer('Viewer Shop');
  const viewer = await invitedMember(t, owner, 'viewer');
  const page = await viewer.browser.get(`/dashboard/transfers/${transfer.id}`);
  expect(page.status).toBe(200);
  expect(page.text).not.toContain('data-testid="return"');
  for (const [path, form] of [
    [`/dashboard/transfers/${transfer.id}/return`, {}],
    ['/dashboard/payment-methods/gimtel', { enabled: 'true' }],
  ] as const) {
    const res = await viewer.browser.post(path, form);
    expect({ path, status: res.status }).toEqual({ path, status: 403 });
  }
  expect(await transferStatus(transfer.id)).toBe('unmatched');
});
