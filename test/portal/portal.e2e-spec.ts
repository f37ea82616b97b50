import request from 'supertest';
import { startSmsSimulator, SmsSimulator } from '../../src/billing/sms-simulator/sms-simulator';
import { PORTAL_TEXTS } from '../../src/common/i18n/portal-texts';
import type { CreatedOrganization } from '../../src/organizations/organizations.service';
import { newTenant, startTestApp, TestApp } from '../helpers/app';
import {
  createCustomer,
  createPrice,
  createProduct,
  createSubscription,
  invoicesOf,
} from '../helpers/billing';
import { expect422, expectText } from '../helpers/http';
import { masriviOf } from '../helpers/money';
import { waitFor } from '../helpers/poll';

/*
 * The customer portal over HTTP (the browser spec drives it in Chromium): portal links from the
 * API, sign-in by phone and a code (Sandbox shows it; Production sends it through the SMS
 * simulator, a real HTTP server), the customer's records only, cancelling at period end, CSRF
 * and the cookie. Each test makes its own merchants.
 */
let t: TestApp;
/** The same service without an SMS gateway (started first: the last app started keeps the logs). */
let noGateway: TestApp;
let sim: SmsSimulator;
beforeAll(async () => {
  sim = await startSmsSimulator();
  noGateway = await startTestApp();
  t = await startTestApp({ SMS_GATEWAY_URL: sim.url });
});
afterEach(() => sim.reset());
afterAll(async () => {
  await t.close();
  await noGateway.close();
  await sim.close();
});

const csrfOf = (html: string) => /name="_csrf" value="([^"]+)"/.exec(html)![1];
const codeIdOf = (html: string) => /name="codeId" value="([^"]+)"/.exec(html)![1];
const sandboxCodeOf = (html: string) => /data-testid="sandbox-code" data-code="(\d{6})"/.exec(html)?.[1];
const idsOf = (html: string, testId: string) =>
  [...html.matchAll(new RegExp(`data-testid="${testId}" data-id="([^"]+)"`, 'g'))].map((m) => m[1]);
const agent = () => request.agent(t.app.getHttpServer());
const pathOf = (url: string) => new URL(url).pathname;
type Agent = ReturnType<typeof agent>;

/** A merchant whose customer has a subscription (and its first invoice) in the environment. */
async function merchantWithCustomer(
  env: 'sandbox' | 'production' = 'sandbox',
  phone = '22123456',
  org?: CreatedOrganization,
) {
  org ??= await newTenant(t, 'Boutique Nour');
  const sk = org[env].secretKey;
  const product = await createProduct(t, sk, { name: `Salle ${env}` });
  const price = await createPrice(t, sk, product.id, { amount: 2500 });
  const customer = await createCustomer(t, sk, { phone });
  const subscription = await createSubscription(t, sk, { customerId: customer.id, priceId: price.id });
  const [invoice] = await invoicesOf(t, sk, subscription.id);
  return { org, sk, price, customer, subscription, invoice };
}

async function portalLink(sk: string, body: object) {
  return t.http.post('/api/v1/portal-sessions').set('Authorization', sk).send(body);
}

/** An agent signed in through a portal link of the customer. */
async function signedInByLink(sk: string, customerId: string, query = '') {
  const a = agent();
  const res = await portalLink(sk, { customerId });
  const link = await a.get(pathOf(res.body.data.url) + query);
  expect(link.status).toBe(303);
  return { a, link, home: link.headers.location };
}

async function askCode(a: Agent, orgId: string, phone: string, environment = 'sandbox', lang = 'en') {
  const form = await a.get(`/portal/${orgId}?environment=${environment}&lang=${lang}`);
  return a
    .post(`/portal/${orgId}/code`)
    .type('form')
    .send({ _csrf: csrfOf(form.text), phone, environment });
}

async function enterCode(a: Agent, orgId: string, codePage: string, code: string) {
  return a
    .post(`/portal/${orgId}/sign-in`)
    .type('form')
    .send({ _csrf: csrfOf(codePage), codeId: codeIdOf(codePage), code, environment: 'sandbox' });
}

const subscriptionStatus = async (sk: string, id: string) =>
  (await t.http.get(`/api/v1/subscriptions/${id}`).set('Authorization', sk)).body.data.status as string;

it('shows what a coupon and the customer’s credit took off an invoice, and nothing when they took nothing', async () => {
  const m = await merchantWithCustomer('sandbox', '22123499');
  await t.query(`UPDATE customers SET credit_balance = 200 WHERE id = $1`, [m.customer.id]);
  const coupon = (
    await t.http.post('/api/v1/coupons').set('Authorization', m.sk).send({ percentOff: 10, duration: 'once' })
  ).body.data;
  const second = await createSubscription(t, m.sk, {
    customerId: m.customer.id,
    priceId: m.price.id,
    coupon: coupon.code,
  });
  const [invoice] = await invoicesOf(t, m.sk, second.id);
  expect([invoice.discount, invoice.creditApplied, invoice.amount]).toEqual(['250.00', '200.00', '2050.00']);
  const { a, home } = await signedInByLink(m.sk, m.customer.id);
  const html = (await a.get(home).set('accept-language', 'en')).text;
  const card = (id: string) =>
    html.slice(html.indexOf(`data-id="${id}"`), html.indexOf('</li>', html.indexOf(`data-id="${id}"`)));
  expect(card(invoice.id)).toMatch(/Discount<\/dt><dd><bdi data-testid="invoice-discount">−250 MRU<\/bdi>/);
  expect(card(invoice.id)).toMatch(
    /Credit applied<\/dt><dd><bdi data-testid="invoice-credit">−200 MRU<\/bdi>/,
  );
  expect(card(m.invoice.id)).not.toContain('invoice-discount');
  expect(card(m.invoice.id)).not.toContain('invoice-credit');
});

describe('POST /portal-sessions', () => {
  it('answers a link valid one hour that signs the customer in to the key’s environment', async () => {
    const m = await merchantWithCustomer();
    const before = Date.now();
    const res = await portalLink(m.sk, {
      customerId: m.customer.id,
      returnUrl: 'https://shop.example/account',
    });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.data).sort()).toEqual(['expiresAt', 'url']);
    expect(res.body.data.url).toMatch(new RegExp(`^${t.config.publicUrl}/portal/link/[A-Za-z0-9_-]{43}$`));
    const expiresAt = new Date(res.body.data.expiresAt).getTime();
    expect(expiresAt).toBeGreaterThanOrEqual(before + 3600_000 - 1000);
    expect(expiresAt).toBeLessThanOrEqual(Date.now() + 3600_000);

    const a = agent();
    const link = await a.get(pathOf(res.body.data.url));
    expect(link.status).toBe(303);
    expect(link.headers.location).toBe(`/portal/${m.org.organizationId}`);
    const cookie = (link.headers['set-cookie'] as unknown as string[]).find((c) =>
      c.startsWith('khoums_portal='),
    )!;
    expect(cookie).toMatch(/; Path=\/portal; Max-Age=(3599|3600); HttpOnly; SameSite=Lax$/);
    const home = await a.get(link.headers.location).set('accept-language', 'en');
    expect(home.status).toBe(200);
    expect(idsOf(home.text, 'subscription')).toEqual([m.subscription.id]);
    expect(idsOf(home.text, 'invoice')).toEqual([m.invoice.id]);
    expect(home.text).toContain(`<bdi data-testid="invoice-number">${m.invoice.number}</bdi>`);
    // Each invoice links to its PDF in the portal's language: the invoice page's public route.
    const pdfHref = `/checkout/invoices/${m.invoice.id}/pdf?lang=en`;
    expect(home.text).toContain(
      `<a href="${pdfHref.replace('=', '&#x3D;')}" data-testid="invoice-pdf">Invoice (PDF)</a>`,
    );
    const pdf = await agent()
      .get(pdfHref)
      .buffer(true)
      .parse((r, cb) => {
        const chunks: Buffer[] = [];
        r.on('data', (c: Buffer) => chunks.push(c));
        r.on('end', () => cb(null, Buffer.concat(chunks)));
      });
    expect(pdf.status).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.headers['content-disposition']).toBe(`inline; filename="${m.invoice.number}.pdf"`);
    expect((pdf.body as Buffer).subarray(0, 5).toString()).toBe('%PDF-');
    expect(home.text).toContain('href="https://shop.example/account"');
    expect(home.text).toContain('Test mode');
    // The token is a secret: the request log drops it.
    const token = pathOf(res.body.data.url).split('/').pop()!;
    expect(t.logs.some((l) => l.includes(token))).toBe(false);
    const [{ token_hash }] = await t.query(
      'SELECT token_hash FROM portal_sessions WHERE $1 = ANY(customer_ids)',
      [m.customer.id],
    );
    expect(token_hash).not.toContain(token);
  });

  it('answers 404 `Customer not found` for a customer of another merchant, 422 for a bad body', async () => {
    const m = await merchantWithCustomer();
    const other = await newTenant(t);
    expectText(
      await portalLink(other.sandbox.secretKey, { customerId: m.customer.id }),
      404,
      'Customer not found',
    );
    expectText(
      await portalLink(other.production.secretKey, { customerId: m.customer.id }),
      404,
      'Customer not found',
    );
    expect422(await portalLink(m.sk, { customerId: 'nope' }), 'body', '/customerId');
    expect422(await portalLink(m.sk, {}), 'body', '/customerId');
    expect422(
      await portalLink(m.sk, { customerId: m.customer.id, returnUrl: 'javascript:alert(1)' }),
      'body',
      '/returnUrl',
    );
  });

  it('signs in no more once its hour has passed', async () => {
    const m = await merchantWithCustomer();
    const res = await portalLink(m.sk, { customerId: m.customer.id });
    const a = agent();
    await a.get(pathOf(res.body.data.url));
    await t.query(
      `UPDATE portal_sessions SET expires_at = now() - interval '1 second' WHERE $1 = ANY(customer_ids)`,
      [m.customer.id],
    );
    const link = await agent().get(pathOf(res.body.data.url)).set('accept-language', 'en');
    expect(link.status).toBe(410);
    expect(link.text).toContain('Link expired');
    // The cookie it set signs in no more either: the phone form instead.
    const home = await a.get(`/portal/${m.org.organizationId}`).set('accept-language', 'en');
    expect(home.text).toContain('name="phone"');
    expect(idsOf(home.text, 'subscription')).toEqual([]);
  });

  it('is deleted once ended, when later sessions are made', async () => {
    const m = await merchantWithCustomer();
    await portalLink(m.sk, { customerId: m.customer.id });
    await t.query(`UPDATE portal_sessions SET expires_at = '2000-01-01' WHERE $1 = ANY(customer_ids)`, [
      m.customer.id,
    ]);
    await portalLink(m.sk, { customerId: m.customer.id });
    const rows = await t.query('SELECT expires_at FROM portal_sessions WHERE $1 = ANY(customer_ids)', [
      m.customer.id,
    ]);
    expect(rows).toHaveLength(1);
    expect(rows[0].expires_at.getTime()).toBeGreaterThan(Date.now());
  });
});

describe('what a signed-in customer sees', () => {
  it('lists only their own records of the session’s environment: not another customer’s, merchant’s or environment’s', async () => {
    const m = await merchantWithCustomer('sandbox', '22111111');
    const sameMerchant = await merchantWithCustomer('sandbox', '22222222', m.org);
    const production = await createSubscription(t, m.org.production.secretKey, {
      customerId: m.customer.id,
      priceId: (
        await createPrice(
          t,
          m.org.production.secretKey,
          (await createProduct(t, m.org.production.secretKey)).id,
        )
      ).id,
    });
    const otherMerchant = await merchantWithCustomer('sandbox', '22111111');

    const sandbox = await signedInByLink(m.sk, m.customer.id);
    const page = (await sandbox.a.get(sandbox.home)).text;
    expect(idsOf(page, 'subscription')).toEqual([m.subscription.id]);
    expect(idsOf(page, 'invoice')).toEqual([m.invoice.id]);
    for (const id of [sameMerchant.subscription.id, production.id, otherMerchant.subscription.id])
      expect(page).not.toContain(id);

    const live = await signedInByLink(m.org.production.secretKey, m.customer.id);
    const livePage = (await live.a.get(live.home)).text;
    expect(idsOf(livePage, 'subscription')).toEqual([production.id]);
    expect(livePage).not.toContain('data-testid="test-mode"');

    // The cookie of one merchant's portal signs in nobody at another's.
    const elsewhere = await sandbox.a
      .get(`/portal/${otherMerchant.org.organizationId}`)
      .set('accept-language', 'en');
    expect(elsewhere.text).toContain('name="phone"');
    expect(elsewhere.text).not.toContain(otherMerchant.subscription.id);
  });

  it('links a pending invoice to its pay page', async () => {
    const m = await merchantWithCustomer();
    const s = await signedInByLink(m.sk, m.customer.id);
    const page = (await s.a.get(`${s.home}?lang=ar`)).text;
    expect(page).toContain('<html lang="ar" dir="rtl">');
    expect(page.replaceAll('&#x3D;', '=')).toContain(`href="${pathOf(m.invoice.checkoutUrl)}?lang=ar"`);
  });

  it('leads back to the portal from the invoice page it links, after paying too', async () => {
    const m = await merchantWithCustomer();
    const s = await signedInByLink(m.sk, m.customer.id);
    const home = (await s.a.get(s.home)).text.replaceAll('&#x3D;', '=');
    const payHref = /<a class="button" href="([^"]+)"/.exec(home)![1];
    const back = `href="/portal/${m.org.organizationId}?environment=sandbox" data-testid="portal-link"`;
    expect((await s.a.get(payHref)).text.replaceAll('&#x3D;', '=')).toContain(back);
    const configurationId = await masriviOf(t, m.sk);
    await t.http
      .post('/api/v1/payment')
      .set('Authorization', m.sk)
      .send({ transactionId: m.invoice.id, phoneNumber: '22123456', configurationId })
      .expect(200);
    const paid = (await s.a.get(payHref)).text.replaceAll('&#x3D;', '=');
    expect(paid).toContain('data-state="paid"');
    expect(paid).toContain(back);
    // A Production invoice leads to Production's portal.
    const p = await merchantWithCustomer('production', '22123456', m.org);
    const production = (await agent().get(pathOf(p.invoice.checkoutUrl))).text;
    expect(production).toContain(`href="/portal/${m.org.organizationId}" data-testid="portal-link"`);
  });

  it('cancels a subscription at period end through the subscriptions service, with its event', async () => {
    const m = await merchantWithCustomer();
    const s = await signedInByLink(m.sk, m.customer.id);
    const page = (await s.a.get(s.home)).text;
    const action = `/portal/${m.org.organizationId}/subscriptions/${m.subscription.id}/cancel`;
    expect(page).toContain(`action="${action}"`);
    const res = await s.a
      .post(action)
      .type('form')
      .send({ _csrf: csrfOf(page) });
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe(`/portal/${m.org.organizationId}?notice=cancelled`);
    expect(await subscriptionStatus(m.sk, m.subscription.id)).toBe('pending_cancellation');
    const events = await t.query(
      `SELECT data FROM events WHERE kind = 'subscription-updated' AND data->>'id' = $1`,
      [m.subscription.id],
    );
    expect(events.map((e) => e.data.status)).toEqual(['pending_cancellation']);
    const after = (await s.a.get(res.headers.location).set('accept-language', 'en')).text;
    expect(after).toContain('will be cancelled at the end of the current period');
    expect(after).not.toContain(`action="${action}"`);
  });

  it('does not cancel when the merchant’s billing settings say portal.allowCancel: false', async () => {
    const m = await merchantWithCustomer();
    const s = await signedInByLink(m.sk, m.customer.id);
    const page = (await s.a.get(s.home)).text;
    await t.http
      .patch('/api/v1/billing-settings')
      .set('Authorization', m.sk)
      .send({ portal: { allowCancel: false } });
    const now = (await s.a.get(s.home)).text;
    expect(now).not.toContain('/cancel"');
    const res = await s.a
      .post(`/portal/${m.org.organizationId}/subscriptions/${m.subscription.id}/cancel?lang=en`)
      .type('form')
      .send({ _csrf: csrfOf(page) });
    expect(res.status).toBe(403);
    expect(res.text).toContain('does not allow cancelling');
    expect(await subscriptionStatus(m.sk, m.subscription.id)).toBe('active');
  });

  it('does not cancel another customer’s subscription (404), nor without the form’s CSRF token (403)', async () => {
    const m = await merchantWithCustomer('sandbox', '22111111');
    const other = await merchantWithCustomer('sandbox', '22222222', m.org);
    const s = await signedInByLink(m.sk, m.customer.id);
    const page = (await s.a.get(s.home)).text;
    const theirs = await s.a
      .post(`/portal/${m.org.organizationId}/subscriptions/${other.subscription.id}/cancel`)
      .type('form')
      .send({ _csrf: csrfOf(page) });
    expect(theirs.status).toBe(404);
    expect(await subscriptionStatus(m.sk, other.subscription.id)).toBe('active');
    for (const _csrf of [
      undefined,
      'forged',
      csrfOf((await agent().get(`/portal/${m.org.organizationId}`)).text),
    ]) {
      const res = await s.a
        .post(`/portal/${m.org.organizationId}/subscriptions/${m.subscription.id}/cancel`)
        .type('form')
        .send(_csrf === undefined ? {} : { _csrf });
      expect(res.status).toBe(403);
    }
    expect(await subscriptionStatus(m.sk, m.subscription.id)).toBe('active');
    // Nor a post without the cookie's session: back to the sign-in.
    const anonymous = await agent()
      .post(`/portal/${m.org.organizationId}/subscriptions/${m.subscription.id}/cancel`)
      .type('form')
      .send({ _csrf: csrfOf(page) });
    expect(anonymous.status).toBe(303);
    expect(await subscriptionStatus(m.sk, m.subscription.id)).toBe('active');
  });

  it('signs out: the cookie’s session ends', async () => {
    const m = await merchantWithCustomer();
    const s = await signedInByLink(m.sk, m.customer.id);
    const page = (await s.a.get(s.home)).text;
    const cookie = (s.link.headers['set-cookie'] as unknown as string[]).find((c) =>
      c.startsWith('khoums_portal='),
    )!;
    const out = await s.a
      .post(`/portal/${m.org.organizationId}/sign-out`)
      .type('form')
      .send({ _csrf: csrfOf(page) });
    expect(out.status).toBe(303);
    const replay = await agent().get(`/portal/${m.org.organizationId}`).set('cookie', cookie.split(';')[0]);
    expect(replay.text).toContain('name="phone"');
    expect(replay.text).not.toContain(m.subscription.id);
  });
});

describe('signing in by phone', () => {
  it('in Sandbox shows the code, stores only its HMAC, and signs in every customer of the merchant with the phone', async () => {
    const m = await merchantWithCustomer('sandbox', '22334455');
    const a = agent();
    const codePage = await askCode(a, m.org.organizationId, '+222 22 33 44 55');
    expect(codePage.status).toBe(200);
    const code = sandboxCodeOf(codePage.text)!;
    expect(code).toMatch(/^\d{6}$/);
    const rows = await t.query(
      `SELECT code_hash, tries, expires_at - created_at AS ttl FROM portal_codes WHERE id = $1`,
      [codeIdOf(codePage.text)],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0].code_hash).not.toContain(code);
    expect(rows[0].code_hash).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(rows[0].ttl).toEqual({ minutes: 10 });
    const res = await enterCode(a, m.org.organizationId, codePage.text, code);
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe(`/portal/${m.org.organizationId}`);
    const cookie = (res.headers['set-cookie'] as unknown as string[]).find((c) =>
      c.startsWith('khoums_portal='),
    )!;
    expect(cookie).toMatch(/; Path=\/portal; Max-Age=(3599|3600); HttpOnly; SameSite=Lax$/);
    const home = (await a.get(res.headers.location)).text;
    expect(idsOf(home, 'subscription')).toEqual([m.subscription.id]);
    expect(t.logs.some((l) => l.includes('22334455') || l.includes(code))).toBe(false);
    // A code signs in once.
    expect((await enterCode(a, m.org.organizationId, codePage.text, code)).status).toBe(400);
  });

  it('refuses a wrong code with a form error, and the 6th try even with the right code', async () => {
    const m = await merchantWithCustomer();
    const a = agent();
    const codePage = (await askCode(a, m.org.organizationId, '22123456')).text;
    const code = sandboxCodeOf(codePage)!;
    const wrong = code === '000000' ? '111111' : '000000';
    for (let i = 0; i < 5; i++) {
      const res = await enterCode(a, m.org.organizationId, codePage, wrong);
      expect(res.status).toBe(400);
      expect(res.text).toContain(i < 4 ? 'Wrong code' : 'expired or was tried too many times');
    }
    const sixth = await enterCode(a, m.org.organizationId, codePage, code);
    expect(sixth.status).toBe(400);
    expect(sixth.text).toContain('expired or was tried too many times');
    expect(sixth.headers['set-cookie']?.toString() ?? '').not.toContain('khoums_portal=');
  });

  it('accepts the right code on the 5th try', async () => {
    const m = await merchantWithCustomer();
    const a = agent();
    const codePage = (await askCode(a, m.org.organizationId, '22123456')).text;
    const code = sandboxCodeOf(codePage)!;
    const wrong = code === '000000' ? '111111' : '000000';
    for (let i = 0; i < 4; i++)
      expect((await enterCode(a, m.org.organizationId, codePage, wrong)).status).toBe(400);
    expect((await enterCode(a, m.org.organizationId, codePage, code)).status).toBe(303);
  });

  it('refuses a code after its 10 minutes', async () => {
    const m = await merchantWithCustomer();
    const a = agent();
    const codePage = (await askCode(a, m.org.organizationId, '22123456')).text;
    await t.query(`UPDATE portal_codes SET expires_at = now() - interval '1 second' WHERE id = $1`, [
      codeIdOf(codePage),
    ]);
    const res = await enterCode(a, m.org.organizationId, codePage, sandboxCodeOf(codePage)!);
    expect(res.status).toBe(400);
    expect(res.text).toContain('expired or was tried too many times');
  });

  it('gives a phone 3 codes an hour: the 4th is a 429 with a clear message; another phone still gets one', async () => {
    const m = await merchantWithCustomer();
    const a = agent();
    for (let i = 0; i < 3; i++) expect((await askCode(a, m.org.organizationId, '22123456')).status).toBe(200);
    const fourth = await askCode(a, m.org.organizationId, '22123456');
    expect(fourth.status).toBe(429);
    expect(fourth.text).toContain('Too many codes asked for this number: 3 per hour at most');
    expect(sandboxCodeOf(fourth.text)).toBeUndefined();
    expect((await askCode(a, m.org.organizationId, '22123457')).status).toBe(200);
    // An hour later, it gets one again.
    await t.query(
      `UPDATE portal_codes SET created_at = created_at - interval '61 minutes' WHERE environment_id = $1`,
      [m.org.sandbox.environmentId],
    );
    expect((await askCode(a, m.org.organizationId, '22123456')).status).toBe(200);
    // The codes of more than an hour ago, out of the count, are gone.
    const rows = await t.query('SELECT 1 FROM portal_codes WHERE environment_id = $1 AND phone = $2', [
      m.org.sandbox.environmentId,
      '22123456',
    ]);
    expect(rows).toHaveLength(1);
  });

  it('counts codes asked for at once on any instance: 10 concurrent asks, 3 codes', async () => {
    const m = await merchantWithCustomer();
    const a = agent();
    const form = await a.get(`/portal/${m.org.organizationId}?environment=sandbox`);
    const results = await Promise.all(
      Array.from({ length: 10 }, () =>
        a
          .post(`/portal/${m.org.organizationId}/code`)
          .type('form')
          .send({ _csrf: csrfOf(form.text), phone: '22123456', environment: 'sandbox' }),
      ),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 200, 200, 429, 429, 429, 429, 429, 429, 429]);
  });

  it('in Production sends the code by SMS through the gateway, and signs in with it', async () => {
    const m = await merchantWithCustomer('production', '46112233');
    const a = agent();
    const codePage = await askCode(a, m.org.organizationId, '46112233', 'production', 'fr');
    expect(codePage.status).toBe(200);
    expect(sandboxCodeOf(codePage.text)).toBeUndefined();
    const [sms] = await waitFor(() => sim.messages().length > 0 && sim.messages(), 'the SMS');
    expect(sms).toEqual({
      id: codeIdOf(codePage.text),
      to: '+22246112233',
      text: expect.stringContaining('Boutique Nour'),
    });
    const code = /(\d{6})/.exec(sms.text)![1];
    expect(t.logs.some((l) => l.includes('46112233') || l.includes(code))).toBe(false);
    const res = await a
      .post(`/portal/${m.org.organizationId}/sign-in`)
      .type('form')
      .send({
        _csrf: csrfOf(codePage.text),
        codeId: codeIdOf(codePage.text),
        code,
        environment: 'production',
      });
    expect(res.status).toBe(303);
    const home = (await a.get(`/portal/${m.org.organizationId}`)).text;
    expect(idsOf(home, 'subscription')).toEqual([m.subscription.id]);
    expect(home).not.toContain('data-testid="test-mode"');
  });

  it('says a code was sent by SMS only when a gateway is configured, and says so honestly otherwise', async () => {
    const m = await merchantWithCustomer('production', '46112233');
    const withGateway = agent();
    const form = (await withGateway.get(`/portal/${m.org.organizationId}`)).text;
    expect(form).not.toContain('data-testid="no-sms-gateway"');
    const sent = await askCode(withGateway, m.org.organizationId, '46112233', 'production');
    expect(sent.text).toContain('data-testid="code-sent"');

    {
      const a = request.agent(noGateway.app.getHttpServer());
      const page = await a.get(`/portal/${m.org.organizationId}?lang=en`);
      expect(page.text).toContain(`data-testid="no-sms-gateway">${PORTAL_TEXTS.en.noSmsGateway}<`);
      const codePage = await a
        .post(`/portal/${m.org.organizationId}/code`)
        .type('form')
        .send({ _csrf: csrfOf(page.text), phone: '46112233', environment: 'production' });
      expect(codePage.status).toBe(200);
      expect(codePage.text).toContain('data-testid="no-sms-gateway"');
      expect(codePage.text).not.toContain('data-testid="code-sent"');
      expect(codePage.text).not.toContain(PORTAL_TEXTS.en.codeSent);
      // Sandbox never sends one: its page shows the code, with or without a gateway.
      const sandbox = await a.get(`/portal/${m.org.organizationId}?environment=sandbox`);
      expect(sandbox.text).not.toContain('data-testid="no-sms-gateway"');
    }
  });

  it('hints on Production’s form that Sandbox’s customers sign in with ?environment=sandbox', async () => {
    const m = await merchantWithCustomer('production', '46112233');
    const production = (await agent().get(`/portal/${m.org.organizationId}?lang=fr`)).text.replaceAll(
      '&#x3D;',
      '=',
    );
    expect(production).toContain(PORTAL_TEXTS.fr.sandboxHint);
    expect(production).toContain(`<a href="/portal/${m.org.organizationId}?environment=sandbox" dir="ltr">`);
    const sandbox = (await agent().get(`/portal/${m.org.organizationId}?environment=sandbox`)).text;
    expect(sandbox).not.toContain('data-testid="sandbox-hint"');
  });

  it('answers an unknown phone as a known one, but sends nothing', async () => {
    const m = await merchantWithCustomer('production', '46112233');
    const known = await askCode(agent(), m.org.organizationId, '46112233', 'production');
    const unknown = await askCode(agent(), m.org.organizationId, '46998877', 'production');
    const shape = (html: string) => html.replace(/(value|nonce)="[^"]*"/g, '$1=""');
    expect(unknown.status).toBe(known.status);
    expect(shape(unknown.text)).toBe(shape(known.text));
    await waitFor(() => sim.messages().length > 0, 'the known phone’s SMS');
    const unknownId = /name="codeId" value="([^"]+)"/.exec(unknown.text)![1];
    await waitFor(
      () => t.logs.some((l) => l.includes(unknownId) && l.includes('no customer')),
      'the unknown phone',
    );
    expect(sim.messages().map((s) => s.to)).toEqual(['+22246112233']);
    expect(t.logs.some((l) => l.includes('46998877'))).toBe(false);
  });

  it('answers the same when the gateway refuses the SMS, and logs it with the phone masked', async () => {
    const m = await merchantWithCustomer('production', '46112244');
    sim.setMode('reject');
    const res = await askCode(agent(), m.org.organizationId, '46112244', 'production');
    expect(res.status).toBe(200);
    expect(res.text).toContain('name="code"');
    const codeId = codeIdOf(res.text);
    const line = await waitFor(
      () => t.logs.find((l) => l.includes(codeId) && l.includes('portal code not sent')),
      'the failure in the log',
    );
    expect(line).toContain('46****44');
    expect(t.logs.some((l) => l.includes('46112244'))).toBe(false);
  });

  it('refuses a form without its CSRF token, an invalid phone and a malformed code', async () => {
    const m = await merchantWithCustomer();
    const a = agent();
    const noToken = await a
      .post(`/portal/${m.org.organizationId}/code?lang=en`)
      .type('form')
      .send({ phone: '22123456', environment: 'sandbox' });
    expect(noToken.status).toBe(403);
    expect(noToken.text).toContain('security check failed');
    expect(
      await t.query('SELECT 1 FROM portal_codes WHERE environment_id = $1', [m.org.sandbox.environmentId]),
    ).toEqual([]);
    expect((await askCode(a, m.org.organizationId, '123')).status).toBe(400);
    const codePage = (await askCode(a, m.org.organizationId, '22123456')).text;
    const noCodeToken = await a
      .post(`/portal/${m.org.organizationId}/sign-in`)
      .type('form')
      .send({ codeId: codeIdOf(codePage), code: sandboxCodeOf(codePage), environment: 'sandbox' });
    expect(noCodeToken.status).toBe(403);
    const malformed = await enterCode(a, m.org.organizationId, codePage, '12ab');
    expect(malformed.status).toBe(400);
    expect(malformed.text).toContain('The code has 6 digits');
    expect((await enterCode(a, m.org.organizationId, codePage, sandboxCodeOf(codePage)!)).status).toBe(303);
  });

  it('answers 404 for an organization that does not exist', async () => {
    expect((await agent().get('/portal/00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await agent().get('/portal/nope')).status).toBe(404);
  });
});

describe('the cookie on https', () => {
  it('is Secure when PUBLIC_URL is https', async () => {
    const https = await startTestApp({ PUBLIC_URL: 'https://pay.example.com' });
    try {
      const org = await newTenant(https);
      const customer = await createCustomer(https, org.sandbox.secretKey);
      const res = await https.http
        .post('/api/v1/portal-sessions')
        .set('Authorization', org.sandbox.secretKey)
        .send({ customerId: customer.id });
      expect(res.body.data.url).toMatch(/^https:\/\/pay\.example\.com\/portal\/link\//);
      const link = await https.http.get(pathOf(res.body.data.url));
      const cookie = (link.headers['set-cookie'] as unknown as string[]).find((c) =>
        c.startsWith('khoums_portal='),
      )!;
      expect(cookie).toMatch(/; HttpOnly; Secure; SameSite=Lax$/);
    } finally {
      await https.close();
    }
  });
});
