import { Messages } from '../../src/common/errors/messages';
import type { CreatedOrganization } from '../../src/organizations/organizations.service';
import { newTenant, startTestApp, TestApp } from '../helpers/app';
import { expect422, expectText } from '../helpers/http';
import { createLink } from '../helpers/payment-links';

/*
 * The payment links API (docs/payment-links.md): create, list, get, update; the record, its
 * limits and defaults, the share text, tenancy.
 */

const PUBLIC_URL = 'https://pay.example.mr';
let t: TestApp;
let org: CreatedOrganization;
let sk: string;
beforeAll(async () => {
  t = await startTestApp({ PUBLIC_URL });
  org = await newTenant(t, 'Épicerie Sebkha');
  sk = org.sandbox.secretKey;
});
afterAll(() => t.close());

const PATH = '/api/v1/payment-links';
const post = (body: unknown, key = sk) =>
  t.http
    .post(PATH)
    .set('Authorization', key)
    .send(body as object);

/** The share text a whatsappUrl carries. */
function shareText(whatsappUrl: string): string {
  const prefix = 'https://wa.me/?text=';
  expect(whatsappUrl.startsWith(prefix)).toBe(true);
  return decodeURIComponent(whatsappUrl.slice(prefix.length));
}

describe('POST /payment-links', () => {
  it('creates a fixed-amount link: the record, its url on PUBLIC_URL, its QR code and share URLs, counts at 0', async () => {
    const res = await post({
      name: 'Thiéboudienne pour 4',
      description: 'Livrée à Tevragh Zeina',
      amount: 1500,
      successMessage: 'Merci ! Livraison dans l’heure.',
    });
    expect(res.status).toBe(200);
    const link = res.body.data;
    const url = `${PUBLIC_URL}/l/${link.code}`;
    expect(link).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      code: expect.stringMatching(/^[0-9A-Za-z]{10}$/),
      url,
      name: 'Thiéboudienne pour 4',
      description: 'Livrée à Tevragh Zeina',
      amount: 1500,
      minAmount: null,
      maxAmount: null,
      maxPayments: null,
      expiresAt: null,
      successMessage: 'Merci ! Livraison dans l’heure.',
      language: 'fr',
      active: true,
      paymentsCount: 0,
      amountCollected: 0,
      qrCodeUrl: `${url}/qr.svg`,
      whatsappUrl: expect.stringMatching(/^https:\/\/wa\.me\/\?text=/),
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
  });

  it('leaves the amount to the customer when absent: between 1 and 1,000,000 by default, or the limits given', async () => {
    const free = (await post({ name: 'Don' })).body.data;
    expect(free).toMatchObject({ amount: null, minAmount: 1, maxAmount: 1_000_000 });
    const ranged = (await post({ name: 'Cotisation', minAmount: 500, maxAmount: 20_000 })).body.data;
    expect(ranged).toMatchObject({ amount: null, minAmount: 500, maxAmount: 20_000 });
    const above = (await post({ name: 'Gros don', minAmount: 2_000_000 })).body.data;
    expect(above).toMatchObject({ minAmount: 2_000_000, maxAmount: 2_000_000 });
  });

  it('draws a random 10-character base62 code, never derived from the id', async () => {
    const links = await Promise.all(Array.from({ length: 20 }, () => createLink(t, sk)));
    const codes = new Set(links.map((l) => l.code));
    expect(codes.size).toBe(20);
    for (const l of links) {
      expect(l.code).toMatch(/^[0-9A-Za-z]{10}$/);
      const hex = l.id.replace(/-/g, '');
      expect(hex.includes(l.code.toLowerCase())).toBe(false);
      expect(Buffer.from(hex, 'hex').toString('base64url').includes(l.code)).toBe(false);
    }
    // Links made one after the other share no prefix as time-ordered ids would.
    const prefixes = new Set(links.map((l) => l.code.slice(0, 4)));
    expect(prefixes.size).toBeGreaterThan(15);
  });

  it('keeps maxPayments, expiresAt and language', async () => {
    const expiresAt = new Date(Date.now() + 86_400_000).toISOString();
    const link = (await post({ name: 'Concert', amount: 300, maxPayments: 10, expiresAt, language: 'ar' }))
      .body.data;
    expect(link).toMatchObject({ maxPayments: 10, expiresAt, language: 'ar' });
  });

  it('refuses shapes with 422: name 1-120, description ≤ 500, successMessage ≤ 280, integers, maxPayments ≥ 1, language, dates', async () => {
    expect422(await post({}), 'body', '/name');
    expect422(await post({ name: '' }), 'body', '/name');
    expect422(await post({ name: 'x'.repeat(121) }), 'body', '/name');
    expect((await post({ name: 'x'.repeat(120) })).status).toBe(200);
    expect422(await post({ name: 'a', description: 'x'.repeat(501) }), 'body', '/description');
    expect422(await post({ name: 'a', successMessage: 'x'.repeat(281) }), 'body', '/successMessage');
    expect(
      (await post({ name: 'a', successMessage: 'x'.repeat(280), description: 'y'.repeat(500) })).status,
    ).toBe(200);
    expect422(await post({ name: 'a', amount: '10' }), 'body', '/amount');
    expect422(await post({ name: 'a', amount: 10.5 }), 'body', '/amount');
    expect422(await post({ name: 'a', minAmount: 0 }), 'body', '/minAmount');
    expect422(await post({ name: 'a', maxAmount: 100_000_001 }), 'body', '/maxAmount');
    expect422(await post({ name: 'a', maxPayments: 0 }), 'body', '/maxPayments');
    expect422(await post({ name: 'a', maxPayments: 1.5 }), 'body', '/maxPayments');
    expect422(await post({ name: 'a', language: 'de' }), 'body', '/language');
    expect422(await post({ name: 'a', expiresAt: 'tomorrow' }), 'body', '/expiresAt');
    expect422(await post({ name: 'a\u0000b' }), 'body', '/name');
  });

  it('refuses rules with 400: the amount rules, limits with an amount, min above max, a past expiresAt', async () => {
    expectText(await post({ name: 'a', amount: 0 }), 400, Messages.amountNotPositive);
    expectText(await post({ name: 'a', amount: -5 }), 400, Messages.amountNotPositive);
    expectText(await post({ name: 'a', amount: 100_000_001 }), 400, Messages.amountTooLarge);
    expectText(
      await post({ name: 'a', amount: 100, minAmount: 50 }),
      400,
      Messages.paymentLinkAmountLimitsWithAmount,
    );
    expectText(
      await post({ name: 'a', minAmount: 500, maxAmount: 100 }),
      400,
      Messages.paymentLinkMinAboveMax,
    );
    expectText(
      await post({ name: 'a', expiresAt: new Date(Date.now() - 1000).toISOString() }),
      400,
      Messages.paymentLinkExpiresAtPast,
    );
  });

  it('needs a secret key; a Production key of an unverified organization is 403', async () => {
    expectText(await post({ name: 'a' }, org.sandbox.publishableKey), 403, Messages.unauthorizedAccess);
    expectText(await t.http.post(PATH).send({ name: 'a' }), 401, Messages.apiKeyRequired);
    const unverified = await newTenant(t, 'Boutique', { verification: 'unverified' });
    expectText(
      await post({ name: 'a' }, unverified.production.secretKey),
      403,
      Messages.organizationNotVerified,
    );
    expect((await post({ name: 'a' }, unverified.sandbox.secretKey)).status).toBe(200);
  });
});

describe('the share text (whatsappUrl)', () => {
  it.each([
    ['fr', 'Montant : 2500 MRU', 'Payez ici :'],
    ['ar', 'المبلغ: 2500 MRU', 'ادفع هنا:'],
    ['en', 'Amount: 2500 MRU', 'Pay here:'],
  ])('is in the link language (%s): the name, the amount and the URL', async (language, amount, pay) => {
    const link = await createLink(t, sk, { name: 'Méchoui du vendredi', amount: 2500, language });
    const text = shareText(link.whatsappUrl);
    expect(text).toBe(`Méchoui du vendredi\n${amount}\n${pay} ${link.url}`);
    expect(text).toContain('2500');
    expect(text).toContain(link.url);
  });

  it.each([
    ['fr', 'montant libre'],
    ['ar', 'مبلغ حر'],
    ['en', 'any amount'],
  ])('says the customer chooses the amount (%s)', async (language, words) => {
    const link = await createLink(t, sk, { name: 'Don à la mosquée', amount: undefined, language });
    const text = shareText(link.whatsappUrl);
    expect(text).toContain('Don à la mosquée');
    expect(text).toContain(words);
    expect(text).toContain(link.url);
  });

  it('percent-encodes everything a URL cannot carry (spaces, new lines, & and # in the name)', async () => {
    const link = await createLink(t, sk, { name: 'Thé & café #1' });
    expect(link.whatsappUrl).not.toMatch(/[ \n#]|&(?!$)/);
    expect(shareText(link.whatsappUrl).split('\n')[0]).toBe('Thé & café #1');
    expect(new URL(link.whatsappUrl).searchParams.get('text')).toBe(shareText(link.whatsappUrl));
  });
});

describe('GET /payment-links and /payment-links/:id', () => {
  it('lists the environment links newest first, filtered by active, paged', async () => {
    const own = await newTenant(t);
    const a = await createLink(t, own.sandbox.secretKey, { name: 'A' });
    const b = await createLink(t, own.sandbox.secretKey, { name: 'B' });
    const c = await createLink(t, own.sandbox.secretKey, { name: 'C' });
    await t.http
      .patch(`${PATH}/${b.id}`)
      .set('Authorization', own.sandbox.secretKey)
      .send({ active: false })
      .expect(200);
    const list = async (query: string) =>
      (await t.http.get(`${PATH}${query}`).set('Authorization', own.sandbox.secretKey).expect(200)).body;
    expect((await list('')).data.map((l: { id: string }) => l.id)).toEqual([c.id, b.id, a.id]);
    expect((await list('?active=true')).data.map((l: { id: string }) => l.id)).toEqual([c.id, a.id]);
    expect((await list('?active=false')).data.map((l: { id: string }) => l.id)).toEqual([b.id]);
    expect(await list('?limit=2&page=2')).toEqual({
      data: [expect.objectContaining({ id: a.id })],
      pagination: { page: 2, limit: 2, total: 3, totalPages: 2 },
    });
    expect422(
      await t.http.get(`${PATH}?active=yes`).set('Authorization', own.sandbox.secretKey),
      'query',
      '/active',
    );
  });

  it('finds a link of the key environment only: the other environment and other organizations get 404', async () => {
    const link = await createLink(t, sk);
    const get = (key: string, id = link.id) => t.http.get(`${PATH}/${id}`).set('Authorization', key);
    expect((await get(sk)).body.data).toEqual(link);
    expectText(await get(org.production.secretKey), 404, Messages.paymentLinkNotFound);
    const other = await newTenant(t);
    expectText(await get(other.sandbox.secretKey), 404, Messages.paymentLinkNotFound);
    expect((await t.http.get(PATH).set('Authorization', other.sandbox.secretKey)).body.data).toEqual([]);
    expectText(
      await t.http
        .patch(`${PATH}/${link.id}`)
        .set('Authorization', other.sandbox.secretKey)
        .send({ active: false }),
      404,
      Messages.paymentLinkNotFound,
    );
    expect422(await get(sk, 'not-a-uuid'), 'params', '/id');
  });
});

describe('PATCH /payment-links/:id', () => {
  it('changes name, description, active, maxPayments, expiresAt and successMessage, never the amount', async () => {
    const link = await createLink(t, sk, { description: 'x', successMessage: 'Merci' });
    const expiresAt = new Date(Date.now() + 3_600_000).toISOString();
    const res = await t.http.patch(`${PATH}/${link.id}`).set('Authorization', sk).send({
      name: 'Nouveau nom',
      description: null,
      active: false,
      maxPayments: 3,
      expiresAt,
      successMessage: null,
      amount: 99,
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      name: 'Nouveau nom',
      description: null,
      active: false,
      maxPayments: 3,
      expiresAt,
      successMessage: null,
      amount: 1500,
      code: link.code,
    });
    expect(shareText(res.body.data.whatsappUrl).split('\n')[0]).toBe('Nouveau nom');
    const cleared = await t.http
      .patch(`${PATH}/${link.id}`)
      .set('Authorization', sk)
      .send({ maxPayments: null, expiresAt: null, active: true });
    expect(cleared.body.data).toMatchObject({ maxPayments: null, expiresAt: null, active: true });
  });

  it('refuses a past expiresAt (400) and bad shapes (422)', async () => {
    const link = await createLink(t, sk);
    const patch = (body: object) => t.http.patch(`${PATH}/${link.id}`).set('Authorization', sk).send(body);
    expectText(await patch({ expiresAt: '2020-01-01T00:00:00Z' }), 400, Messages.paymentLinkExpiresAtPast);
    expect422(await patch({ name: '' }), 'body', '/name');
    expect422(await patch({ active: 'no' }), 'body', '/active');
    expect422(await patch({ maxPayments: 0 }), 'body', '/maxPayments');
    expectText(
      await t.http
        .patch(`${PATH}/00000000-0000-4000-8000-000000000000`)
        .set('Authorization', sk)
        .send({ active: false }),
      404,
      Messages.paymentLinkNotFound,
    );
  });
});
