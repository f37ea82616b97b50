import request from 'supertest';
import { CheckoutPayments, PaymentMethodChoice } from '../../src/checkout/checkout-payments';
import { newTenant, startTestApp, TestApp } from '../helpers/app';
import { createSession, txId } from '../helpers/checkout';

/**
 * The merchant's successUrl and cancelUrl are stored percent-encoded (an Arabic path, query or
 * fragment; the host in ASCII), so the hosted page's redirects can always be sent as a Location
 * header; a URL that is already encoded is kept as it is, never encoded twice.
 */
const METHODS: PaymentMethodChoice[] = [
  { id: '0b7a5c0e-1d7e-4f43-9a44-7d1b0f0a0002', type: 'masrivi', name: 'Masrivi', requiresPassCode: false },
];
const csrfOf = (html: string) => /name="_csrf" value="([^"]+)"/.exec(html)![1];

/** What each URL given is stored and redirected to. */
const URLS: Array<[given: string, stored: string]> = [
  ['https://shop.example/إلغاء?order=1', 'https://shop.example/%D8%A5%D9%84%D8%BA%D8%A7%D8%A1?order=1'],
  [
    'https://shop.example/سلة/الدفع?مرحلة=ثانية&order=1#ملخص',
    'https://shop.example/%D8%B3%D9%84%D8%A9/%D8%A7%D9%84%D8%AF%D9%81%D8%B9?%D9%85%D8%B1%D8%AD%D9%84%D8%A9=%D8%AB%D8%A7%D9%86%D9%8A%D8%A9&order=1#%D9%85%D9%84%D8%AE%D8%B5',
  ],
  [
    'https://shop.example/%D8%A5%D9%84%D8%BA%D8%A7%D8%A1?q=%D8%A5%20x#top',
    'https://shop.example/%D8%A5%D9%84%D8%BA%D8%A7%D8%A1?q=%D8%A5%20x#top',
  ],
  ['https://متجر.example/cart', 'https://xn--pgbep1f.example/cart'],
  ['https://shop.example/cart', 'https://shop.example/cart'],
];

let t: TestApp;
let sk: string;
beforeAll(async () => {
  t = await startTestApp();
  sk = (await newTenant(t)).sandbox.secretKey;
});
afterAll(() => t.close());
afterEach(() => jest.restoreAllMocks());

async function openPage(body: Record<string, unknown>) {
  jest.spyOn(t.app.get(CheckoutPayments), 'listMethods').mockResolvedValue(METHODS);
  const transactionId = txId();
  const { data } = await createSession(t, sk, { transactionId, amount: 1500, ...body });
  const browser = request.agent(t.app.getHttpServer());
  const page = await browser.get(`/checkout/${data.id}?lang=ar`);
  return { data, transactionId, browser, token: csrfOf(page.text) };
}

describe('creating a checkout session', () => {
  it.each(URLS)('stores %s percent-encoded, once', async (given, stored) => {
    const { data } = await createSession(t, sk, {
      transactionId: txId(),
      amount: 100,
      successUrl: given,
      cancelUrl: given,
    });
    expect({ successUrl: data.successUrl, cancelUrl: data.cancelUrl }).toEqual({
      successUrl: stored,
      cancelUrl: stored,
    });
  });

  it('still refuses what is not an absolute http(s) URL with 422, and one too long once encoded', async () => {
    for (const cancelUrl of ['إلغاء', 'javascript:alert(1)', `https://shop.example/${'إ'.repeat(400)}`]) {
      const res = await t.http
        .post('/api/v1/checkout-session')
        .set('authorization', sk)
        .send({ transactionId: txId(), amount: 100, cancelUrl });
      expect({ cancelUrl, status: res.status }).toEqual({ cancelUrl, status: 422 });
    }
  });
});

describe('the hosted page', () => {
  it.each(URLS)('cancels to %s', async (given, stored) => {
    const { data, browser, token } = await openPage({ cancelUrl: given });
    const res = await browser.post(`/checkout/${data.id}/cancel`).type('form').send({ _csrf: token });
    expect({ status: res.status, location: res.headers.location }).toEqual({ status: 303, location: stored });
  });

  it.each(URLS)(
    'sends a completed payment to %s, with the session and order appended',
    async (given, stored) => {
      const { data, transactionId, browser, token } = await openPage({
        successUrl: given,
        phoneNumber: '22123456',
      });
      jest
        .spyOn(t.app.get(CheckoutPayments), 'pay')
        .mockResolvedValue({ paymentId: 'p1', status: 'completed' });
      const res = await browser
        .post(`/checkout/${data.id}/pay`)
        .type('form')
        .send({ _csrf: token, paymentMethodId: METHODS[0].id, phoneNumber: '22123456' });
      expect(res.status).toBe(303);
      const location = new URL(res.headers.location);
      const expected = new URL(stored);
      expect(`${location.origin}${location.pathname}${location.hash}`).toBe(
        `${expected.origin}${expected.pathname}${expected.hash}`,
      );
      expect(Object.fromEntries(location.searchParams)).toEqual({
        ...Object.fromEntries(expected.searchParams),
        session_id: data.id,
        transactionId,
      });
    },
  );

  it('cancels to a cancelUrl stored before URLs were encoded', async () => {
    const { data, browser, token } = await openPage({ cancelUrl: 'https://shop.example/cart' });
    await t.query('UPDATE checkout_sessions SET cancel_url = $2 WHERE id = $1', [
      data.id,
      'https://shop.example/إلغاء?order=1#أ',
    ]);
    const res = await browser.post(`/checkout/${data.id}/cancel`).type('form').send({ _csrf: token });
    expect({ status: res.status, location: res.headers.location }).toEqual({
      status: 303,
      location: 'https://shop.example/%D8%A5%D9%84%D8%BA%D8%A7%D8%A1?order=1#%D8%A3',
    });
  });
});
