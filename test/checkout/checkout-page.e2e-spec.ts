import request from 'supertest';
import { CheckoutPayments, PaymentMethodChoice } from '../../src/checkout/checkout-payments';
import { PaymentError, paymentError } from '../../src/payments/payments.errors';
import { Messages } from '../../src/common/errors/messages';
import { newTenant, startTestApp, TestApp } from '../helpers/app';
import { createSession, makeOverdue, txId } from '../helpers/checkout';

const METHODS: PaymentMethodChoice[] = [
  { id: '0b7a5c0e-1d7e-4f43-9a44-7d1b0f0a0001', type: 'bankily', name: 'Bankily', requiresPassCode: true },
  { id: '0b7a5c0e-1d7e-4f43-9a44-7d1b0f0a0002', type: 'masrivi', name: 'Masrivi', requiresPassCode: false },
  { id: '0b7a5c0e-1d7e-4f43-9a44-7d1b0f0a0003', type: 'sedad', name: 'Sedad', requiresPassCode: false },
];

const csrfOf = (html: string) => /name="_csrf" value="([^"]+)"/.exec(html)![1];

/** Every visible form control has a label (for= or wrapping). */
function unlabelledInputs(html: string): string[] {
  const labelled = new Set([...html.matchAll(/<label[^>]*for="([^"]+)"/g)].map((m) => m[1]));
  const wrapped = [...html.matchAll(/<label[^>]*>[\s\S]*?<\/label>/g)].map((m) => m[0]);
  return [...html.matchAll(/<input[^>]*>/g)]
    .map((m) => m[0])
    .filter((tag) => !/type="hidden"/.test(tag))
    .filter((tag) => {
      const id = /id="([^"]+)"/.exec(tag)?.[1];
      return !(id && labelled.has(id)) && !wrapped.some((w) => w.includes(tag));
    });
}

describe('hosted checkout page (HTTP)', () => {
  let t: TestApp;
  let sk: string;
  let payments: CheckoutPayments;

  beforeAll(async () => {
    t = await startTestApp();
    sk = (await newTenant(t, 'Boutique Ksar')).sandbox.secretKey;
    payments = t.app.get(CheckoutPayments);
  });
  afterAll(() => t.close());
  afterEach(() => jest.restoreAllMocks());

  const withMethods = () => jest.spyOn(payments, 'listMethods').mockResolvedValue(METHODS);
  const agent = () => request.agent(t.app.getHttpServer());
  const sessionStatus = async (id: string) =>
    (await t.query<{ status: string }>('SELECT status FROM checkout_sessions WHERE id = $1', [id]))[0].status;

  it("shows the merchant, the amount in MRU and the payer's phone masked beside an empty field, in French by default", async () => {
    withMethods();
    const { data } = await createSession(t, sk, {
      transactionId: txId(),
      amount: 1500,
      phoneNumber: '22123456',
    });
    const res = await agent().get(`/checkout/${data.id}`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.text).toContain('<html lang="fr" dir="ltr">');
    expect(res.text).toContain('Boutique Ksar');
    expect(res.text).toMatch(/1\s500 MRU/);
    // Whoever holds the link sees the number the merchant gave masked, never whole (docs/checkout.md).
    // (The field's hint gives 22123456 as an example of a number: not the payer's.)
    expect(res.text.replace('par exemple 22123456', '')).not.toContain('22123456');
    expect(res.text).toMatch(/id="phoneNumber"[^>]*value=""[^>]*aria-describedby="phone-hint known-phone">/);
    expect(res.text).toContain('Laissez vide pour payer depuis le numéro <bdi>••••••56</bdi>');
    expect(res.text).toContain('Uniquement pour Bankily');
    for (const m of METHODS) expect(res.text).toContain(`value="${m.id}"`);
    expect(res.text).toContain('data-pass-code="true"');
    expect(unlabelledInputs(res.text)).toEqual([]);
  });

  it('is self-contained and small: a CSP with a nonce, nothing from another host, under 50 KB', async () => {
    withMethods();
    const { data } = await createSession(t, sk, { transactionId: txId(), amount: 1500 });
    const res = await agent().get(`/checkout/${data.id}`);
    const csp = res.headers['content-security-policy'];
    expect(csp).toContain("default-src 'self'");
    const nonce = /'nonce-([^']+)'/.exec(csp)![1];
    expect(res.text).toContain(`<script nonce="${nonce}">`);
    expect(res.text).toContain(`<style nonce="${nonce}">`);
    expect(res.text).not.toMatch(/(src|href|action)="(https?:)?\/\//);
    expect(Buffer.byteLength(res.text)).toBeLessThan(50 * 1024);
  });

  it('says payment is unavailable, without a usable Pay button, when payment methods cannot be listed', async () => {
    jest.spyOn(payments, 'listMethods').mockRejectedValue(new Error('database unavailable'));
    const { data } = await createSession(t, sk, { transactionId: txId(), amount: 1500 });
    const res = await agent().get(`/checkout/${data.id}`);
    expect(res.status).toBe(200);
    expect(res.text).toContain('Le paiement est momentanément indisponible');
    expect(res.text).toMatch(/<button type="submit" class="pay" disabled>/);
  });

  it('chooses the language from ?lang=, then the cookie, then Accept-Language', async () => {
    withMethods();
    const { data } = await createSession(t, sk, { transactionId: txId(), amount: 1500 });
    const ar = await agent().get(`/checkout/${data.id}`).set('Accept-Language', 'ar-MR,ar;q=0.9');
    expect(ar.text).toContain('<html lang="ar" dir="rtl">');
    expect(ar.text).toContain('١٬٥٠٠ MRU');

    const browser = agent();
    const en = await browser.get(`/checkout/${data.id}?lang=en`).set('Accept-Language', 'ar');
    expect(en.text).toContain('<html lang="en" dir="ltr">');
    expect(en.text).toContain('Pay 1,500 MRU');
    const remembered = await browser.get(`/checkout/${data.id}`).set('Accept-Language', 'ar');
    expect(remembered.text).toContain('<html lang="en"');
    expect(remembered.text.replaceAll('&#x3D;', '=')).toContain(`href="/checkout/${data.id}?lang=ar"`);
  });

  it('answers an unknown or malformed id with an HTML 404 page', async () => {
    for (const id of ['00000000-0000-4000-8000-000000000000', 'nope']) {
      const res = await agent().get(`/checkout/${id}`);
      expect(res.status).toBe(404);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.text).toContain('data-state="not-found"');
    }
  });

  it('shows an expired session as expired, with no form', async () => {
    const { data } = await createSession(t, sk, { transactionId: txId(), amount: 1500 });
    await makeOverdue(t, data.id);
    const res = await agent().get(`/checkout/${data.id}`);
    expect(res.status).toBe(200);
    expect(res.text).toContain('data-state="expired"');
    expect(res.text).not.toContain('<form');
  });

  describe('cancel', () => {
    it('needs the CSRF token', async () => {
      const { data } = await createSession(t, sk, { transactionId: txId(), amount: 1500 });
      const browser = agent();
      await browser.get(`/checkout/${data.id}`);
      const res = await browser.post(`/checkout/${data.id}/cancel`).type('form').send({ _csrf: 'forged' });
      expect(res.status).toBe(403);
      expect(await sessionStatus(data.id)).toBe('open');
      const noCookie = await agent().post(`/checkout/${data.id}/cancel`).type('form').send({ _csrf: 'x' });
      expect(noCookie.status).toBe(403);
    });

    it('cancels and redirects to cancelUrl', async () => {
      const { data } = await createSession(t, sk, {
        transactionId: txId(),
        amount: 1500,
        cancelUrl: 'https://shop.example.mr/cart',
      });
      const browser = agent();
      const page = await browser.get(`/checkout/${data.id}`);
      const res = await browser
        .post(`/checkout/${data.id}/cancel`)
        .type('form')
        .send({ _csrf: csrfOf(page.text) });
      expect(res.status).toBe(303);
      expect(res.headers.location).toBe('https://shop.example.mr/cart');
      expect(await sessionStatus(data.id)).toBe('cancelled');
    });

    it('without cancelUrl shows the cancelled page; a second cancel gets 409', async () => {
      const { data } = await createSession(t, sk, { transactionId: txId(), amount: 1500 });
      const browser = agent();
      const token = csrfOf((await browser.get(`/checkout/${data.id}`)).text);
      const res = await browser.post(`/checkout/${data.id}/cancel`).type('form').send({ _csrf: token });
      expect(res.headers.location).toBe(`/checkout/${data.id}`);
      const after = await browser.get(`/checkout/${data.id}`);
      expect(after.text).toContain('data-state="cancelled"');
      expect(after.text).not.toContain('<form');
      const again = await browser.post(`/checkout/${data.id}/cancel`).type('form').send({ _csrf: token });
      expect(again.status).toBe(409);
    });
  });

  describe('pay (with payments stubbed)', () => {
    async function openPage(body: Record<string, unknown> = {}) {
      withMethods();
      const transactionId = txId();
      const { data } = await createSession(t, sk, {
        transactionId,
        amount: 1500,
        phoneNumber: '22123456',
        ...body,
      });
      const browser = agent();
      const page = await browser.get(`/checkout/${data.id}?lang=en`);
      return { id: data.id, transactionId, browser, token: csrfOf(page.text) };
    }

    it('rejects a post without the CSRF token and never calls payments', async () => {
      const { id, browser } = await openPage();
      const pay = jest.spyOn(payments, 'pay');
      const res = await browser
        .post(`/checkout/${id}/pay`)
        .type('form')
        .send({ paymentMethodId: METHODS[1].id, phoneNumber: '22123456' });
      expect(res.status).toBe(403);
      expect(pay).not.toHaveBeenCalled();
    });

    it("pays from the session's phone when the field is left empty, and from the one typed otherwise", async () => {
      const { id, browser, token } = await openPage();
      const pay = jest.spyOn(payments, 'pay').mockResolvedValue({ paymentId: 'p1', status: 'completed' });
      await browser
        .post(`/checkout/${id}/pay`)
        .type('form')
        .send({ _csrf: token, paymentMethodId: METHODS[1].id, phoneNumber: '' });
      expect(pay).toHaveBeenLastCalledWith(expect.objectContaining({ id }), {
        paymentMethodId: METHODS[1].id,
        phoneNumber: '22123456',
        passCode: '',
      });
      await browser
        .post(`/checkout/${id}/pay`)
        .type('form')
        .send({ _csrf: token, paymentMethodId: METHODS[1].id, phoneNumber: '33 44 55 66' });
      expect(pay).toHaveBeenLastCalledWith(expect.objectContaining({ id }), {
        paymentMethodId: METHODS[1].id,
        phoneNumber: '33445566',
        passCode: '',
      });
      // A session without a phone: the field is required, and empty is an invalid number.
      const none = await openPage({ phoneNumber: undefined });
      const page = await none.browser.get(`/checkout/${none.id}?lang=en`);
      expect(page.text).toMatch(/id="phoneNumber"[^>]*aria-describedby="phone-hint" required>/);
      const empty = await none.browser
        .post(`/checkout/${none.id}/pay`)
        .type('form')
        .send({ _csrf: none.token, paymentMethodId: METHODS[1].id, phoneNumber: '' });
      expect(empty.status).toBe(400);
      expect(empty.text).toContain('Invalid phone number.');
    });

    it('asks again for a bad phone number or a missing method', async () => {
      const { id, browser, token } = await openPage();
      const badPhone = await browser
        .post(`/checkout/${id}/pay`)
        .type('form')
        .send({ _csrf: token, paymentMethodId: METHODS[1].id, phoneNumber: '123' });
      expect(badPhone.status).toBe(400);
      expect(badPhone.text).toContain('Invalid phone number.');
      expect(badPhone.text).toContain('value="123"');
      const noMethod = await browser
        .post(`/checkout/${id}/pay`)
        .type('form')
        .send({ _csrf: token, phoneNumber: '22123456' });
      expect(noMethod.status).toBe(400);
    });

    it('redirects a completed payment to successUrl with session_id and transactionId', async () => {
      const { id, transactionId, browser, token } = await openPage({
        successUrl: 'https://shop.example.mr/thanks?order=7',
      });
      const pay = jest.spyOn(payments, 'pay').mockResolvedValue({ paymentId: 'p1', status: 'completed' });
      const res = await browser.post(`/checkout/${id}/pay`).type('form').send({
        _csrf: token,
        paymentMethodId: METHODS[0].id,
        phoneNumber: '+222 22 12 34 56',
        passCode: ' 1234 ',
      });
      expect(res.status).toBe(303);
      const url = new URL(res.headers.location);
      expect(Object.fromEntries(url.searchParams)).toEqual({ order: '7', session_id: id, transactionId });
      expect(pay).toHaveBeenCalledWith(expect.objectContaining({ id, transactionId, amount: 1500 }), {
        paymentMethodId: METHODS[0].id,
        phoneNumber: '22123456',
        passCode: '1234',
      });
    });

    it('shows the 502 bank-failure message on a bank failure and keeps the form to retry or choose another app', async () => {
      const { id, browser, token } = await openPage();
      jest.spyOn(payments, 'pay').mockRejectedValue(paymentError(PaymentError.BankFailure));
      const res = await browser
        .post(`/checkout/${id}/pay`)
        .type('form')
        .send({ _csrf: token, paymentMethodId: METHODS[1].id, phoneNumber: '22129001' });
      expect(res.status).toBe(502);
      expect(res.text).toContain(Messages.bankFailure);
      expect(res.text).toContain(`value="${METHODS[1].id}" data-pass-code="false" checked`);
      expect(res.text).toContain('<form method="post"');
      expect(await sessionStatus(id)).toBe('open');
    });

    it('shows a pending payment with the status polling hook', async () => {
      const { id, browser, token } = await openPage();
      jest.spyOn(payments, 'pay').mockResolvedValue({ paymentId: 'p1', status: 'pending' });
      const res = await browser
        .post(`/checkout/${id}/pay`)
        .type('form')
        .send({ _csrf: token, paymentMethodId: METHODS[2].id, phoneNumber: '22129003' });
      expect(res.status).toBe(200);
      expect(res.text).toContain(`data-url="/api/v1/checkout-session/public/${id}/payment-status"`);
    });

    it('refuses to pay a session that expired before the job ran', async () => {
      const { id, browser, token } = await openPage();
      await makeOverdue(t, id);
      const pay = jest.spyOn(payments, 'pay');
      const res = await browser
        .post(`/checkout/${id}/pay`)
        .type('form')
        .send({ _csrf: token, paymentMethodId: METHODS[1].id, phoneNumber: '22123456' });
      expect(res.status).toBe(409);
      expect(res.text).toContain('data-state="expired"');
      expect(pay).not.toHaveBeenCalled();
    });
  });
});
