import request from 'supertest';
import type { CreatedOrganization } from '../../src/organizations/organizations.service';
import { newTenant, startTestApp, TestApp } from '../helpers/app';
import { catalog, createSubscription, invoicesOf } from '../helpers/billing';

/*
 * An invoice's checkoutUrl over HTTP (the browser spec drives it in Chromium): what it shows in
 * each state, and paying through it with the Sandbox bank simulator (by phone number: ...9001
 * declined, ...9003 pending until a simulated transfer, else completed).
 */
let t: TestApp;
let org: CreatedOrganization;
let sk: string;
let c: Awaited<ReturnType<typeof catalog>>;
let methods: Record<string, string>;
beforeAll(async () => {
  t = await startTestApp();
  org = await newTenant(t, 'Club Sportif Tevragh Zeina');
  sk = org.sandbox.secretKey;
  c = await catalog(t, org);
  await t.http
    .patch(`/api/v1/products/${c.product.id}`)
    .set('Authorization', sk)
    .send({ name: 'Abonnement Salle' });
  const res = await t.http.get('/api/v1/payment-methods').set('Authorization', sk);
  methods = Object.fromEntries((res.body.data as { type: string; id: string }[]).map((m) => [m.type, m.id]));
});
afterAll(() => t.close());

const csrfOf = (html: string) => /name="_csrf" value="([^"]+)"/.exec(html)![1];
const stateOf = (html: string) => /data-state="([^"]+)"/.exec(html)?.[1];
const agent = () => request.agent(t.app.getHttpServer());
const path = (url: string) => new URL(url).pathname;

async function newInvoice(body: object = {}) {
  const s = await createSubscription(t, sk, { customerId: c.customer.id, priceId: c.price.id, ...body });
  const [invoice] = await invoicesOf(t, sk, s.id);
  return { subscription: s, invoice };
}
const invoiceStatus = async (id: string) =>
  (await t.http.get(`/api/v1/invoices/${id}`).set('Authorization', sk)).body.data.status as string;

async function payThroughPage(invoice: { checkoutUrl: string }, form: Record<string, string>) {
  const a = agent();
  const csrf = csrfOf((await a.get(path(invoice.checkoutUrl))).text);
  const post = () =>
    a
      .post(`${path(invoice.checkoutUrl)}/pay`)
      .type('form')
      .send({ _csrf: csrf, paymentMethodId: methods.masrivi, phoneNumber: '22123456', ...form });
  return { a, res: await post(), post };
}

describe('the invoice page (checkoutUrl)', () => {
  it('is a stable address on the hosted checkout that shows the merchant, product, period and amount, with the form', async () => {
    const { subscription, invoice } = await newInvoice();
    expect(invoice.checkoutUrl).toBe(`${t.config.publicUrl}/checkout/invoices/${invoice.id}`);
    const res = await agent().get(path(invoice.checkoutUrl)).set('accept-language', 'en');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['content-security-policy']).toContain("default-src 'self'");
    expect(res.text).toContain('<html lang="en" dir="ltr">');
    expect(stateOf(res.text)).toBe('pending');
    expect(res.text).toContain('Club Sportif Tevragh Zeina');
    expect(res.text).toContain('Abonnement Salle');
    expect(res.text).toContain('1,500 MRU');
    const start = new Date(subscription.currentPeriodStart);
    const end = new Date(subscription.currentPeriodEnd);
    const day = (d: Date) =>
      new Intl.DateTimeFormat('en', {
        day: 'numeric',
        month: 'long',
        year: 'numeric',
        timeZone: 'UTC',
      }).format(d);
    expect(res.text).toContain(`${day(start)} to ${day(end)}`);
    expect(res.text).toContain(`action="/checkout/invoices/${invoice.id}/pay"`);
    // The customer's phone masked beside an empty field: whoever holds the link is not necessarily the payer.
    // (The field's hint gives 22123456 as an example of a number: not the customer's.)
    expect(res.text.replace('for example 22123456', '')).not.toContain('22123456');
    expect(res.text).toContain('Leave it empty to pay from <bdi>••••••56</bdi>');
    for (const id of Object.values(methods)) expect(res.text).toContain(`value="${id}"`);
    expect(res.text).not.toContain('data-testid="cancel"');
  });

  it("pays from the customer's phone when the field is left empty", async () => {
    const { invoice } = await newInvoice();
    const { res } = await payThroughPage(invoice, { phoneNumber: '' });
    expect(res.status).toBe(303);
    expect(await invoiceStatus(invoice.id)).toBe('paid');
    const [payment] = await t.query(
      'SELECT p.phone_number FROM payments p JOIN invoices i ON i.payment_request_id = p.payment_request_id WHERE i.id = $1',
      [invoice.id],
    );
    expect(payment.phone_number).toBe('22123456');
  });

  it('speaks French by default and Arabic right to left', async () => {
    const { invoice } = await newInvoice();
    const fr = await agent().get(path(invoice.checkoutUrl));
    expect(fr.text).toContain('<html lang="fr" dir="ltr">');
    expect(fr.text).toContain('Facture');
    const ar = await agent().get(`${path(invoice.checkoutUrl)}?lang=ar`);
    expect(ar.text).toContain('<html lang="ar" dir="rtl">');
    expect(ar.text).toContain('فاتورة');
  });

  it('pays the invoice: 303 back to the page, which then shows it paid without a form', async () => {
    const { invoice } = await newInvoice();
    const { a, res, post } = await payThroughPage(invoice, {});
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe(path(invoice.checkoutUrl));
    expect(await invoiceStatus(invoice.id)).toBe('paid');
    const after = await a.get(path(invoice.checkoutUrl));
    expect(after.status).toBe(200);
    expect(stateOf(after.text)).toBe('paid');
    expect(after.text).not.toContain('<form');
    expect(after.text).toContain('Abonnement Salle');
    // The same form posted again takes no money.
    const again = await post();
    expect(again.status).toBe(409);
    expect(stateOf(again.text)).toBe('paid');
    const [{ n }] = await t.query(`SELECT count(*)::int AS n FROM payments WHERE payment_request_id = $1`, [
      invoice.paymentRequestId,
    ]);
    expect(n).toBe(1);
  });

  it('pays once when the same form is submitted twice at once (its idempotency key)', async () => {
    const { invoice } = await newInvoice();
    const a = agent();
    const html = (await a.get(path(invoice.checkoutUrl))).text;
    const form = {
      _csrf: csrfOf(html),
      idempotencyKey: /name="idempotencyKey" value="([^"]+)"/.exec(html)![1],
      paymentMethodId: methods.masrivi,
      phoneNumber: '22123456',
    };
    const post = () =>
      a
        .post(`${path(invoice.checkoutUrl)}/pay`)
        .type('form')
        .send(form);
    await Promise.all([post(), post()]);
    const payments = await t.query('SELECT status FROM payments WHERE payment_request_id = $1', [
      invoice.paymentRequestId,
    ]);
    expect(payments).toEqual([{ status: 'completed' }]);
    expect(await invoiceStatus(invoice.id)).toBe('paid');
  });

  it("keys its form apart from the merchant's server: a key the form used first is still free for the secret key", async () => {
    const { invoice } = await newInvoice();
    const key = `form-key-${invoice.id}`;
    const { res } = await payThroughPage(invoice, { idempotencyKey: key });
    expect(res.status).toBe(303);
    const transactionId = `after-invoice-${invoice.id}`;
    const mine = await t.http
      .post('/api/v1/payment-request')
      .set('Authorization', sk)
      .set('Idempotency-Key', key)
      .send({ transactionId, amount: 700 });
    expect(mine.status).toBe(200);
    expect(mine.headers['idempotent-replayed']).toBeUndefined();
    expect(mine.body.data.transactionId).toBe(transactionId);
  });

  it('shows a void invoice as void and takes no payment for it', async () => {
    const { subscription, invoice } = await newInvoice();
    const a = agent();
    const page = await a.get(path(invoice.checkoutUrl));
    await t.http.post(`/api/v1/subscriptions/${subscription.id}/cancel`).set('Authorization', sk).send({});
    const res = await a
      .post(`${path(invoice.checkoutUrl)}/pay`)
      .type('form')
      .send({ _csrf: csrfOf(page.text), paymentMethodId: methods.masrivi, phoneNumber: '22123456' });
    expect(res.status).toBe(409);
    expect(stateOf(res.text)).toBe('void');
    expect(res.text).not.toContain('<form');
    expect(stateOf((await agent().get(path(invoice.checkoutUrl))).text)).toBe('void');
    expect(
      await t.query('SELECT 1 FROM payments WHERE payment_request_id = $1', [invoice.paymentRequestId]),
    ).toEqual([]);
  });

  it('refuses a post without the page’s CSRF token, and asks again for a bad phone', async () => {
    const { invoice } = await newInvoice();
    const bad = await agent()
      .post(`${path(invoice.checkoutUrl)}/pay`)
      .type('form')
      .send({ _csrf: 'forged', paymentMethodId: methods.masrivi, phoneNumber: '22123456' });
    expect(bad.status).toBe(403);
    expect(bad.text).toContain('data-testid="error"');
    const { res } = await payThroughPage(invoice, { phoneNumber: '123' });
    expect(res.status).toBe(400);
    expect(res.text).toContain('Numéro de téléphone invalide.');
    expect(await invoiceStatus(invoice.id)).toBe('pending');
  });

  it('shows the bank’s failure with the form to retry', async () => {
    const { invoice } = await newInvoice();
    const { res } = await payThroughPage(invoice, { phoneNumber: '22229001' });
    expect(res.status).toBe(502);
    expect(res.text).toContain('data-testid="error"');
    expect(res.text).toContain(`action="/checkout/invoices/${invoice.id}/pay"`);
    expect(await invoiceStatus(invoice.id)).toBe('pending');
  });

  it('shows the pay-attempt limit in the customer’s language (429, Retry-After), with the form', async () => {
    const { invoice } = await newInvoice();
    const a = agent();
    const post = async (lang: string, phoneNumber: string) => {
      const csrf = csrfOf((await a.get(`${path(invoice.checkoutUrl)}?lang=${lang}`)).text);
      return a
        .post(`${path(invoice.checkoutUrl)}/pay`)
        .type('form')
        .send({ _csrf: csrf, paymentMethodId: methods.masrivi, phoneNumber });
    };
    for (let i = 0; i < 5; i++) expect((await post('en', '22229001')).status).toBe(502);
    const sixth = await post('fr', '22229001');
    expect(sixth.status).toBe(429);
    expect(Number(sixth.headers['retry-after'])).toBeGreaterThan(0);
    expect(sixth.text).toContain(
      'Trop de tentatives de paiement ont échoué. Veuillez réessayer dans quelques minutes.',
    );
    expect(sixth.text).toContain(`action="/checkout/invoices/${invoice.id}/pay"`);
    expect(await invoiceStatus(invoice.id)).toBe('pending');
    // Another phone (the customer's own) still pays.
    expect((await post('en', '22123456')).status).toBe(303);
    expect(await invoiceStatus(invoice.id)).toBe('paid');
  });

  it('waits for a payment pending at the bank: the pending page and its status route, then paid', async () => {
    const { invoice } = await newInvoice();
    const { a, res } = await payThroughPage(invoice, { phoneNumber: '22229003' });
    expect(res.status).toBe(200);
    expect(stateOf(res.text)).toBe('pending');
    expect(res.text).toContain(`data-url="/checkout/invoices/${invoice.id}/status"`);
    const status = () => a.get(`${path(invoice.checkoutUrl)}/status`);
    expect((await status()).body).toEqual({ data: { status: 'open', paymentStatus: 'pending' } });
    const [payment] = await t.query('SELECT id FROM payments WHERE payment_request_id = $1', [
      invoice.paymentRequestId,
    ]);
    await t.http.post(`/api/v1/payment/${payment.id}/simulate-transfer`).set('Authorization', sk).send({});
    expect((await status()).body).toEqual({ data: { status: 'paid', paymentStatus: 'completed' } });
    expect(stateOf((await a.get(path(invoice.checkoutUrl))).text)).toBe('paid');
  });

  it('answers a rendered 404 page for an unknown invoice, and 404 on its status route', async () => {
    const unknown = await agent().get('/checkout/invoices/7f1e2d3c-0000-4000-8000-000000000000');
    expect(unknown.status).toBe(404);
    expect(unknown.text).toContain('data-state="not-found"');
    expect((await agent().get('/checkout/invoices/nope')).status).toBe(404);
    const status = await agent().get('/checkout/invoices/7f1e2d3c-0000-4000-8000-000000000000/status');
    expect([status.status, status.text]).toEqual([404, 'Invoice not found']);
  });
});
