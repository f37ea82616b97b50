import { Client } from 'pg';
import type { CreatedOrganization } from '../../src/organizations/organizations.service';
import { EVENT_KINDS } from '../../src/webhooks/event-kinds';
import { newTenant, startTestApp, TestApp } from '../helpers/app';
import { DASHBOARD_ENV, DashboardBrowser, relLink, signedInOwner } from '../helpers/dashboard';

/** Monitoring: search and filters with keyset pages, a request's whole story, the overview's totals. */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp(DASHBOARD_ENV);
});
afterAll(() => t.close());

const ids = (html: string, testid = 'payment-request') =>
  [...html.matchAll(new RegExp(`data-testid="${testid}" data-id="([^"]+)"`, 'g'))].map((m) => m[1]);

async function create(org: CreatedOrganization, transactionId: string, amount: number, phoneNumber?: string) {
  const res = await t.http
    .post('/api/v1/payment-request')
    .set('Authorization', org.sandbox.secretKey)
    .send({ transactionId, amount, ...(phoneNumber && { phoneNumber }) });
  expect(res.status).toBe(200);
  return res.body.data as { id: string };
}

async function methods(org: CreatedOrganization): Promise<Record<string, string>> {
  const res = await t.http.get('/api/v1/payment-methods').set('Authorization', org.sandbox.publishableKey);
  return Object.fromEntries((res.body.data as { type: string; id: string }[]).map((m) => [m.type, m.id]));
}

/** Pays through the API with the Sandbox bank: a phone ending 9001 is declined. */
async function pay(
  org: CreatedOrganization,
  transactionId: string,
  methodId: string,
  phoneNumber = '22222222',
) {
  const res = await t.http
    .post('/api/v1/payment')
    .set('Authorization', org.sandbox.publishableKey)
    .send({ transactionId, phoneNumber, configurationId: methodId, passCode: '1234' });
  if (res.status === 200) return res.body.data as { id: string; status: string };
  const [row] = await t.query(
    `SELECT p.id, p.status FROM payments p JOIN payment_requests pr ON pr.id = p.payment_request_id
      WHERE pr.environment_id = $1 AND pr.transaction_id = $2 ORDER BY p.created_at DESC LIMIT 1`,
    [org.sandbox.environmentId, transactionId],
  );
  return row as { id: string; status: string };
}

describe('payment requests', () => {
  it('finds a request by transactionId, by id or by phone (spaces and +222 stripped), and links to its page', async () => {
    const { org, browser } = await signedInOwner(t);
    const a = await create(org, 'order-aaa', 1500, '22123456');
    const b = await create(org, 'order-bbb', 2500, '33123456');
    await create(org, 'order-ccc', 3500);
    expect(ids((await browser.get('/dashboard/payment-requests?q=order-bbb')).text)).toEqual([b.id]);
    expect(ids((await browser.get(`/dashboard/payment-requests?q=${a.id}`)).text)).toEqual([a.id]);
    expect(
      ids(
        (await browser.get(`/dashboard/payment-requests?q=${encodeURIComponent('+222 33 12 34 56')}`)).text,
      ),
    ).toEqual([b.id]);
    const none = await browser.get('/dashboard/payment-requests?q=order');
    expect(ids(none.text)).toEqual([]);
    expect(none.text).toContain('No results.');
    const all = await browser.get('/dashboard/payment-requests');
    expect(ids(all.text)).toHaveLength(3);
    expect(all.text).toContain(`href="/dashboard/payment-requests/${a.id}"`);
  });

  it('filters by status, dates and amount, and the filters combine', async () => {
    const { org, browser } = await signedInOwner(t);
    const m = await methods(org);
    const small = await create(org, 'f-small', 100);
    const big = await create(org, 'f-big', 90_000);
    const old = await create(org, 'f-old', 5000);
    await pay(org, 'f-big', m.masrivi);
    await t.query(`UPDATE payment_requests SET created_at = '2025-01-15T10:00:00Z' WHERE id = $1`, [old.id]);
    const get = async (q: string) => ids((await browser.get(`/dashboard/payment-requests?${q}`)).text);
    expect(await get('status=paid')).toEqual([big.id]);
    expect((await get('status=pending')).sort()).toEqual([small.id, old.id].sort());
    expect(await get('from=2025-01-15&to=2025-01-15')).toEqual([old.id]);
    expect(await get('to=2025-01-14')).toEqual([]);
    expect(await get('amountMin=1000&amountMax=10000')).toEqual([old.id]);
    expect(await get('amountMin=1000&status=pending')).toEqual([old.id]);
    // A filter that does not parse is left out, not an error.
    expect((await get('status=bogus&from=yesterday&amountMin=-5')).length).toBe(3);
  });

  it('pages by keyset: each request once, newest first, ties on created_at broken by id, and back again', async () => {
    const { org, browser } = await signedInOwner(t);
    // 60 requests in 3 instants: 20 share each created_at, so only the id orders them.
    await t.query(
      `INSERT INTO payment_requests (id, environment_id, transaction_id, amount, created_at, updated_at)
       SELECT gen_random_uuid(), $1, 'k-' || i, 100 + i, t, t
         FROM generate_series(1, 60) i, LATERAL (SELECT now() - (i % 3) * interval '1 minute' AS t) x`,
      [org.sandbox.environmentId],
    );
    const expected = (
      await t.query(
        `SELECT id FROM payment_requests WHERE environment_id = $1 ORDER BY created_at DESC, id DESC`,
        [org.sandbox.environmentId],
      )
    ).map((r) => r.id);
    const seen: string[] = [];
    const pages: string[] = [];
    let path: string | undefined = '/dashboard/payment-requests';
    while (path) {
      const res = await browser.get(path);
      pages.push(path);
      seen.push(...ids(res.text));
      path = relLink(res.text, 'next');
    }
    expect(seen).toEqual(expected);
    expect(pages).toHaveLength(3);
    const third = await browser.get(pages[2]);
    const previous = relLink(third.text, 'prev')!;
    expect(ids((await browser.get(previous)).text)).toEqual(expected.slice(25, 50));
  });

  it('keeps the filters across pages', async () => {
    const { org, browser } = await signedInOwner(t);
    await t.query(
      `INSERT INTO payment_requests (id, environment_id, transaction_id, amount, phone_number)
       SELECT gen_random_uuid(), $1, 'p-' || i, 100, CASE WHEN i % 2 = 0 THEN '22334455' ELSE '33445566' END
         FROM generate_series(1, 60) i`,
      [org.sandbox.environmentId],
    );
    const first = await browser.get('/dashboard/payment-requests?q=22334455');
    const next = relLink(first.text, 'next')!;
    expect(next).toContain('q=22334455');
    const rows = [...ids(first.text), ...ids((await browser.get(next)).text)];
    expect(rows).toHaveLength(30);
  });

  it('never reads with OFFSET nor counts the whole list', async () => {
    const { org, browser } = await signedInOwner(t);
    await create(org, 'no-offset', 100);
    const first = await browser.get('/dashboard/payment-requests');
    const spy = jest.spyOn(Client.prototype, 'query');
    try {
      await browser.get('/dashboard/payment-requests?status=pending&amountMin=1');
      await browser.get('/dashboard/payments?status=completed');
      await browser.get('/dashboard/webhooks/deliveries?status=failed');
      const statements = spy.mock.calls.map((c) =>
        String(typeof c[0] === 'string' ? c[0] : (c[0] as { text: string }).text),
      );
      expect(statements.filter((s) => /\bOFFSET\b|count\(\*\)/i.test(s))).toEqual([]);
    } finally {
      spy.mockRestore();
    }
    expect(first.status).toBe(200);
  });

  it("shows a request's page: its payments, checkout sessions and the webhook deliveries about it", async () => {
    const { org, browser } = await signedInOwner(t);
    const m = await methods(org);
    await t.http
      .post('/api/v1/webhook-endpoints')
      .set('Authorization', org.sandbox.secretKey)
      .send({ url: 'http://127.0.0.1:9/all', events: [...EVENT_KINDS] });
    const session = await t.http
      .post('/api/v1/checkout-session')
      .set('Authorization', org.sandbox.secretKey)
      .send({ transactionId: 'story-1', amount: 7000, phoneNumber: '22123456' });
    const requestId = session.body.data.paymentRequestId as string;
    const failed = await pay(org, 'story-1', m.sedad, '22229001');
    const completed = await pay(org, 'story-1', m.masrivi);
    expect([failed.status, completed.status]).toEqual(['failed', 'completed']);
    // Another request's events are not this one's.
    await create(org, 'story-2', 100);

    const res = await browser.get(`/dashboard/payment-requests/${requestId}`);
    expect(res.status).toBe(200);
    expect(res.text).toContain('Payment request story-1');
    expect(res.text).toMatch(/7,000 MRU/);
    expect(res.text).toContain('data-testid="request-status">Paid');
    expect(res.text).toContain(`id="payment-${failed.id}"`);
    expect(res.text).toContain(`id="payment-${completed.id}"`);
    expect(res.text).toContain('Sedad');
    expect(res.text).toContain(session.body.data.id);
    expect((res.text.match(/data-testid="checkout-session"/g) ?? []).length).toBe(1);
    const events = (res.text.match(/data-testid="delivery" /g) ?? []).length;
    const [{ n }] = await t.query(
      `SELECT count(*)::int AS n FROM events WHERE environment_id = $1
          AND (data->>'id' = $2 OR data->>'paymentRequestId' = $2)`,
      [org.sandbox.environmentId, requestId],
    );
    // payment-request-created and -updated, payment-created and -updated twice, checkout-session-completed.
    expect(n).toBe(7);
    expect(events).toBe(7);
    for (const kind of [
      'payment-request-created',
      'payment-created',
      'payment-updated',
      'payment-request-updated',
      'checkout-session-completed',
    ])
      expect(res.text).toContain(`>${kind}</a>`);
  });

  it('answers an unknown or malformed id with the 404 page', async () => {
    const { browser } = await signedInOwner(t);
    expect(
      (await browser.get('/dashboard/payment-requests/0b7a5c0e-1d7e-4f43-9a44-7d1b0f0a0009')).status,
    ).toBe(404);
    expect((await browser.get('/dashboard/payment-requests/not-a-uuid')).status).toBe(404);
  });
});

describe('payments', () => {
  it('lists payments with their bank app, filtered by status, bank app, transactionId, id or phone', async () => {
    const { org, browser } = await signedInOwner(t);
    const m = await methods(org);
    await create(org, 'pay-1', 1000);
    await create(org, 'pay-2', 2000);
    const declined = await pay(org, 'pay-1', m.masrivi, '33339001');
    const ok = await pay(org, 'pay-1', m.sedad, '33334444');
    const other = await pay(org, 'pay-2', m.masrivi, '44445555');
    const get = async (q: string) => ids((await browser.get(`/dashboard/payments?${q}`)).text, 'payment');
    expect(await get('')).toEqual([other.id, ok.id, declined.id]);
    expect(await get('status=failed')).toEqual([declined.id]);
    expect(await get(`method=${m.masrivi}`)).toEqual([other.id, declined.id]);
    expect(await get('q=pay-1')).toEqual([ok.id, declined.id]);
    expect(await get(`q=${ok.id}`)).toEqual([ok.id]);
    expect(await get('q=44445555')).toEqual([other.id]);
    expect(await get('status=completed&q=pay-1')).toEqual([ok.id]);
    const page = await browser.get('/dashboard/payments');
    expect(page.text).toContain('Sedad');
    expect(page.text).toContain('Failed');
  });
});

describe('the overview', () => {
  it('totals today, the last 7 and 30 days: count and amount paid, requests created, success rate per bank app', async () => {
    // Seeded before anyone looks: the days before yesterday are read once, then kept.
    const org = await newTenant(t);
    const m = await methods(org);
    const seed = async (tx: string, amount: number, method: string, ok: boolean, daysAgo: number) => {
      await create(org, tx, amount);
      const p = await pay(org, tx, method, ok ? '22222222' : '22229001');
      await t.query(
        `UPDATE payments SET created_at = created_at - make_interval(days => $2),
                completed_at = completed_at - make_interval(days => $2) WHERE id = $1`,
        [p.id, daysAgo],
      );
      await t.query(
        `UPDATE payment_requests SET created_at = created_at - make_interval(days => $2)
          WHERE environment_id = $1 AND transaction_id = $3`,
        [org.sandbox.environmentId, daysAgo, tx],
      );
    };
    await seed('t1', 1000, m.masrivi, true, 0);
    await seed('t2', 500, m.sedad, true, 0);
    await seed('t3', 800, m.masrivi, false, 0);
    await seed('w1', 2000, m.masrivi, true, 3);
    await seed('m1', 4000, m.sedad, true, 20);
    await seed('m2', 300, m.sedad, false, 20);
    await seed('old', 9000, m.masrivi, true, 40);

    const browser = new DashboardBrowser(t);
    await browser.signIn(org.email, org.password);
    const res = await browser.get('/dashboard');
    const cards = [...res.text.matchAll(/<section class="card stat"[\s\S]*?<\/section>/g)].map((c) =>
      [...c[0].matchAll(/<dd[^>]*>([\s\S]*?)<\/dd>/g)].map((d) =>
        d[1].replace(/<[^>]+>/g, '').replace(/\s/g, ' '),
      ),
    );
    // amount paid, payments received, requests created, success rate
    expect(cards).toEqual([
      ['1,500 MRU', '2', '3', '67%'],
      ['3,500 MRU', '3', '4', '75%'],
      ['7,500 MRU', '4', '6', '67%'],
    ]);
    const rates = /data-testid="method-rates"[\s\S]*?<\/table>/.exec(res.text)![0];
    expect(rates).toMatch(/Masrivi<\/th><td[^>]*><strong>50%<\/strong> <span class="muted">1 of 2 succeeded/);
    expect(rates).toMatch(
      /Sedad<\/th><td[^>]*><strong>100%<\/strong>[\s\S]*?<strong>67%<\/strong> <span class="muted">2 of 3 succeeded/,
    );
    // The chart: 30 days, and today's bar is the tallest but one.
    const bars = [...res.text.matchAll(/<rect class="bar"[^>]*height="([\d.]+)"><title>([^<]+)<\/title>/g)];
    expect(bars).toHaveLength(30);
    expect(bars[29][2]).toMatch(/1,500 MRU, 2 payment\(s\)$/);
    expect(Number(bars[9][1])).toBeGreaterThan(Number(bars[29][1]));
  });

  it('shows the other environment empty', async () => {
    const { org, browser } = await signedInOwner(t);
    await create(org, 'sandbox-only', 100);
    await browser.post('/dashboard/environment', { environment: 'production', return: '/dashboard' });
    const res = await browser.get('/dashboard');
    expect(res.text).not.toContain('sandbox-only');
    expect(res.text).toContain('No payments received in the last 30 days.');
  });
});

describe('payment methods', () => {
  it("lists the environment's bank apps with the id to pay with", async () => {
    const { org, browser } = await signedInOwner(t);
    const m = await methods(org);
    const res = await browser.get('/dashboard/payment-methods');
    for (const id of Object.values(m)) expect(res.text).toContain(id);
    // The three bank apps and the transfer method, which the page offers to turn on.
    expect((res.text.match(/data-testid="payment-method"/g) ?? []).length).toBe(4);
  });
});

it('answered every page once: nothing in the log says a reply was sent twice, nor any error of the dashboard', () => {
  expect(t.logs.filter((l) => /FST_ERR_REP_ALREADY_SENT|DashboardErrorFilter/.test(l))).toEqual([]);
});
