import { ExpireCheckoutSessionsJob } from '../../src/checkout/expire-checkout-sessions.job';
import { Messages } from '../../src/common/errors/messages';
import type { CreatedOrganization } from '../../src/organizations/organizations.service';
import { newTenant, startTestApp, TestApp } from '../helpers/app';
import { makeOverdue } from '../helpers/checkout';
import { expect422, expectText } from '../helpers/http';
import { masriviOf } from '../helpers/money';
import {
  createLink,
  openLinkForm,
  sessionIdOf,
  startLinkPayment,
  submitLinkForm,
} from '../helpers/payment-links';

/*
 * A payment link's page over HTTP (docs/payment-links.md): what it shows, the payment it starts
 * (a request `link_<code>_<n>` with paymentLinkId, and its checkout session), the 410s and the
 * 404, the places a started payment holds, the merchant's message after paying.
 */

let t: TestApp;
let org: CreatedOrganization;
let sk: string;
let masrivi: string;
beforeAll(async () => {
  t = await startTestApp();
  org = await newTenant(t, 'Épicerie Sebkha');
  sk = org.sandbox.secretKey;
  masrivi = await masriviOf(t, sk);
});
afterAll(() => t.close());

/** Pays a session from the public checkout API (as the hosted page does). */
async function pay(sessionId: string, phoneNumber = '22123456') {
  return t.http
    .post(`/api/v1/checkout-session/public/${sessionId}/pay`)
    .send({ configurationId: masrivi, phoneNumber });
}

async function requestOf(sessionId: string) {
  const session = (await t.http.get(`/api/v1/checkout-session/${sessionId}`).set('Authorization', sk)).body
    .data;
  return (await t.http.get(`/api/v1/payment-request/${session.paymentRequestId}`).set('Authorization', sk))
    .body.data;
}

describe('GET /l/:code', () => {
  it('shows the merchant, the name, the amount, the phone field and the methods, without a script, in French by default', async () => {
    const link = await createLink(t, sk, { name: 'Thiéboudienne pour 4', description: 'Livrée le midi' });
    const res = await t.http.get(`/l/${link.code}`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.text).toContain('<html lang="fr" dir="ltr">');
    expect(res.text).toContain('Épicerie Sebkha');
    expect(res.text).toContain('Thiéboudienne pour 4');
    expect(res.text).toContain('Livrée le midi');
    expect(res.text).toMatch(/data-testid="amount"><bdi>1\s500 MRU<\/bdi>/);
    expect(res.text).toContain('name="phoneNumber"');
    expect(res.text).not.toContain('name="amount"');
    for (const name of ['Bankily', 'Masrivi', 'Sedad']) expect(res.text).toContain(name);
    expect(res.text).not.toContain('<script');
    expect(res.text).toContain('<form method="post" action="/l/' + link.code + '"');
  });

  it('chooses the language by ?lang=, then Accept-Language, then the link language; Arabic right to left', async () => {
    const link = await createLink(t, sk, { language: 'ar', amount: undefined });
    const ar = await t.http.get(`/l/${link.code}`);
    expect(ar.text).toContain('<html lang="ar" dir="rtl">');
    expect(ar.text).toContain('name="amount"');
    const en = await t.http.get(`/l/${link.code}`).set('accept-language', 'en-GB,en;q=0.9');
    expect(en.text).toContain('<html lang="en" dir="ltr">');
    const fr = await t.http.get(`/l/${link.code}?lang=fr`).set('accept-language', 'en');
    expect(fr.text).toContain('<html lang="fr" dir="ltr">');
    expect(([] as string[]).concat(fr.headers['set-cookie'] ?? []).join(';')).toContain('Path=/l');
  });

  it('answers 404 for an unknown code and for a path that is no code', async () => {
    for (const path of ['/l/ZZZZZZZZZZ', '/l/short', '/l/%C3%A9%C3%A9%C3%A9%C3%A9%C3%A9']) {
      const res = await t.http.get(path).set('accept-language', 'en');
      expect(res.status).toBe(404);
      expect(res.text).toContain('Link not found');
    }
  });

  it('answers 410 with the reason in the language: inactive, expired', async () => {
    const inactive = await createLink(t, sk);
    await t.http
      .patch(`/api/v1/payment-links/${inactive.id}`)
      .set('Authorization', sk)
      .send({ active: false });
    const res = await t.http.get(`/l/${inactive.code}`).set('accept-language', 'en');
    expect(res.status).toBe(410);
    expect(res.text).toContain('data-state="inactive"');
    expect(res.text).toContain('The merchant has deactivated this payment link.');
    const ar = await t.http.get(`/l/${inactive.code}`).set('accept-language', 'ar');
    expect(ar.status).toBe(410);
    expect(ar.text).toContain('قام التاجر بتعطيل رابط الدفع هذا.');

    const expiring = await createLink(t, sk, { expiresAt: new Date(Date.now() + 60_000).toISOString() });
    await t.query(`UPDATE payment_links SET expires_at = now() - interval '1 second' WHERE id = $1`, [
      expiring.id,
    ]);
    const expired = await t.http.get(`/l/${expiring.code}`).set('accept-language', 'fr');
    expect(expired.status).toBe(410);
    expect(expired.text).toContain('data-state="expired"');
    expect(expired.text).toContain('Ce lien de paiement a expiré le');
    // The form of a page loaded before is refused the same way.
    const form = await submitLinkForm(t, expiring.code, { cookie: '', csrf: '', formKey: '' }, {});
    expect(form.status).toBe(410);
  });
});

describe('POST /l/:code', () => {
  it('makes a payment request link_<code>_<n> with paymentLinkId and its checkout session, and goes on to the hosted page', async () => {
    const link = await createLink(t, sk, { amount: 2500 });
    const form = await openLinkForm(t, link.code, 'ar');
    const res = await submitLinkForm(t, link.code, form, { phoneNumber: '+222 36 12 34 56' }, 'ar');
    expect(res.status).toBe(303);
    expect(res.headers.location).toMatch(/^\/checkout\/[0-9a-f-]{36}\?lang=ar$/);
    const sessionId = sessionIdOf(res);
    const session = (await t.http.get(`/api/v1/checkout-session/${sessionId}`).set('Authorization', sk)).body
      .data;
    expect(session).toMatchObject({
      status: 'open',
      successUrl: `${t.config.publicUrl}/l/${link.code}/paid`,
    });
    expect(session.cancelUrl).toBe(`${t.config.publicUrl}/l/${link.code}`);
    const request = await requestOf(sessionId);
    expect(request).toMatchObject({
      transactionId: `link_${link.code}_1`,
      amount: 2500,
      phoneNumber: '36123456',
      status: 'pending',
      paymentLinkId: link.id,
    });
    expect(await requestOf(await startLinkPayment(t, link.code))).toMatchObject({
      transactionId: `link_${link.code}_2`,
    });
    // The hosted page knows the phone typed on the link's page, shown masked beside an empty field
    // (whoever holds the session's address sees no whole number: docs/checkout.md).
    const hosted = await t.http.get(`/checkout/${sessionId}?lang=ar`);
    expect(hosted.text).toContain('<bdi>••••••56</bdi>');
    expect(hosted.text).not.toContain('36123456');
  });

  it('takes the amount the customer types within the limits (Arabic digits and spaces too); else 400 with the form again', async () => {
    const link = await createLink(t, sk, { amount: undefined, minAmount: 100, maxAmount: 50_000 });
    const form = await openLinkForm(t, link.code);
    for (const amount of ['99', '50001', '12.5', 'abc', '']) {
      const res = await submitLinkForm(t, link.code, form, { amount, phoneNumber: '22123456' }, 'en');
      expect(res.status).toBe(400);
      expect(res.text).toContain('Enter a whole amount between 100 and 50000.');
      expect(res.text).toContain('aria-invalid="true"');
    }
    const typed = await submitLinkForm(t, link.code, form, { amount: '١٢ ٥٠٠', phoneNumber: '٢٢١٢٣٤٥٦' });
    expect(await requestOf(sessionIdOf(typed))).toMatchObject({ amount: 12_500, phoneNumber: '22123456' });
  });

  it('refuses an invalid phone (400) and a form without its CSRF token (403), starting nothing', async () => {
    const link = await createLink(t, sk);
    const form = await openLinkForm(t, link.code);
    const phone = await submitLinkForm(t, link.code, form, { phoneNumber: '5512' }, 'en');
    expect(phone.status).toBe(400);
    expect(phone.text).toContain('Invalid phone number.');
    expect(phone.text).toContain('value="5512"');
    const csrf = await submitLinkForm(
      t,
      link.code,
      { ...form, csrf: 'forged' },
      { phoneNumber: '22123456' },
      'en',
    );
    expect(csrf.status).toBe(403);
    const made = await t.http
      .get(`/api/v1/payment-request?paymentLinkId=${link.id}`)
      .set('Authorization', sk)
      .expect(200);
    expect(made.body.data).toEqual([]);
  });

  it('starts one payment for one form sent twice (a double click, a reload), holding one place', async () => {
    const link = await createLink(t, sk, { maxPayments: 2 });
    const form = await openLinkForm(t, link.code);
    const [a, b] = await Promise.all([
      submitLinkForm(t, link.code, form, { phoneNumber: '22123456' }),
      submitLinkForm(t, link.code, form, { phoneNumber: '22123456' }),
    ]);
    expect(sessionIdOf(a)).toBe(sessionIdOf(b));
    const again = await submitLinkForm(t, link.code, form, { phoneNumber: '22123456' });
    expect(sessionIdOf(again)).toBe(sessionIdOf(a));
    // The same form with another phone is another payment.
    const other = await submitLinkForm(t, link.code, form, { phoneNumber: '33123456' });
    expect(sessionIdOf(other)).not.toBe(sessionIdOf(a));
    const list = await t.http
      .get(`/api/v1/payment-request?paymentLinkId=${link.id}`)
      .set('Authorization', sk);
    expect(list.body.pagination.total).toBe(2);
  });

  it('checks the method chosen on the page on the hosted page', async () => {
    const link = await createLink(t, sk);
    const methods = (await t.http.get('/api/v1/payment-methods').set('Authorization', sk)).body.data as {
      id: string;
      type: string;
    }[];
    const sedad = methods.find((m) => m.type === 'sedad')!;
    const form = await openLinkForm(t, link.code);
    const res = await submitLinkForm(t, link.code, form, {
      phoneNumber: '22123456',
      paymentMethodId: sedad.id,
    });
    const hosted = await t.http.get(`/checkout/${sessionIdOf(res)}`);
    expect(hosted.text).toMatch(new RegExp(`value="${sedad.id}" data-pass-code="false" checked`));
  });
});

describe('places: a started payment holds one until its checkout session ends', () => {
  it('is full (410) while the place is held, free again once the session expires or is cancelled; the ended request is void', async () => {
    const link = await createLink(t, sk, { maxPayments: 1 });
    const first = await startLinkPayment(t, link.code);
    const full = await t.http.get(`/l/${link.code}`).set('accept-language', 'en');
    expect(full.status).toBe(410);
    expect(full.text).toContain('data-state="full"');

    await makeOverdue(t, first);
    await t.app.get(ExpireCheckoutSessionsJob).run();
    expect((await t.http.get(`/l/${link.code}`)).status).toBe(200);
    const request = await requestOf(first);
    // Its request can no longer be paid, by any route.
    expectText(
      await t.http
        .post('/api/v1/payment')
        .set('Authorization', org.sandbox.publishableKey)
        .send({ transactionId: request.transactionId, phoneNumber: '22123456', configurationId: masrivi }),
      409,
      Messages.paymentLinkRequestVoid,
    );
    expectText(
      await t.http
        .post('/api/v1/checkout-session')
        .set('Authorization', sk)
        .send({ paymentRequestId: request.id }),
      409,
      Messages.paymentLinkRequestVoid,
    );

    const second = await startLinkPayment(t, link.code);
    expect((await t.http.get(`/l/${link.code}`)).status).toBe(410);
    const hosted = await t.http.get(`/checkout/${second}`);
    const csrf = /name="_csrf" value="([^"]+)"/.exec(hosted.text)![1];
    const cookie = ([] as string[])
      .concat(hosted.headers['set-cookie'])
      .map((c) => c.split(';')[0])
      .join('; ');
    await t.http
      .post(`/checkout/${second}/cancel`)
      .set('cookie', cookie)
      .type('form')
      .send({ _csrf: csrf })
      .expect(303);
    expect((await t.http.get(`/l/${link.code}`)).status).toBe(200);
    expect((await requestOf(second)).status).toBe('pending');
    expect(
      (
        await t.query(`SELECT voided_at FROM payment_requests WHERE id = $1`, [(await requestOf(second)).id])
      )[0].voided_at,
    ).not.toBeNull();
  });

  it('keeps a place while the bank has the payment, even past the session deadline', async () => {
    const link = await createLink(t, sk, { maxPayments: 1 });
    const sessionId = await startLinkPayment(t, link.code);
    expect((await pay(sessionId, '22229003')).body.data.status).toBe('pending');
    await makeOverdue(t, sessionId);
    await t.app.get(ExpireCheckoutSessionsJob).run();
    expect((await t.http.get(`/l/${link.code}`)).status).toBe(410);
  });

  it('is exhausted (410) once paid maxPayments times, and the record counts the payments and the amount', async () => {
    const link = await createLink(t, sk, { maxPayments: 2, amount: 700 });
    for (let i = 0; i < 2; i++) {
      const sessionId = await startLinkPayment(t, link.code);
      expect((await pay(sessionId)).status).toBe(200);
    }
    const res = await t.http.get(`/l/${link.code}`).set('accept-language', 'fr');
    expect(res.status).toBe(410);
    expect(res.text).toContain('data-state="exhausted"');
    expect(res.text).toContain('Ce lien de paiement a atteint son nombre maximal de paiements.');
    const record = (await t.http.get(`/api/v1/payment-links/${link.id}`).set('Authorization', sk)).body.data;
    expect(record).toMatchObject({ paymentsCount: 2, amountCollected: 1400 });
    // Raising the limit opens it again.
    await t.http.patch(`/api/v1/payment-links/${link.id}`).set('Authorization', sk).send({ maxPayments: 3 });
    expect((await t.http.get(`/l/${link.code}`)).status).toBe(200);
  });
});

describe('after paying', () => {
  it("sends the customer to /l/:code/paid, which shows the merchant's message", async () => {
    const link = await createLink(t, sk, { successMessage: 'Merci ! Votre commande part dans l’heure.' });
    const sessionId = await startLinkPayment(t, link.code);
    const paid = await pay(sessionId);
    expect(paid.status).toBe(200);
    const status = await t.http.get(`/api/v1/checkout-session/public/${sessionId}/payment-status`);
    const redirectUrl = new URL(status.body.data.redirectUrl as string);
    expect(redirectUrl.pathname).toBe(`/l/${link.code}/paid`);
    const page = await t.http
      .get(`${redirectUrl.pathname}${redirectUrl.search}`)
      .set('accept-language', 'fr');
    expect(page.status).toBe(200);
    expect(page.text).toContain('data-state="paid"');
    expect(page.text).toContain('Merci ! Votre commande part dans l’heure.');
    expect(page.text).toContain(`link_${link.code}_1`);
  });

  it("shows a thank-you without a message; another link's or an unpaid session goes back to the link page", async () => {
    const link = await createLink(t, sk);
    const other = await createLink(t, sk);
    const sessionId = await startLinkPayment(t, link.code);
    const unpaid = await t.http.get(`/l/${link.code}/paid?session_id=${sessionId}`);
    expect({ status: unpaid.status, location: unpaid.headers.location }).toEqual({
      status: 303,
      location: `/l/${link.code}`,
    });
    await pay(sessionId);
    const page = await t.http
      .get(`/l/${link.code}/paid?session_id=${sessionId}`)
      .set('accept-language', 'en');
    expect(page.text).toContain('Thank you, your payment has been received.');
    expect((await t.http.get(`/l/${other.code}/paid?session_id=${sessionId}`)).status).toBe(303);
    expect((await t.http.get(`/l/${link.code}/paid?session_id=nope`)).status).toBe(303);
  });
});

describe("the payment request's paymentLinkId", () => {
  it('is in the record, in the events of the request and its payments, and filters the list', async () => {
    const link = await createLink(t, sk);
    const sessionId = await startLinkPayment(t, link.code);
    await pay(sessionId);
    const request = await requestOf(sessionId);
    expect(request.paymentLinkId).toBe(link.id);
    const events = await t.query<{ kind: string; data: Record<string, unknown> }>(
      `SELECT kind, data FROM events WHERE environment_id = $1 AND (data->>'id' = $2 OR data->>'paymentRequestId' = $2)
        ORDER BY created_at`,
      [org.sandbox.environmentId, request.id],
    );
    const kinds = events.map((e) => e.kind);
    expect(kinds).toEqual(
      expect.arrayContaining([
        'payment-request-created',
        'payment-created',
        'payment-updated',
        'payment-request-updated',
      ]),
    );
    for (const e of events) {
      if (e.kind.startsWith('payment-request')) expect(e.data.paymentLinkId).toBe(link.id);
      else if (e.kind.startsWith('payment-'))
        expect((e.data.request as { paymentLinkId: string }).paymentLinkId).toBe(link.id);
    }
    const list = await t.http
      .get(`/api/v1/payment-request?paymentLinkId=${link.id}`)
      .set('Authorization', sk);
    expect(list.body.data.map((r: { id: string }) => r.id)).toEqual([request.id]);
    const csv = await t.http
      .get(`/api/v1/payment-request?paymentLinkId=${link.id}`)
      .set('Authorization', sk)
      .set('accept', 'text/csv');
    expect(csv.text.trim().split('\n')).toHaveLength(2);
    // A request made otherwise has none, and the other environment sees none of the link's.
    const plain = await t.http
      .post('/api/v1/payment-request')
      .set('Authorization', sk)
      .send({ transactionId: `plain-${Date.now()}`, amount: 10 });
    expect(plain.body.data.paymentLinkId).toBeNull();
    const production = await t.http
      .get(`/api/v1/payment-request?paymentLinkId=${link.id}`)
      .set('Authorization', org.production.secretKey);
    expect(production.body.data).toEqual([]);
    expect422(
      await t.http.get('/api/v1/payment-request?paymentLinkId=nope').set('Authorization', sk),
      'query',
      '/paymentLinkId',
    );
  });

  it('skips a transactionId the merchant already used for the next number', async () => {
    const link = await createLink(t, sk);
    await t.http
      .post('/api/v1/payment-request')
      .set('Authorization', sk)
      .send({ transactionId: `link_${link.code}_1`, amount: 10 })
      .expect(200);
    const request = await requestOf(await startLinkPayment(t, link.code));
    expect(request).toMatchObject({ transactionId: `link_${link.code}_2`, paymentLinkId: link.id });
  });
});

describe('a Production link of a merchant not verified', () => {
  it('refuses to start a payment with the reason (403)', async () => {
    const merchant = await newTenant(t, 'Boutique');
    const link = await createLink(t, merchant.production.secretKey);
    await t.query(`UPDATE organizations SET verification_status = 'unverified' WHERE id = $1`, [
      merchant.organizationId,
    ]);
    const form = await openLinkForm(t, link.code, 'en');
    const res = await submitLinkForm(t, link.code, form, { phoneNumber: '22123456' }, 'en');
    expect(res.status).toBe(403);
    expect(res.text).toContain('its account is not verified');
  });
});
