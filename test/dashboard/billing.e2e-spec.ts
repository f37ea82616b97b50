import { Client } from 'pg';
import { ReminderRun } from '../../src/billing/reminder-run';
import { DASHBOARD_TEXTS } from '../../src/common/i18n/dashboard-texts';
import { EXTERNAL_ID_MAX } from '../../src/common/validation/fields';
import type { CreatedOrganization } from '../../src/organizations/organizations.service';
import { PRODUCT_LIMITS } from '../../src/products/dto/product.dto';
import { startTestApp, TestApp } from '../helpers/app';
import { catalog, createCustomer, createSubscription, invoicesOf, timeTravel, DAY } from '../helpers/billing';
import { DASHBOARD_ENV, DashboardBrowser, relLink, signedInOwner, unescapeHtml } from '../helpers/dashboard';

/**
 * The billing pages of the dashboard (docs/dashboard.md "Billing"): products and prices, customers,
 * subscriptions and their actions, invoices with their pay links. Each action is checked in the
 * database and through the API, as a merchant's server would see it.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp(DASHBOARD_ENV);
});
afterAll(() => t.close());

const ids = (html: string, testid: string) =>
  [...html.matchAll(new RegExp(`data-testid="${testid}" data-id="([^"]+)"`, 'g'))].map((m) => m[1]);

const location = (res: { headers: Record<string, unknown> }) => String(res.headers.location);

async function productOf(org: CreatedOrganization, id: string) {
  return t.http.get(`/api/v1/products/${id}`).set('Authorization', org.sandbox.secretKey);
}

/** A sandbox subscription of a customer with a phone, billed at once: one pending invoice. */
async function subscribed(org: CreatedOrganization) {
  const c = await catalog(t, org);
  const subscription = await createSubscription(t, org.sandbox.secretKey, {
    customerId: c.customer.id,
    priceId: c.price.id,
  });
  const [invoice] = await invoicesOf(t, org.sandbox.secretKey, subscription.id);
  return { ...c, subscription, invoice };
}

describe('products and prices', () => {
  it('creates a product, edits it, adds a price, changes it in place, replaces it and archives it', async () => {
    const { org, browser } = await signedInOwner(t);
    await browser.get('/dashboard/products');
    const created = await browser.post('/dashboard/products', {
      name: 'Panier bio',
      description: 'Chaque semaine',
    });
    expect(created.status).toBe(303);
    const productPath = location(created).split('?')[0];
    const productId = productPath.split('/').pop()!;
    expect((await productOf(org, productId)).body.data).toMatchObject({
      name: 'Panier bio',
      description: 'Chaque semaine',
      environmentId: org.sandbox.environmentId,
      prices: [],
    });
    expect(ids((await browser.get('/dashboard/products')).text, 'product')).toEqual([productId]);

    await browser.get(productPath);
    expect((await browser.post(productPath, { name: 'Panier bio XL', description: '' })).status).toBe(303);
    expect((await productOf(org, productId)).body.data).toMatchObject({
      name: 'Panier bio XL',
      description: null,
    });

    expect((await browser.post(`${productPath}/prices`, { amount: '1500', interval: 'weekly' })).status).toBe(
      303,
    );
    const [price] = (await productOf(org, productId)).body.data.prices;
    expect(price).toMatchObject({ amount: 1500, interval: 'weekly', active: true });
    const page = await browser.get(productPath);
    expect(page.text).toContain('1,500 MRU / week');

    // In place: the same price, a new amount.
    expect(
      (await browser.post(`/dashboard/prices/${price.id}`, { amount: '1800', interval: 'weekly' })).status,
    ).toBe(303);
    expect((await productOf(org, productId)).body.data.prices).toEqual([
      expect.objectContaining({ id: price.id, amount: 1800 }),
    ]);

    // Replaced: the old one inactive (still readable by id for its subscriptions), a new one offered.
    const replaced = await browser.post(`/dashboard/prices/${price.id}`, {
      amount: '2000',
      interval: 'monthly',
      replaceExisting: 'true',
    });
    expect(location(replaced)).toContain('notice=priceReplaced');
    const [replacement] = (await productOf(org, productId)).body.data.prices;
    expect(replacement).toMatchObject({ amount: 2000, interval: 'monthly' });
    expect(replacement.id).not.toBe(price.id);
    const [old] = await t.query('SELECT active, amount, replaced_by FROM prices WHERE id = $1', [price.id]);
    expect(old).toEqual({ active: false, amount: 1800, replaced_by: replacement.id });

    // Archived: hidden from the product's prices.
    await browser.get(productPath);
    expect((await browser.post(`/dashboard/prices/${replacement.id}/archive`)).status).toBe(303);
    expect((await productOf(org, productId)).body.data.prices).toEqual([]);
    expect((await browser.get(productPath)).text).toContain('data-testid="no-prices"');
    // An archived price is not found any more.
    expect(
      (await browser.post(`/dashboard/prices/${replacement.id}`, { amount: '5', interval: 'weekly' })).status,
    ).toBe(404);

    // The product archived: gone from the list, its page and the API.
    await browser.get(productPath);
    const archived = await browser.post(`${productPath}/archive`);
    expect(location(archived)).toBe('/dashboard/products?notice=productArchived');
    expect((await browser.get('/dashboard/products')).text).not.toContain(productId);
    expect((await browser.get(productPath)).status).toBe(404);
    expect((await productOf(org, productId)).status).toBe(404);
    expect((await browser.post(productPath, { name: 'Back?' })).status).toBe(404);
  });

  it('answers a form that does not parse with its page and what to fix, creating nothing', async () => {
    const { org, browser } = await signedInOwner(t);
    const page = await browser.get('/dashboard/products');
    // The fields stop where the API's product does.
    expect(page.text).toContain(`name="name" type="text" maxlength="${PRODUCT_LIMITS.name}"`);
    expect(page.text).toContain(`name="description" type="text" maxlength="${PRODUCT_LIMITS.description}"`);
    const noName = await browser.post('/dashboard/products', { name: '  ', description: '' });
    expect(noName.status).toBe(200);
    expect(noName.text).toContain('Enter a name (at most 200 characters).');
    const longName = await browser.post('/dashboard/products', {
      name: 'x'.repeat(PRODUCT_LIMITS.name + 1),
      description: 'y'.repeat(PRODUCT_LIMITS.description + 1),
    });
    expect(longName.status).toBe(200);
    expect(longName.text).toContain('Enter a name (at most 200 characters).');
    expect(longName.text).toContain('The description is at most 2,000 characters.');
    const { product } = await catalog(t, org);
    for (const amount of ['0', '-3', '12.5', 'abc', '100000001']) {
      const res = await browser.post(`/dashboard/products/${product.id}/prices`, {
        amount,
        interval: 'monthly',
      });
      expect({ amount, status: res.status }).toEqual({ amount, status: 200 });
      expect(res.text).toContain('Enter a whole amount in MRU, from 1 to 100,000,000.');
    }
    const bad = await browser.post(`/dashboard/products/${product.id}/prices`, {
      amount: '10',
      interval: 'daily',
    });
    expect(bad.text).toContain('Choose an interval.');
    const [{ n }] = await t.query('SELECT count(*)::int AS n FROM prices WHERE product_id = $1', [
      product.id,
    ]);
    expect(n).toBe(1);
    const [{ products }] = await t.query(
      'SELECT count(*)::int AS products FROM products WHERE organization_id = $1',
      [org.organizationId],
    );
    expect(products).toBe(1);
  });

  it("keeps products to their environment: Production lists none of Sandbox's and finds none by id", async () => {
    const { org, browser } = await signedInOwner(t);
    const { product, price } = await catalog(t, org);
    expect(ids((await browser.get('/dashboard/products')).text, 'product')).toEqual([product.id]);
    await browser.post('/dashboard/environment', {
      environment: 'production',
      return: '/dashboard/products',
    });
    expect(ids((await browser.get('/dashboard/products')).text, 'product')).toEqual([]);
    expect((await browser.get(`/dashboard/products/${product.id}`)).status).toBe(404);
    for (const [path, form] of [
      [`/dashboard/products/${product.id}`, { name: 'x' }],
      [`/dashboard/products/${product.id}/archive`, {}],
      [`/dashboard/products/${product.id}/prices`, { amount: '10', interval: 'weekly' }],
      [`/dashboard/prices/${price.id}`, { amount: '10', interval: 'weekly' }],
      [`/dashboard/prices/${price.id}/archive`, {}],
    ] as const)
      expect({ path, status: (await browser.post(path, form)).status }).toEqual({ path, status: 404 });
    expect((await productOf(org, product.id)).body.data).toMatchObject({
      name: 'Premium',
      active: true,
      prices: [expect.objectContaining({ id: price.id, amount: 1500 })],
    });
    // A product created in Production is Production's.
    const created = await browser.post('/dashboard/products', { name: 'Live plan' });
    const [row] = await t.query('SELECT environment_id FROM products WHERE id = $1', [
      location(created).split(/[/?]/)[3],
    ]);
    expect(row.environment_id).toBe(org.production.environmentId);
  });
});

describe('customers', () => {
  it('adds a customer, finds it by externalUserId or phone, edits it, and refuses a taken externalUserId', async () => {
    const { org, browser } = await signedInOwner(t);
    const page = await browser.get('/dashboard/customers');
    // The externalUserId's field stops where the API's does.
    expect(page.text).toContain(`name="externalUserId" type="text" maxlength="${EXTERNAL_ID_MAX}"`);
    const tooLong = await browser.post('/dashboard/customers', {
      externalUserId: 'x'.repeat(EXTERNAL_ID_MAX + 1),
    });
    expect(tooLong.status).toBe(200);
    expect(tooLong.text).toContain('Enter an ID of 1 to 128 printable characters.');
    const created = await browser.post('/dashboard/customers', {
      externalUserId: 'client-7',
      phone: '+222 22 12 34 56',
    });
    expect(created.status).toBe(303);
    const customerId = location(created).split(/[/?]/)[3];
    const [row] = await t.query(
      'SELECT external_user_id, phone, organization_id FROM customers WHERE id = $1',
      [customerId],
    );
    expect(row).toEqual({
      external_user_id: 'client-7',
      phone: '22123456',
      organization_id: org.organizationId,
    });
    await createCustomer(t, org.sandbox.secretKey, { externalUserId: 'someone-else', phone: '33445566' });

    for (const q of ['client-7', '22123456', '+22222123456'])
      expect({
        q,
        found: ids((await browser.get(`/dashboard/customers?q=${encodeURIComponent(q)}`)).text, 'customer'),
      }).toEqual({
        q,
        found: [customerId],
      });
    expect(ids((await browser.get('/dashboard/customers?q=nobody')).text, 'customer')).toEqual([]);
    expect(ids((await browser.get('/dashboard/customers')).text, 'customer')).toHaveLength(2);

    const taken = await browser.post('/dashboard/customers', { externalUserId: 'client-7' });
    expect(taken.status).toBe(200);
    expect(taken.text).toContain('A customer of the organization already has this externalUserId.');
    const badPhone = await browser.post('/dashboard/customers', {
      externalUserId: 'client-8',
      phone: '12345678',
    });
    expect(badPhone.text).toContain('Invalid number: 8 digits starting with 2, 3 or 4.');

    await browser.get(`/dashboard/customers/${customerId}`);
    expect(
      (
        await browser.post(`/dashboard/customers/${customerId}`, {
          externalUserId: 'someone-else',
          phone: '',
        })
      ).text,
    ).toContain('A customer of the organization already has this externalUserId.');
    expect(
      (await browser.post(`/dashboard/customers/${customerId}`, { externalUserId: 'client-7b', phone: '' }))
        .status,
    ).toBe(303);
    const [edited] = await t.query('SELECT external_user_id, phone FROM customers WHERE id = $1', [
      customerId,
    ]);
    expect(edited).toEqual({ external_user_id: 'client-7b', phone: null });
  });

  it('shows the same customers in Sandbox and Production (they are the organization’s)', async () => {
    const { org, browser } = await signedInOwner(t);
    const customer = await createCustomer(t, org.sandbox.secretKey);
    await browser.post('/dashboard/environment', {
      environment: 'production',
      return: '/dashboard/customers',
    });
    expect(ids((await browser.get('/dashboard/customers')).text, 'customer')).toEqual([customer.id]);
    expect((await browser.get(`/dashboard/customers/${customer.id}`)).status).toBe(200);
  });

  it('pages customers with keyset links, every customer once, without OFFSET or a count', async () => {
    const { org, browser } = await signedInOwner(t);
    await t.query(
      `INSERT INTO customers (id, organization_id, external_user_id, created_at, updated_at)
       SELECT gen_random_uuid(), $1, 'bulk-' || i, now() - i * interval '1 second', now() FROM generate_series(1, 60) i`,
      [org.organizationId],
    );
    const expected = (
      await t.query('SELECT id FROM customers WHERE organization_id = $1 ORDER BY created_at DESC, id DESC', [
        org.organizationId,
      ])
    ).map((r) => r.id);
    const spy = jest.spyOn(Client.prototype, 'query');
    const seen: string[] = [];
    let path: string | undefined = '/dashboard/customers';
    try {
      while (path) {
        const res = await browser.get(path);
        seen.push(...ids(res.text, 'customer'));
        path = relLink(res.text, 'next');
      }
      const statements = spy.mock.calls.map((c) =>
        String(typeof c[0] === 'string' ? c[0] : (c[0] as { text: string }).text),
      );
      expect(statements.filter((s) => /\bOFFSET\b|count\(\*\)/i.test(s))).toEqual([]);
    } finally {
      spy.mockRestore();
    }
    expect(seen).toEqual(expected);
  });
});

describe('subscriptions', () => {
  it('lists the subscription with its customer and price, filters by status, and shows its page with its invoice', async () => {
    const { org, browser } = await signedInOwner(t);
    const { subscription, invoice, customer } = await subscribed(org);
    const list = await browser.get('/dashboard/subscriptions');
    expect(ids(list.text, 'subscription')).toEqual([subscription.id]);
    expect(list.text).toContain(customer.externalUserId);
    expect(list.text).toContain('1,500 MRU / month');
    expect(ids((await browser.get('/dashboard/subscriptions?status=active')).text, 'subscription')).toEqual([
      subscription.id,
    ]);
    expect(ids((await browser.get('/dashboard/subscriptions?status=paused')).text, 'subscription')).toEqual(
      [],
    );
    const page = await browser.get(`/dashboard/subscriptions/${subscription.id}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain(customer.externalUserId);
    expect(ids(page.text, 'invoice')).toEqual([invoice.id]);
    expect(page.text).toContain(`href="${invoice.checkoutUrl}"`);
  });

  it('pauses, resumes, cancels at period end and cancels now, as the API does: cancelling voids the unpaid invoices', async () => {
    const { org, browser } = await signedInOwner(t);
    const { subscription, invoice } = await subscribed(org);
    const path = `/dashboard/subscriptions/${subscription.id}`;
    const status = async () =>
      (
        await t.http
          .get(`/api/v1/subscriptions/${subscription.id}`)
          .set('Authorization', org.sandbox.secretKey)
      ).body.data.status;
    await browser.get(path);
    expect(location(await browser.post(`${path}/pause`))).toBe(`${path}?notice=subscriptionPaused`);
    expect(await status()).toBe('paused');
    expect((await browser.get(path)).text).toContain('data-testid="resume"');
    await browser.post(`${path}/resume`);
    expect(await status()).toBe('active');
    await browser.post(`${path}/cancel`, { atPeriodEnd: 'true' });
    expect(await status()).toBe('pending_cancellation');
    const [pending] = await t.query('SELECT status FROM invoices WHERE id = $1', [invoice.id]);
    expect(pending.status).toBe('pending');
    await browser.post(`${path}/resume`);
    expect(await status()).toBe('active');
    expect(location(await browser.post(`${path}/cancel`, { atPeriodEnd: 'false' }))).toBe(
      `${path}?notice=subscriptionCancelled`,
    );
    expect(await status()).toBe('cancelled');
    const [voided] = await t.query('SELECT status FROM invoices WHERE id = $1', [invoice.id]);
    expect(voided.status).toBe('void');
    const after = await browser.get(path);
    expect(after.text).not.toContain('data-testid="cancel-now"');
    expect(after.text).not.toContain('data-testid="pause"');
    // Pausing a cancelled subscription: the API's 409, as a page in the page's language.
    const refused = await browser.post(`${path}/pause`);
    expect(refused.status).toBe(409);
    expect(refused.text).toContain(DASHBOARD_TEXTS.en.apiRules.subscription_cannot_be_paused);
  });

  it('shows a subscription with an overdue invoice as past due, and filters it so', async () => {
    const { org, browser } = await signedInOwner(t);
    const { subscription } = await subscribed(org);
    await timeTravel(t, subscription.id, 40 * DAY);
    await t.http.post('/api/v1/sandbox/billing/run').set('Authorization', org.sandbox.secretKey).send({});
    expect(ids((await browser.get('/dashboard/subscriptions?status=past_due')).text, 'subscription')).toEqual(
      [subscription.id],
    );
    expect(ids((await browser.get('/dashboard/subscriptions?status=active')).text, 'subscription')).toEqual(
      [],
    );
    expect((await browser.get(`/dashboard/subscriptions/${subscription.id}`)).text).toContain('Past due');
  });

  it("keeps subscriptions to their environment: Production lists none of Sandbox's and acts on none", async () => {
    const { org, browser } = await signedInOwner(t);
    const { subscription, invoice } = await subscribed(org);
    await browser.post('/dashboard/environment', {
      environment: 'production',
      return: '/dashboard/subscriptions',
    });
    expect(ids((await browser.get('/dashboard/subscriptions')).text, 'subscription')).toEqual([]);
    expect(ids((await browser.get('/dashboard/invoices')).text, 'invoice')).toEqual([]);
    expect((await browser.get(`/dashboard/subscriptions/${subscription.id}`)).status).toBe(404);
    expect((await browser.get(`/dashboard/invoices/${invoice.id}`)).status).toBe(404);
    for (const action of ['pause', 'resume', 'cancel'])
      expect((await browser.post(`/dashboard/subscriptions/${subscription.id}/${action}`)).status).toBe(404);
    const [row] = await t.query('SELECT status FROM subscriptions WHERE id = $1', [subscription.id]);
    expect(row.status).toBe('active');
  });
});

describe('invoices', () => {
  it('lists invoices with their pay link to copy or send by SMS and WhatsApp, and filters them', async () => {
    const { org, browser } = await signedInOwner(t, 'Boutique Nouakchott');
    const first = await subscribed(org);
    const second = await subscribed(org);
    const list = await browser.get('/dashboard/invoices');
    expect(ids(list.text, 'invoice')).toEqual([second.invoice.id, first.invoice.id]);
    const html = unescapeHtml(list.text);
    const payUrl = `${t.config.publicUrl}/checkout/invoices/${first.invoice.id}`;
    expect(first.invoice.checkoutUrl).toBe(payUrl);
    expect(html).toContain(`href="${payUrl}"`);
    expect(html).toContain(`data-copy="pay-${first.invoice.id}"`);
    const sms = /href="(sms:[^"]+)"/.exec(html)![1];
    expect(sms.startsWith('sms:+22222123456?body=')).toBe(true);
    expect(decodeURIComponent(sms.split('body=')[1])).toContain('Boutique Nouakchott');
    const whatsApp = /href="(https:\/\/wa\.me\/[^"]+)"/.exec(html)![1];
    expect(whatsApp.startsWith('https://wa.me/22222123456?text=')).toBe(true);
    expect(decodeURIComponent(whatsApp.split('text=')[1])).toContain('/checkout/invoices/');

    expect(
      ids((await browser.get(`/dashboard/invoices?subscriptionId=${first.subscription.id}`)).text, 'invoice'),
    ).toEqual([first.invoice.id]);
    const byCustomer = `/dashboard/invoices?customer=${encodeURIComponent(second.customer.externalUserId)}`;
    expect(ids((await browser.get(byCustomer)).text, 'invoice')).toEqual([second.invoice.id]);
    expect(ids((await browser.get('/dashboard/invoices?customer=nobody')).text, 'invoice')).toEqual([]);
    expect(ids((await browser.get('/dashboard/invoices?status=pending')).text, 'invoice')).toHaveLength(2);
    expect(ids((await browser.get('/dashboard/invoices?status=paid')).text, 'invoice')).toEqual([]);

    await t.http
      .post(`/api/v1/subscriptions/${first.subscription.id}/cancel`)
      .set('Authorization', org.sandbox.secretKey)
      .send({});
    expect(ids((await browser.get('/dashboard/invoices?status=void')).text, 'invoice')).toEqual([
      first.invoice.id,
    ]);
  });

  it('links an invoice and its payment request both ways', async () => {
    const { org, browser } = await signedInOwner(t);
    const { invoice } = await subscribed(org);
    const page = await browser.get(`/dashboard/invoices/${invoice.id}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain(`href="/dashboard/payment-requests/${invoice.paymentRequestId}"`);
    expect(page.text).toContain(`>${invoice.checkoutUrl}</code>`);
    const request = await browser.get(`/dashboard/payment-requests/${invoice.paymentRequestId}`);
    expect(request.text).toContain(`href="/dashboard/invoices/${invoice.id}"`);
  });

  it('pages invoices with keyset links, every invoice once, without OFFSET or a count', async () => {
    const { org, browser } = await signedInOwner(t);
    const c = await catalog(t, org, { interval: 'weekly' });
    // A subscription started 40 weeks ago: 41 invoices, created together.
    await createSubscription(t, org.sandbox.secretKey, {
      customerId: c.customer.id,
      priceId: c.price.id,
      startedAt: new Date(Date.now() - 40 * 7 * DAY - DAY).toISOString(),
    });
    const expected = (
      await t.query('SELECT id FROM invoices WHERE environment_id = $1 ORDER BY created_at DESC, id DESC', [
        org.sandbox.environmentId,
      ])
    ).map((r) => r.id);
    expect(expected).toHaveLength(41);
    const spy = jest.spyOn(Client.prototype, 'query');
    const seen: string[] = [];
    let path: string | undefined = '/dashboard/invoices?status=pending';
    try {
      while (path) {
        const res = await browser.get(path);
        seen.push(...ids(res.text, 'invoice'));
        path = relLink(res.text, 'next');
      }
      await browser.get('/dashboard/subscriptions?status=active');
      await browser.get('/dashboard/products');
      const statements = spy.mock.calls.map((c) =>
        String(typeof c[0] === 'string' ? c[0] : (c[0] as { text: string }).text),
      );
      expect(statements.filter((s) => /\bOFFSET\b|count\(\*\)/i.test(s))).toEqual([]);
    } finally {
      spy.mockRestore();
    }
    expect(seen).toEqual(expected);
  });
});

it('answers every billing page with 200 signed in, in French too', async () => {
  const { org } = await signedInOwner(t);
  const { product, customer, subscription, invoice } = await subscribed(org);
  const fr = new DashboardBrowser(t, undefined, 'fr');
  await fr.signIn(org.email, org.password);
  for (const path of [
    '/dashboard/products',
    `/dashboard/products/${product.id}`,
    '/dashboard/customers',
    `/dashboard/customers/${customer.id}`,
    '/dashboard/subscriptions',
    `/dashboard/subscriptions/${subscription.id}`,
    '/dashboard/invoices',
    `/dashboard/invoices/${invoice.id}`,
  ]) {
    const res = await fr.get(path);
    expect({ path, status: res.status }).toEqual({ path, status: 200 });
    expect(res.text).toContain('<html lang="fr" dir="ltr">');
    expect(res.text).not.toMatch(/(src|action)="(https?:)?\/\//);
  }
});

it('answered every page once: nothing in the log says a reply was sent twice, nor any error of the dashboard', () => {
  expect(t.logs.filter((l) => /FST_ERR_REP_ALREADY_SENT|DashboardErrorFilter/.test(l))).toEqual([]);
});

describe('an invoice’s payments by hand and SMS log', () => {
  it('shows what was paid by hand, what is still due, and each SMS with its status and the number masked', async () => {
    const { org, browser } = await signedInOwner(t, 'Boutique Nouakchott');
    const { invoice } = await subscribed(org);
    const sk = org.sandbox.secretKey;
    await t.http
      .patch('/api/v1/billing-settings')
      .set('Authorization', sk)
      .send({ sms: { enabled: true } });
    const paid = await t.http
      .post(`/api/v1/invoices/${invoice.id}/payments`)
      .set('Authorization', sk)
      .send({ amount: 400, method: 'cash', reference: 'REC-7' });
    expect(paid.status).toBe(200);
    const due = new Date(invoice.dueDate!);
    await t.app
      .get(ReminderRun)
      .run({ environmentId: org.sandbox.environmentId, now: new Date(due.getTime() + DAY) });
    const page = unescapeHtml((await browser.get(`/dashboard/invoices/${invoice.id}`)).text);
    expect(page).toContain('data-testid="amount-paid">400.00<');
    expect(page).toContain('data-testid="amount-due">1100.00<');
    expect(page).toContain('REC-7');
    expect(page).toMatch(/data-testid="sms" data-id="[^"]+" data-status="logged"/);
    expect(page).toContain('22****56');
    expect(page).toContain('1100 MRU');
  });
});

describe('billing settings page', () => {
  it('shows the defaults, saves a change as PATCH /billing-settings would, and refuses days outside the API’s limits', async () => {
    const { org, browser } = await signedInOwner(t, 'Boutique Nouakchott');
    const page = await browser.get('/dashboard/billing-settings');
    expect(page.status).toBe(200);
    expect(page.text).toContain('name="beforeDueDays" value="3"');
    expect(page.text).toContain('name="afterDueDays" value="1, 3, 7"');
    const saved = await browser.post('/dashboard/billing-settings', {
      beforeDueDays: '5',
      afterDueDays: '2, 10',
      smsEnabled: 'true',
      dunningAfterDaysOverdue: '14',
      dunningAction: 'pause',
    });
    expect(saved.status).toBe(303);
    const api = await t.http.get('/api/v1/billing-settings').set('Authorization', org.sandbox.secretKey);
    expect(api.body.data).toEqual({
      reminders: { beforeDueDays: [5], afterDueDays: [2, 10] },
      sms: { enabled: true },
      dunning: { afterDaysOverdue: 14, action: 'pause' },
      portal: { allowCancel: false },
      invoicePrefix: null,
    });
    const refused = await browser.post('/dashboard/billing-settings', {
      beforeDueDays: '61',
      afterDueDays: '1',
      dunningAfterDaysOverdue: '0',
      dunningAction: 'cancel',
    });
    expect(refused.status).toBe(200);
    expect(refused.text).toContain('data-testid="days-error"');
    expect(refused.text).toContain('data-testid="dunning-error"');
    const unchanged = await t.http
      .get('/api/v1/billing-settings')
      .set('Authorization', org.sandbox.secretKey);
    expect(unchanged.body).toEqual(api.body);
    const production = await t.http
      .get('/api/v1/billing-settings')
      .set('Authorization', org.production.secretKey);
    expect(production.body.data.sms.enabled).toBe(false);
  });

  it('sets the invoice number prefix (typed in lower case, saved upper-cased), refuses one the API would, and clears it back to the default', async () => {
    const { org, browser } = await signedInOwner(t, 'Epicerie Zouerate');
    const sk = org.sandbox.secretKey;
    const form = { beforeDueDays: '3', afterDueDays: '1, 3, 7', dunningAction: 'cancel' };
    const page = await browser.get('/dashboard/billing-settings');
    expect(page.text).toContain('name="invoicePrefix" value=""');
    expect(
      (await browser.post('/dashboard/billing-settings', { ...form, invoicePrefix: ' ez26 ' })).status,
    ).toBe(303);
    expect(
      (await t.http.get('/api/v1/billing-settings').set('Authorization', sk)).body.data.invoicePrefix,
    ).toBe('EZ26');
    expect((await browser.get('/dashboard/billing-settings')).text).toContain(
      'name="invoicePrefix" value="EZ26"',
    );
    const c = await catalog(t, org);
    const s = await createSubscription(t, sk, { customerId: c.customer.id, priceId: c.price.id });
    expect((await invoicesOf(t, sk, s.id))[0].number).toBe('EZ26-000001');

    for (const invoicePrefix of ['EZ-26', 'ABCDEFGHIJK', 'É1']) {
      const refused = await browser.post('/dashboard/billing-settings', { ...form, invoicePrefix });
      expect(refused.status).toBe(200);
      expect(refused.text).toContain('data-testid="invoice-prefix-error"');
      expect(refused.text).toContain('aria-invalid="true"');
    }
    expect(
      (await t.http.get('/api/v1/billing-settings').set('Authorization', sk)).body.data.invoicePrefix,
    ).toBe('EZ26');
    expect((await browser.post('/dashboard/billing-settings', { ...form, invoicePrefix: '' })).status).toBe(
      303,
    );
    expect(
      (await t.http.get('/api/v1/billing-settings').set('Authorization', sk)).body.data.invoicePrefix,
    ).toBeNull();
  });
});
