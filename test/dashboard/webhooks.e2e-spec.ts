import { createHmac } from 'node:crypto';
import { startTestApp, startWorkerApp, TestApp } from '../helpers/app';
import { DASHBOARD_ENV, relLink, signedInOwner, unescapeHtml } from '../helpers/dashboard';
import { waitFor } from '../helpers/poll';
import { Receiver, WORKER_ENV } from '../webhooks/receiver';

/** Webhooks in the dashboard: endpoints (add, edit, disable, delete, rotate, test) and the delivery log with replay. */
let t: TestApp;
const receivers: Receiver[] = [];
beforeAll(async () => {
  t = await startWorkerApp({ ...DASHBOARD_ENV, ...WORKER_ENV });
});
afterAll(async () => {
  await Promise.all(receivers.map((r) => r.stop()));
  await t.close();
});

async function receiver(answer: (n: number) => [number, string]) {
  const r = new Receiver((n, _hit, res) => {
    const [status, body] = answer(n);
    res.writeHead(status, { 'content-type': 'text/plain' }).end(body);
  });
  receivers.push(r);
  await r.start();
  return r;
}

const secretOf = (html: string) => {
  const m = /data-testid="webhook-secret">([^<]+)</.exec(html);
  return m ? unescapeHtml(m[1]) : undefined;
};
const endpointIdOf = (html: string) => /href="\/dashboard\/webhooks\/([0-9a-f-]{36})"/.exec(html)?.[1];

it('adds an endpoint: its secret shown once, and the events it chose are what it receives', async () => {
  const { org, browser } = await signedInOwner(t);
  const r = await receiver(() => [200, 'ok']);
  await browser.get('/dashboard/webhooks');
  const res = await browser.post('/dashboard/webhooks', {
    url: r.url,
    events: ['payment-request-created', 'payment-created'],
  });
  expect(res.status).toBe(200);
  const secret = secretOf(res.text)!;
  expect(secret).toMatch(/^whsec_/);
  const list = await browser.get('/dashboard/webhooks');
  expect(list.text).toContain(r.url);
  expect(list.text).not.toContain(secret);
  const id = endpointIdOf(list.text)!;
  expect((await browser.get(`/dashboard/webhooks/${id}`)).text).not.toContain(secret);

  await t.http
    .post('/api/v1/payment-request')
    .set('Authorization', org.sandbox.secretKey)
    .send({ transactionId: 'wh-1', amount: 10 });
  const hit = await waitFor(() => r.hits[0], 'the delivery');
  expect(hit.headers['x-webhook-signature']).toBe(
    `sha256=${createHmac('sha256', secret).update(hit.raw).digest('hex')}`,
  );
  const [row] = await t.query('SELECT events FROM webhook_endpoints WHERE id = $1', [id]);
  expect(row.events).toEqual(['payment-request-created', 'payment-created']);
});

it('refuses an invalid URL, no events, and a private address in either environment, keeping what was typed', async () => {
  // Private addresses refused, as in a deployment (this suite's app allows them for its receivers).
  const strict = await startTestApp({ ...DASHBOARD_ENV, WEBHOOK_ALLOW_PRIVATE_URLS: 'false' });
  try {
    const { browser } = await signedInOwner(strict);
    await browser.get('/dashboard/webhooks');
    const bad = await browser.post('/dashboard/webhooks', { url: 'ftp://example.com/x', events: [] });
    expect(bad.status).toBe(200);
    expect(bad.text).toContain('Enter an absolute http or https URL.');
    expect(bad.text).toContain('Choose at least one event.');
    expect(bad.text).toContain('value="ftp://example.com/x"');
    for (const environment of ['sandbox', 'production']) {
      await browser.post('/dashboard/environment', { environment, return: '/dashboard/webhooks' });
      await browser.get('/dashboard/webhooks');
      const priv = await browser.post('/dashboard/webhooks', {
        url: 'http://127.0.0.1:9/x',
        events: ['payment-created'],
      });
      expect(priv.text).toContain('The URL must be a public address.');
      expect(priv.text).toContain('value="http://127.0.0.1:9/x"');
      expect(secretOf(priv.text)).toBeUndefined();
    }
  } finally {
    await strict.close();
  }
});

it('edits, disables, enables and deletes an endpoint', async () => {
  const { org, browser } = await signedInOwner(t);
  await browser.get('/dashboard/webhooks');
  await browser.post('/dashboard/webhooks', { url: 'http://127.0.0.1:9/a', events: ['payment-created'] });
  const id = endpointIdOf((await browser.get('/dashboard/webhooks')).text)!;
  await browser.get(`/dashboard/webhooks/${id}`);
  const edit = await browser.post(`/dashboard/webhooks/${id}`, {
    url: 'http://127.0.0.1:9/b',
    events: ['payment-updated', 'invoice-paid'],
  });
  expect({ status: edit.status, location: edit.headers.location }).toEqual({
    status: 303,
    location: `/dashboard/webhooks/${id}?notice=endpointSaved`,
  });
  const read = async () =>
    (await t.query('SELECT url, events, enabled FROM webhook_endpoints WHERE id = $1', [id]))[0];
  expect(await read()).toEqual({
    url: 'http://127.0.0.1:9/b',
    events: ['payment-updated', 'invoice-paid'],
    enabled: true,
  });
  expect((await browser.post(`/dashboard/webhooks/${id}/disable`)).status).toBe(303);
  expect((await read()).enabled).toBe(false);
  const page = await browser.get(`/dashboard/webhooks/${id}`);
  expect(page.text).toContain('data-testid="endpoint-status">Disabled');
  expect((await browser.post(`/dashboard/webhooks/${id}/enable`)).status).toBe(303);
  expect((await read()).enabled).toBe(true);
  const del = await browser.post(`/dashboard/webhooks/${id}/delete`);
  expect(del.headers.location).toBe('/dashboard/webhooks?notice=endpointDeleted');
  expect(await t.query('SELECT 1 FROM webhook_endpoints WHERE id = $1', [id])).toEqual([]);
  expect((await browser.get(`/dashboard/webhooks/${id}`)).status).toBe(404);
  void org;
});

it('rotates the secret: the new one is shown once, and the old one still signs for 24 hours', async () => {
  const { browser } = await signedInOwner(t);
  await browser.get('/dashboard/webhooks');
  const created = await browser.post('/dashboard/webhooks', {
    url: 'http://127.0.0.1:9/r',
    events: ['payment-created'],
  });
  const first = secretOf(created.text)!;
  const id = endpointIdOf((await browser.get('/dashboard/webhooks')).text)!;
  await browser.get(`/dashboard/webhooks/${id}`);
  const rotated = await browser.post(`/dashboard/webhooks/${id}/rotate-secret`);
  const second = secretOf(rotated.text)!;
  expect(second).toMatch(/^whsec_/);
  expect(second).not.toBe(first);
  expect(rotated.text).toContain('The old one keeps signing deliveries for 24 hours.');
  const [row] = await t.query(
    `SELECT secret, previous_secret, extract(epoch FROM previous_secret_expires_at - now())::int AS left
       FROM webhook_endpoints WHERE id = $1`,
    [id],
  );
  expect(row.secret).toBe(second);
  expect(row.previous_secret).toBe(first);
  expect(Math.abs(row.left - 86_400)).toBeLessThan(60);
  expect((await browser.get(`/dashboard/webhooks/${id}`)).text).not.toContain(second);
});

it('sends a test event to the endpoint and shows its delivery with each attempt: status code, time, response', async () => {
  const { browser } = await signedInOwner(t);
  const r = await receiver((n) => (n === 0 ? [503, 'busy, come back later'] : [200, 'thanks']));
  await browser.get('/dashboard/webhooks');
  await browser.post('/dashboard/webhooks', {
    url: r.url,
    events: ['payment-request-created', 'payment-updated'],
  });
  const id = endpointIdOf((await browser.get('/dashboard/webhooks')).text)!;
  await browser.get(`/dashboard/webhooks/${id}`);
  const sent = await browser.post(`/dashboard/webhooks/${id}/test`, { event: 'payment-updated' });
  expect(sent.status).toBe(303);
  const deliveryPage = sent.headers.location;
  expect(deliveryPage).toMatch(/^\/dashboard\/webhooks\/deliveries\/[0-9a-f-]{36}\?notice=testSent$/);
  await waitFor(() => r.hits.length >= 2 || undefined, 'the retry');
  const hit = r.hits[1];
  expect(hit.body).toMatchObject({ event: 'payment-updated', data: { test: true } });
  const page = await waitFor(async () => {
    const res = await browser.get(deliveryPage);
    return (res.text.match(/data-testid="attempt"/g) ?? []).length === 2 ? res : undefined;
  }, 'both attempts in the log');
  expect(page.text).toContain('Test event sent.');
  expect(page.text).toContain('data-testid="attempt-status">503');
  expect(page.text).toContain('data-testid="attempt-status">200');
  expect(page.text).toContain('busy, come back later');
  expect(page.text).toMatch(/\d+ ms/);
  expect(unescapeHtml(page.text)).toContain('"test": true');
  // Only the endpoint's events can be sent.
  expect((await browser.post(`/dashboard/webhooks/${id}/test`, { event: 'invoice-paid' })).status).toBe(400);
});

it('lists deliveries with filters and keyset pages, and replays one from the log', async () => {
  const { org, browser } = await signedInOwner(t);
  let down = true;
  const r = await receiver(() => (down ? [500, 'down'] : [200, 'up']));
  const other = await receiver(() => [200, 'ok']);
  await browser.get('/dashboard/webhooks');
  await browser.post('/dashboard/webhooks', { url: r.url, events: ['payment-request-created'] });
  await browser.get('/dashboard/webhooks');
  await browser.post('/dashboard/webhooks', { url: other.url, events: ['payment-request-created'] });
  const [failing] = await t.query('SELECT id FROM webhook_endpoints WHERE url = $1', [r.url]);
  const [working] = await t.query('SELECT id FROM webhook_endpoints WHERE url = $1', [other.url]);
  for (let i = 0; i < 14; i++)
    await t.http
      .post('/api/v1/payment-request')
      .set('Authorization', org.sandbox.secretKey)
      .send({ transactionId: `log-${i}`, amount: 10 });
  // Every retry of the failing endpoint fails (WORKER_ENV: five quick retries), then the deliveries are failed.
  await waitFor(
    async () =>
      (
        await t.query(
          `SELECT count(*)::int AS n FROM webhook_deliveries WHERE endpoint_id = $1 AND status = 'failed'`,
          [failing.id],
        )
      )[0].n === 14 || undefined,
    'the failing deliveries to fail',
    30_000,
  );
  const all = await browser.get('/dashboard/webhooks/deliveries');
  expect((all.text.match(/data-testid="delivery" /g) ?? []).length).toBe(25);
  const second = await browser.get(relLink(all.text, 'next')!);
  expect((second.text.match(/data-testid="delivery" /g) ?? []).length).toBe(3);
  const failed = await browser.get(`/dashboard/webhooks/deliveries?status=failed&endpointId=${failing.id}`);
  const rows = [...failed.text.matchAll(/data-testid="delivery" data-id="([^"]+)"/g)].map((m) => m[1]);
  expect(rows).toHaveLength(14);
  expect(failed.text).not.toContain(`href="/dashboard/webhooks/${working.id}"`);
  expect(failed.text).toContain(`href="/dashboard/webhooks/${failing.id}"`);

  down = false;
  const before = r.hits.length;
  const replay = await browser.post(`/dashboard/webhooks/deliveries/${rows[0]}/replay`, {
    return: `/dashboard/webhooks/deliveries?status=failed&endpointId=${failing.id}`,
  });
  expect(replay.status).toBe(303);
  expect(replay.headers.location).toBe(
    `/dashboard/webhooks/deliveries?status=failed&endpointId=${failing.id}&notice=replayed`,
  );
  await waitFor(() => r.hits.length > before || undefined, 'the replayed delivery');
  const delivered = await waitFor(async () => {
    const res = await browser.get(`/dashboard/webhooks/deliveries/${rows[0]}`);
    return res.text.includes('data-testid="delivery-status">Succeeded') ? res : undefined;
  }, 'the replay to succeed');
  expect((delivered.text.match(/data-testid="attempt"/g) ?? []).length).toBe(7);
  // Same event, same webhook-id: the receiver can tell it is a replay.
  const replayed = r.hits[r.hits.length - 1];
  expect(r.hits.filter((h) => h.headers['webhook-id'] === replayed.headers['webhook-id']).length).toBe(7);
});

it('answered every page once: nothing in the log says a reply was sent twice, nor any error of the dashboard', () => {
  expect(t.logs.filter((l) => /FST_ERR_REP_ALREADY_SENT|DashboardErrorFilter/.test(l))).toEqual([]);
});
