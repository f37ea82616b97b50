import { TestClockAdvance } from '../../src/billing/test-clock-advance';
import { Messages } from '../../src/common/errors/messages';
import { DASHBOARD_TEXTS } from '../../src/common/i18n/dashboard-texts';
import type { CreatedOrganization } from '../../src/organizations/organizations.service';
import { TEST_CLOCK_NAME_MAX } from '../../src/test-clocks/dto/test-clock.dto';
import { newTenant, startTestApp, TestApp } from '../helpers/app';
import { createPrice, createProduct, invoicesOf, uniqueId } from '../helpers/billing';
import {
  DASHBOARD_ENV,
  DashboardBrowser,
  invitedMember,
  signedInOwner,
  unescapeHtml,
} from '../helpers/dashboard';

/*
 * The dashboard's Sandbox test clocks (docs/billing.md "Testing with test clocks", docs/dashboard.md):
 * list and create; a clock's page with its status, time and customers; advance with the API's rules
 * and words (in the page's language), the advance billing the clock's subscriptions; delete; a
 * customer created on a clock, and its page linking to it. Production has no test clocks (no menu
 * entry, the 404 page); another organization's clock is not found; viewers read only. The advance
 * job is off in this app: a test does its work itself, as the API's tests do.
 */
jest.setTimeout(120_000);

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp(DASHBOARD_ENV);
});
afterAll(() => t.close());

const en = DASHBOARD_TEXTS.en;
const fr = DASHBOARD_TEXTS.fr;
const advanceWork = () => t.app.get(TestClockAdvance).run();
const clockIdOf = (location: string) =>
  /\/dashboard\/test-clocks\/([0-9a-f-]{36})\?notice=testClockCreated$/.exec(location)![1];
/** The texts of the page's form errors. */
const errorsOf = (html: string) =>
  [...html.matchAll(/<p class="error" id="[^"]+" data-testid="error"[^>]*>([^<]*)</g)].map((m) =>
    unescapeHtml(m[1]),
  );
const statusOf = (html: string) => /data-testid="clock-status" data-status="(\w+)"/.exec(html)?.[1];

async function apiClock(org: CreatedOrganization, id: string) {
  return t.http.get(`/api/v1/test-clocks/${id}`).set('Authorization', org.sandbox.secretKey);
}

/** A clock created through the dashboard's form; its id. */
async function createClock(browser: DashboardBrowser, frozenTime: string, name = ''): Promise<string> {
  await browser.get('/dashboard/test-clocks');
  const res = await browser.post('/dashboard/test-clocks', { name, frozenTime });
  expect(res.status).toBe(303);
  return clockIdOf(res.headers.location);
}

/** A customer created on the clock through the dashboard's form; its id. */
async function customerOnClock(
  browser: DashboardBrowser,
  clockId: string,
  externalUserId = uniqueId('user'),
) {
  await browser.get('/dashboard/customers');
  const res = await browser.post('/dashboard/customers', {
    externalUserId,
    phone: '22123456',
    testClockId: clockId,
  });
  expect(res.status).toBe(303);
  return /\/dashboard\/customers\/([0-9a-f-]{36})\?/.exec(res.headers.location)![1];
}

describe('test clocks in Sandbox', () => {
  it('lists none, creates one from the form (name, start time in UTC) and lists it with its time and status', async () => {
    const { org, browser } = await signedInOwner(t, 'Horloges Atar');
    const home = await browser.get('/dashboard');
    expect(home.text).toContain(`href="/dashboard/test-clocks">${en.navTestClocks}<`);
    const empty = await browser.get('/dashboard/test-clocks');
    expect(empty.status).toBe(200);
    expect(empty.text).toContain('data-testid="no-results"');
    // The name stops where the API's does; the start time is a native date and time picker.
    expect(empty.text).toMatch(new RegExp(`name="name"[^>]* maxlength="${TEST_CLOCK_NAME_MAX}"`));
    expect(empty.text).toMatch(/name="frozenTime" type="datetime-local"/);

    const id = await createClock(browser, '2025-01-31T10:00', 'Renouvellements');
    const api = await apiClock(org, id);
    expect(api.body.data).toMatchObject({
      name: 'Renouvellements',
      frozenTime: '2025-01-31T10:00:00.000Z',
      status: 'ready',
      environmentId: org.sandbox.environmentId,
    });
    const page = await browser.get(`/dashboard/test-clocks/${id}?notice=testClockCreated`);
    expect(page.status).toBe(200);
    expect(page.text).toContain(en.notices.testClockCreated);
    expect(statusOf(page.text)).toBe('ready');
    expect(page.text).toContain('data-testid="clock-time">31 Jan 2025, 10:00:00<');
    expect(page.text).toContain('data-testid="no-clock-customers"');
    // The advance form offers a month on, between the API's bounds (later, at most two years on).
    expect(page.text).toMatch(
      /id="advance-to" name="frozenTime" type="datetime-local" value="2025-02-28T10:00" min="2025-01-31T10:01" max="2027-01-31T10:00"/,
    );
    const list = await browser.get('/dashboard/test-clocks');
    expect(list.text).toContain(`data-id="${id}"`);
    expect(list.text).toContain('Renouvellements');
    expect(list.text).toContain('data-testid="clock-status" data-status="ready"');
  });

  it('refuses a start time that is not a date and time, and a name longer than the API takes, on their fields', async () => {
    const { org, browser } = await signedInOwner(t);
    await browser.get('/dashboard/test-clocks');
    for (const frozenTime of ['', 'tomorrow', '2025-02-30T10:00']) {
      const res = await browser.post('/dashboard/test-clocks', { name: 'x', frozenTime });
      expect(res.status).toBe(400);
      expect(errorsOf(res.text)).toEqual([en.invalidTestClockTime]);
      expect(res.text).toContain('aria-invalid="true"');
    }
    const long = await browser.post('/dashboard/test-clocks', {
      name: 'n'.repeat(TEST_CLOCK_NAME_MAX + 1),
      frozenTime: '2025-01-01T00:00',
    });
    expect(long.status).toBe(400);
    expect(errorsOf(long.text)).toEqual([en.testClockNameTooLong]);
    const none = await t.http.get('/api/v1/test-clocks').set('Authorization', org.sandbox.secretKey);
    expect(none.body.data).toEqual([]);
  });

  it('creates a customer on a clock (none by default); the customer links to the clock, the clock lists the customer', async () => {
    const { org, browser } = await signedInOwner(t);
    const id = await createClock(browser, '2025-03-01T08:30', 'Essai');
    const form = await browser.get('/dashboard/customers');
    // A select of the environment's clocks, none chosen.
    expect(form.text).toMatch(/<select id="customer-clock" name="testClockId"/);
    expect(form.text).toContain(`<option value="">${en.testClockNone}</option>`);
    expect(form.text).toContain(`<option value="${id}">Essai · 1 Mar 2025, 08:30:00</option>`);

    const onClock = await customerOnClock(browser, id, 'client-horloge');
    const plain = await browser.post('/dashboard/customers', { externalUserId: 'client-reel', phone: '' });
    expect(plain.status).toBe(303);
    const customers = (
      await t.http.get('/api/v1/customers?limit=100').set('Authorization', org.sandbox.secretKey)
    ).body.data as { externalUserId: string; testClockId: string | null }[];
    expect(customers.map((c) => [c.externalUserId, c.testClockId]).sort()).toEqual([
      ['client-horloge', id],
      ['client-reel', null],
    ]);

    const customer = await browser.get(`/dashboard/customers/${onClock}`);
    expect(customer.text).toMatch(
      new RegExp(`data-testid="customer-clock"><a href="/dashboard/test-clocks/${id}" dir="auto">Essai</a>`),
    );
    const clock = await browser.get(`/dashboard/test-clocks/${id}`);
    expect(clock.text).toContain(`data-testid="clock-customer" data-id="${onClock}"`);
    expect(clock.text).toContain(`href="/dashboard/customers/${onClock}"`);
    expect(clock.text).not.toContain('client-reel');
  });

  it("refuses another organization's clock, and an id that is no clock, on the customer's clock field", async () => {
    const { browser } = await signedInOwner(t);
    const other = await signedInOwner(t);
    const theirs = await createClock(other.browser, '2025-01-01T00:00');
    await browser.get('/dashboard/customers');
    const res = await browser.post('/dashboard/customers', {
      externalUserId: uniqueId('u'),
      testClockId: theirs,
    });
    expect(res.status).toBe(200);
    expect(errorsOf(res.text)).toEqual([en.apiRules.test_clock_not_found]);
    const bad = await browser.post('/dashboard/customers', {
      externalUserId: uniqueId('u'),
      testClockId: 'x',
    });
    expect(errorsOf(bad.text)).toEqual([en.chooseTestClock]);
  });

  it("advances with the API's rules and words, says it is advancing, then bills the clock's subscription as of each month", async () => {
    const { org, browser } = await signedInOwner(t);
    const id = await createClock(browser, '2025-01-31T10:00');
    const customerId = await customerOnClock(browser, id);
    const product = await createProduct(t, org.sandbox.secretKey);
    const price = await createPrice(t, org.sandbox.secretKey, product.id);
    const sub = await t.http
      .post('/api/v1/subscriptions')
      .set('Authorization', org.sandbox.secretKey)
      .send({ customerId, priceId: price.id });
    expect(sub.status).toBe(200);
    expect(await invoicesOf(t, org.sandbox.secretKey, sub.body.data.id)).toHaveLength(1);

    await browser.get(`/dashboard/test-clocks/${id}`);
    const advance = (frozenTime: string) =>
      browser.post(`/dashboard/test-clocks/${id}/advance`, { frozenTime });
    // Not a date; not forward; more than two years: the API's own rule, in the page's words.
    const notADate = await advance('soon');
    expect(notADate.status).toBe(400);
    expect(errorsOf(notADate.text)).toEqual([en.invalidTestClockTime]);
    for (const frozenTime of ['2025-01-31T10:00', '2025-01-01T00:00', '2027-01-31T10:01']) {
      const res = await advance(frozenTime);
      expect(res.status).toBe(400);
      expect(errorsOf(res.text)).toEqual([`${Messages.testClockForwardOnly}.`]);
      expect(res.text).toContain(`value="${frozenTime}"`);
    }
    expect((await apiClock(org, id)).body.data.status).toBe('ready');

    const ok = await advance('2025-04-30T10:00');
    expect(ok.status).toBe(303);
    expect(ok.headers.location).toBe(`/dashboard/test-clocks/${id}?notice=testClockAdvancing`);
    expect((await apiClock(org, id)).body.data).toMatchObject({
      status: 'advancing',
      frozenTime: '2025-04-30T10:00:00.000Z',
    });
    // While advancing the page says so, with a link to reload, and offers no advance.
    const advancing = await browser.get(`/dashboard/test-clocks/${id}`);
    expect(statusOf(advancing.text)).toBe('advancing');
    expect(advancing.text).toContain('data-testid="clock-advancing"');
    expect(advancing.text).toContain(`href="/dashboard/test-clocks/${id}" data-testid="reload"`);
    expect(advancing.text).toContain('data-testid="clock-advanced-to">31 Jan 2025, 10:00:00<');
    expect(advancing.text).not.toContain('data-testid="advance-clock"');
    // A second advance meanwhile: the API's 409, in the form.
    const again = await advance('2025-05-31T10:00');
    expect(again.status).toBe(409);
    expect(errorsOf(again.text)).toEqual([`${Messages.testClockAdvancing}.`]);

    await advanceWork();
    const ready = await browser.get(`/dashboard/test-clocks/${id}`);
    expect(statusOf(ready.text)).toBe('ready');
    expect(ready.text).not.toContain('data-testid="clock-advancing"');
    expect(ready.text).toContain('data-testid="clock-time">30 Apr 2025, 10:00:00<');
    const periods = (await invoicesOf(t, org.sandbox.secretKey, sub.body.data.id))
      .map((i) => i.periodStart)
      .sort();
    expect(periods).toEqual([
      '2025-01-31T10:00:00.000Z',
      '2025-02-28T10:00:00.000Z',
      '2025-03-31T10:00:00.000Z',
      '2025-04-30T10:00:00.000Z',
    ]);
  });

  it("words the advance's refusals in the page's language", async () => {
    const org = await newTenant(t);
    const browser = new DashboardBrowser(t, undefined, 'fr');
    await browser.signIn(org.email, org.password);
    const id = await createClock(browser, '2025-06-01T00:00');
    await browser.get(`/dashboard/test-clocks/${id}`);
    const res = await browser.post(`/dashboard/test-clocks/${id}/advance`, {
      frozenTime: '2024-06-01T00:00',
    });
    expect(res.status).toBe(400);
    expect(errorsOf(res.text)).toEqual([fr.apiRules.test_clock_forward_only]);
  });

  it('deletes the clock with its customers, back to the list', async () => {
    const { org, browser } = await signedInOwner(t);
    const id = await createClock(browser, '2025-01-01T00:00', 'À jeter');
    const customerId = await customerOnClock(browser, id);
    const page = await browser.get(`/dashboard/test-clocks/${id}`);
    expect(page.text).toContain(`data-confirm="${en.confirmDeleteTestClock}"`);
    const res = await browser.post(`/dashboard/test-clocks/${id}/delete`);
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe('/dashboard/test-clocks?notice=testClockDeleted');
    expect((await apiClock(org, id)).status).toBe(404);
    expect(
      (await t.http.get(`/api/v1/customers/${customerId}`).set('Authorization', org.sandbox.secretKey))
        .status,
    ).toBe(404);
    const list = await browser.get('/dashboard/test-clocks?notice=testClockDeleted');
    expect(list.text).toContain(en.notices.testClockDeleted);
    expect(list.text).not.toContain(id);
    expect((await browser.get(`/dashboard/test-clocks/${id}`)).status).toBe(404);
  });
});

describe('who sees which clock', () => {
  it("answers 404 for another organization's clock and for an id that is no clock, to every route", async () => {
    const { browser: owner } = await signedInOwner(t);
    const id = await createClock(owner, '2025-01-01T00:00');
    const { org: intruderOrg, browser: intruder } = await signedInOwner(t);
    await intruder.get('/dashboard/test-clocks');
    expect((await intruder.get(`/dashboard/test-clocks/${id}`)).status).toBe(404);
    expect(
      (await intruder.post(`/dashboard/test-clocks/${id}/advance`, { frozenTime: '2025-02-01T00:00' }))
        .status,
    ).toBe(404);
    expect((await intruder.post(`/dashboard/test-clocks/${id}/delete`)).status).toBe(404);
    expect((await intruder.get('/dashboard/test-clocks/not-a-uuid')).status).toBe(404);
    // Untouched.
    const still = await t.http.get('/api/v1/test-clocks').set('Authorization', intruderOrg.sandbox.secretKey);
    expect(still.body.data).toEqual([]);
    expect(statusOf((await owner.get(`/dashboard/test-clocks/${id}`)).text)).toBe('ready');
  });

  it('has no test clocks in Production: no menu entry, the 404 page saying so, no clock to pick for a customer', async () => {
    const { org, browser } = await signedInOwner(t);
    const id = await createClock(browser, '2025-01-01T00:00', 'Sandbox seulement');
    const customerId = await customerOnClock(browser, id);
    // Switching from a test clock's page goes to Production's home, not to a page it has not.
    const switched = await browser.post('/dashboard/environment', {
      environment: 'production',
      return: `/dashboard/test-clocks/${id}`,
    });
    expect(switched.headers.location).toBe('/dashboard');
    const home = await browser.get('/dashboard');
    expect(home.text).not.toContain('href="/dashboard/test-clocks"');
    for (const path of ['/dashboard/test-clocks', `/dashboard/test-clocks/${id}`]) {
      const res = await browser.get(path);
      expect(res.status).toBe(404);
      expect(res.text).toContain(`data-testid="error-title">${en.testClocksSandboxOnlyTitle}<`);
    }
    for (const [path, form] of [
      ['/dashboard/test-clocks', { frozenTime: '2025-01-01T00:00' }],
      [`/dashboard/test-clocks/${id}/advance`, { frozenTime: '2025-02-01T00:00' }],
      [`/dashboard/test-clocks/${id}/delete`, {}],
    ] as const)
      expect((await browser.post(path, form)).status).toBe(404);
    expect((await apiClock(org, id)).body.data).toMatchObject({
      status: 'ready',
      frozenTime: '2025-01-01T00:00:00.000Z',
    });
    const customers = await browser.get('/dashboard/customers');
    expect(customers.text).not.toContain('name="testClockId"');
    // A clock posted anyway: the API's rule, on the field.
    const posted = await browser.post('/dashboard/customers', {
      externalUserId: uniqueId('u'),
      testClockId: id,
    });
    expect(errorsOf(posted.text)).toEqual([en.apiRules.test_clocks_sandbox_only]);
    // The customer (the organization's, in both) names its Sandbox clock, with no link.
    const customer = await browser.get(`/dashboard/customers/${customerId}`);
    expect(customer.text).toMatch(/data-testid="customer-clock"><span dir="auto">Sandbox seulement<\/span>/);
    expect(customer.text).not.toContain(`href="/dashboard/test-clocks/${id}"`);
    // And back in Sandbox, the same section.
    const back = await browser.post('/dashboard/environment', {
      environment: 'sandbox',
      return: '/dashboard/test-clocks',
    });
    expect(back.headers.location).toBe('/dashboard/test-clocks');
  });

  it('lets viewers read clocks without forms, refuses their changes and any form without its CSRF token (403); developers create', async () => {
    const { org, browser } = await signedInOwner(t);
    const id = await createClock(browser, '2025-01-01T00:00');
    expect(
      (await browser.post('/dashboard/test-clocks', { frozenTime: '2025-01-01T00:00', _csrf: null })).status,
    ).toBe(403);
    expect(
      (
        await browser.post(`/dashboard/test-clocks/${id}/advance`, {
          frozenTime: '2025-02-01T00:00',
          _csrf: null,
        })
      ).status,
    ).toBe(403);
    expect((await browser.post(`/dashboard/test-clocks/${id}/delete`, { _csrf: null })).status).toBe(403);

    const viewer = await invitedMember(t, browser, 'viewer');
    const list = await viewer.browser.get('/dashboard/test-clocks');
    expect(list.status).toBe(200);
    expect(list.text).toContain(`data-id="${id}"`);
    expect(list.text).not.toContain('data-testid="create-clock"');
    const page = await viewer.browser.get(`/dashboard/test-clocks/${id}`);
    expect(page.status).toBe(200);
    expect(page.text).not.toContain('data-testid="advance-clock"');
    expect(page.text).not.toContain('data-testid="delete-clock"');
    for (const [path, form] of [
      ['/dashboard/test-clocks', { frozenTime: '2025-01-01T00:00' }],
      [`/dashboard/test-clocks/${id}/advance`, { frozenTime: '2025-02-01T00:00' }],
      [`/dashboard/test-clocks/${id}/delete`, {}],
    ] as const)
      expect((await viewer.browser.post(path, form)).status).toBe(403);
    expect((await apiClock(org, id)).body.data).toMatchObject({
      status: 'ready',
      frozenTime: '2025-01-01T00:00:00.000Z',
    });

    const developer = await invitedMember(t, browser, 'developer');
    const created = await createClock(developer.browser, '2026-01-01T00:00', 'Développeur');
    expect((await apiClock(org, created)).body.data.name).toBe('Développeur');
  });
});
