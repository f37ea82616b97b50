import { DASHBOARD_TEXTS } from '../../src/common/i18n/dashboard-texts';
import { LINK_LIMITS } from '../../src/payment-links/dto/payment-link.dto';
import { startTestApp, TestApp } from '../helpers/app';
import {
  DASHBOARD_ENV,
  DashboardBrowser,
  invitedMember,
  signedInOwner,
  unescapeHtml,
} from '../helpers/dashboard';
import { masriviOf } from '../helpers/money';
import { createLink, startLinkPayment } from '../helpers/payment-links';

/*
 * The dashboard's payment links (docs/payment-links.md "In the dashboard"): create with the API's
 * rules, the list with WhatsApp sharing, a link's page (address, QR code downloads, payments),
 * edit, deactivate; viewers read only; another organization's or environment's link is not found.
 */

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp(DASHBOARD_ENV);
});
afterAll(() => t.close());

const en = DASHBOARD_TEXTS.en;
const linkIdOf = (location: string) =>
  /\/dashboard\/payment-links\/([0-9a-f-]{36})\?notice=/.exec(location)![1];

it('creates a fixed-amount link and shows its page: address, WhatsApp, QR code downloads, no payments yet', async () => {
  const { org, browser } = await signedInOwner(t, 'Épicerie Sebkha');
  await browser.get('/dashboard/payment-links');
  const res = await browser.post('/dashboard/payment-links', {
    name: 'Thiéboudienne',
    description: 'Pour 4',
    amount: '1500',
    maxPayments: '20',
    successMessage: 'Merci !',
    language: 'ar',
  });
  expect(res.status).toBe(303);
  const id = linkIdOf(res.headers.location);
  const link = (await t.http.get(`/api/v1/payment-links/${id}`).set('Authorization', org.sandbox.secretKey))
    .body.data;
  expect(link).toMatchObject({
    name: 'Thiéboudienne',
    description: 'Pour 4',
    amount: 1500,
    maxPayments: 20,
    successMessage: 'Merci !',
    language: 'ar',
  });
  const page = await browser.get(`/dashboard/payment-links/${id}`);
  const html = unescapeHtml(page.text);
  expect(html).toContain(`data-testid="link-url">${link.url}<`);
  expect(html).toContain('data-copy="link-url"');
  expect(html).toContain(`href="${link.whatsappUrl}"`);
  expect(html).toContain(`src="/l/${link.code}/qr.svg"`);
  expect(html).toContain(`href="/l/${link.code}/qr.svg" download`);
  expect(html).toContain(`href="/l/${link.code}/qr.png?size=1024" download`);
  expect(page.text).toContain('data-testid="no-results"');
  // In the list, with its share button.
  const list = unescapeHtml((await browser.get('/dashboard/payment-links')).text);
  expect(list).toContain(`data-id="${id}"`);
  expect(list).toContain(`href="${link.whatsappUrl}"`);
});

it('leaves the amount to the customer between limits; refuses what the API refuses, on the field', async () => {
  const { org, browser } = await signedInOwner(t);
  const page = await browser.get('/dashboard/payment-links');
  // The texts' fields stop where the API's link does.
  for (const [name, max] of [
    ['name', LINK_LIMITS.name],
    ['description', LINK_LIMITS.description],
    ['successMessage', LINK_LIMITS.successMessage],
  ] as const)
    expect(page.text).toMatch(new RegExp(`name="${name}"[^>]* maxlength="${max}"`));
  const bad = await browser.post('/dashboard/payment-links', {
    name: '',
    minAmount: '500',
    maxAmount: '100',
    maxPayments: '0',
    expiresAt: '2020-01-01T10:00',
  });
  expect(bad.status).toBe(400);
  for (const message of [en.linkNameRequired, en.linkMinAboveMax, en.invalidMaxPayments, en.invalidExpiresAt])
    expect(unescapeHtml(bad.text)).toContain(message);
  const ok = await browser.post('/dashboard/payment-links', {
    name: 'Don',
    minAmount: '100',
    maxAmount: '5000',
    expiresAt: '2099-06-01T12:30',
  });
  const id = linkIdOf(ok.headers.location);
  const link = (await t.http.get(`/api/v1/payment-links/${id}`).set('Authorization', org.sandbox.secretKey))
    .body.data;
  expect(link).toMatchObject({
    amount: null,
    minAmount: 100,
    maxAmount: 5000,
    expiresAt: '2099-06-01T12:30:00.000Z',
    language: 'en',
  });
});

it("edits and deactivates a link (its page then answers 410), lists the link's payments", async () => {
  const { org, browser } = await signedInOwner(t);
  const sk = org.sandbox.secretKey;
  const link = await createLink(t, sk, { amount: 800 });
  const sessionId = await startLinkPayment(t, link.code);
  await t.http
    .post(`/api/v1/checkout-session/public/${sessionId}/pay`)
    .send({ configurationId: await masriviOf(t, sk) })
    .expect(200);
  const page = await browser.get(`/dashboard/payment-links/${link.id}`);
  expect(page.text).toContain(`link_${link.code}_1`);
  expect(unescapeHtml(page.text)).toContain('data-testid="link-collected">800 MRU<');

  const edited = await browser.post(`/dashboard/payment-links/${link.id}`, {
    name: 'Nouveau nom',
    description: '',
    maxPayments: '5',
    expiresAt: '',
    successMessage: 'Bon appétit',
  });
  expect(edited.status).toBe(303);
  const after = (await t.http.get(`/api/v1/payment-links/${link.id}`).set('Authorization', sk)).body.data;
  expect(after).toMatchObject({
    name: 'Nouveau nom',
    maxPayments: 5,
    successMessage: 'Bon appétit',
    amount: 800,
  });

  await browser.get(`/dashboard/payment-links/${link.id}`);
  expect((await browser.post(`/dashboard/payment-links/${link.id}/active`, { active: 'false' })).status).toBe(
    303,
  );
  expect((await t.http.get(`/l/${link.code}`)).status).toBe(410);
  await browser.get(`/dashboard/payment-links/${link.id}`);
  await browser.post(`/dashboard/payment-links/${link.id}/active`, { active: 'true' });
  expect((await t.http.get(`/l/${link.code}`)).status).toBe(200);
});

it("refuses a form without its CSRF token (403) and a viewer's change (403)", async () => {
  const { org, browser } = await signedInOwner(t);
  const link = await createLink(t, org.sandbox.secretKey);
  await browser.get('/dashboard/payment-links');
  expect((await browser.post('/dashboard/payment-links', { name: 'x', _csrf: null })).status).toBe(403);
  const viewer = await invitedMember(t, browser, 'viewer');
  const page = await viewer.browser.get(`/dashboard/payment-links/${link.id}`);
  expect(page.status).toBe(200);
  expect(page.text).not.toContain('data-testid="deactivate-link"');
  expect(
    (await viewer.browser.post(`/dashboard/payment-links/${link.id}/active`, { active: 'false' })).status,
  ).toBe(403);
  expect(
    (await t.http.get(`/api/v1/payment-links/${link.id}`).set('Authorization', org.sandbox.secretKey)).body
      .data.active,
  ).toBe(true);
});

it("never shows another organization's or the other environment's link", async () => {
  const { org: victim } = await signedInOwner(t, 'Victim');
  const link = await createLink(t, victim.sandbox.secretKey);
  const { browser: intruder } = await signedInOwner(t, 'Intruder');
  expect((await intruder.get(`/dashboard/payment-links/${link.id}`)).status).toBe(404);
  expect(
    (await intruder.post(`/dashboard/payment-links/${link.id}/active`, { active: 'false' })).status,
  ).toBe(404);
  expect((await intruder.get('/dashboard/payment-links')).text).not.toContain(link.id);
  const owner = new DashboardBrowser(t);
  await owner.signIn(victim.email, victim.password);
  await owner.get('/dashboard');
  await owner.post('/dashboard/environment', { environment: 'production', return: '/dashboard' });
  expect((await owner.get(`/dashboard/payment-links/${link.id}`)).status).toBe(404);
  expect((await owner.get('/dashboard/payment-links')).text).not.toContain(link.id);
  expect(
    (await t.http.get(`/api/v1/payment-links/${link.id}`).set('Authorization', victim.sandbox.secretKey)).body
      .data.active,
  ).toBe(true);
});
