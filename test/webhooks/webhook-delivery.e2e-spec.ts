import { createHmac } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import type { CreatedOrganization } from '../../src/organizations/organizations.service';
import { newTenant, recordEvent, startWorkerApp, TestApp } from '../helpers/app';
import { waitFor } from '../helpers/poll';
import { ok, Receiver, WORKER_ENV } from './receiver';

let t: TestApp;
const receivers: Receiver[] = [];
beforeAll(async () => {
  t = await startWorkerApp(WORKER_ENV);
});
afterAll(async () => {
  await Promise.all(receivers.map((r) => r.stop()));
  await t.close();
});

async function receiver(behaviour = ok): Promise<Receiver> {
  const r = new Receiver(behaviour);
  receivers.push(r);
  await r.start();
  return r;
}

const sk = (org: CreatedOrganization) => org.sandbox.secretKey;

async function endpoint(org: CreatedOrganization, url: string, extra: Record<string, unknown> = {}) {
  const res = await t.http
    .post('/api/v1/webhook-endpoints')
    .set('Authorization', sk(org))
    .send({ url, ...extra });
  expect(res.status).toBe(200);
  return res.body.data as { id: string; secret: string };
}

async function event(org: CreatedOrganization, data: object = { id: 'obj_1' }): Promise<string> {
  return recordEvent(t, {
    organizationId: org.organizationId,
    environmentId: org.sandbox.environmentId,
    kind: 'payment-created',
    data,
  });
}

interface DeliveryRow {
  id: string;
  status: string;
  attempts: number;
  last_status_code: number | null;
  last_error: string | null;
  last_response_snippet: string | null;
}

async function delivery(eventId: string): Promise<DeliveryRow> {
  const [row] = await t.query('SELECT * FROM webhook_deliveries WHERE event_id = $1', [eventId]);
  return row;
}

const settled = (eventId: string, status: 'succeeded' | 'failed') =>
  waitFor(async () => {
    const d = await delivery(eventId);
    return d?.status === status ? d : undefined;
  }, `delivery of ${eventId} to be ${status}`);

async function attempts(org: CreatedOrganization, deliveryId: string) {
  const res = await t.http
    .get(`/api/v1/webhook-deliveries/${deliveryId}/attempts`)
    .set('Authorization', sk(org));
  expect(res.status).toBe(200);
  return res.body.data as Array<{
    statusCode: number | null;
    durationMs: number;
    error: string | null;
    responseSnippet: string | null;
    createdAt: string;
  }>;
}

describe('webhook delivery', () => {
  it('delivers within 1 s of the commit a body and headers that plain HMAC and standardwebhooks both verify', async () => {
    const r = await receiver();
    const org = await newTenant(t);
    const e = await endpoint(org, r.url);
    const res = await t.http
      .post('/api/v1/payment-request')
      .set('Authorization', sk(org))
      .send({ transactionId: 'order_sig', amount: 1500 });
    const committedAt = Date.now();
    expect(res.status).toBe(200);
    const hit = await waitFor(() => r.hits[0], 'the delivery');
    expect(hit.at - committedAt).toBeLessThan(1000);

    expect(hit.headers['content-type']).toBe('application/json');
    expect(hit.headers['user-agent']).toBe('Khoums-Webhook/1.0');
    expect(hit.headers['x-webhook-event']).toBe('payment-request-created');
    const hmac = createHmac('sha256', e.secret).update(hit.raw).digest('hex');
    expect(hit.headers['x-webhook-signature']).toBe(`sha256=${hmac}`);
    expect(() => new Webhook(e.secret).verify(hit.raw, hit.headers as Record<string, string>)).not.toThrow();
    expect(hit.body).toEqual({
      id: hit.headers['webhook-id'],
      event: 'payment-request-created',
      createdAt: expect.any(String),
      data: res.body.data,
    });
    expect(Math.abs(Number(hit.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(60);

    const [row] = await t.query('SELECT id FROM webhook_deliveries WHERE event_id = $1', [hit.body.id]);
    const d = await settled(hit.body.id, 'succeeded');
    expect(d).toMatchObject({
      attempts: 1,
      last_status_code: 200,
      last_error: null,
      last_response_snippet: '{"received":true}',
    });
    const log = await attempts(org, row.id);
    expect(log).toEqual([
      {
        id: expect.any(String),
        statusCode: 200,
        durationMs: expect.any(Number),
        error: null,
        responseSnippet: '{"received":true}',
        createdAt: expect.any(String),
      },
    ]);
    expect(t.logs.join('\n')).not.toContain(e.secret);
  });

  it('signs with both the new and the old secret after a rotation, the legacy header with the new one', async () => {
    const r = await receiver();
    const org = await newTenant(t);
    const e = await endpoint(org, r.url);
    const rotated = await t.http
      .post(`/api/v1/webhook-endpoints/${e.id}/rotate-secret`)
      .set('Authorization', sk(org));
    const fresh = rotated.body.data.secret as string;
    await event(org);
    const hit = await waitFor(() => r.hits[0], 'the delivery');
    const headers = hit.headers as Record<string, string>;
    expect(() => new Webhook(fresh).verify(hit.raw, headers)).not.toThrow();
    expect(() => new Webhook(e.secret).verify(hit.raw, headers)).not.toThrow();
    expect(headers['x-webhook-signature']).toBe(
      `sha256=${createHmac('sha256', fresh).update(hit.raw).digest('hex')}`,
    );
  });

  it('stops signing with the old secret once its 24 h are over', async () => {
    const r = await receiver();
    const org = await newTenant(t);
    const e = await endpoint(org, r.url);
    await t.http.post(`/api/v1/webhook-endpoints/${e.id}/rotate-secret`).set('Authorization', sk(org));
    await t.query(
      `UPDATE webhook_endpoints SET previous_secret_expires_at = now() - interval '1 second' WHERE id = $1`,
      [e.id],
    );
    await event(org);
    const hit = await waitFor(() => r.hits[0], 'the delivery');
    expect(String(hit.headers['webhook-signature']).split(' ')).toHaveLength(1);
    expect(() => new Webhook(e.secret).verify(hit.raw, hit.headers as Record<string, string>)).toThrow();
  });

  it('delivers a test event through the same pipeline', async () => {
    const r = await receiver();
    const org = await newTenant(t);
    const e = await endpoint(org, r.url);
    const res = await t.http
      .post(`/api/v1/webhook-endpoints/${e.id}/test`)
      .set('Authorization', sk(org))
      .send({});
    const hit = await waitFor(() => r.hits[0], 'the test delivery');
    expect(hit.body.id).toBe(res.body.data.eventId);
    expect(hit.body.event).toBe('payment-request-created');
    expect(hit.body.data).toMatchObject({ test: true, transactionId: expect.stringMatching(/^test_/) });
    expect(() => new Webhook(e.secret).verify(hit.raw, hit.headers as Record<string, string>)).not.toThrow();
  });

  it('retries after a 500 and delivers on the retry with the same webhook-id and body', async () => {
    const r = await receiver((n, _hit, res) => {
      if (n === 0) res.writeHead(500).end('boom');
      else ok(n, _hit, res);
    });
    const org = await newTenant(t);
    await endpoint(org, r.url);
    const id = await event(org);
    const d = await settled(id, 'succeeded');
    expect(r.hits).toHaveLength(2);
    expect(r.hits.map((h) => h.headers['webhook-id'])).toEqual([id, id]);
    expect(r.hits[1].raw.equals(r.hits[0].raw)).toBe(true);
    expect(d.attempts).toBe(2);
    const log = await attempts(org, d.id);
    expect(log.map((a) => [a.statusCode, a.error, a.responseSnippet])).toEqual([
      [500, 'HTTP 500', 'boom'],
      [200, null, '{"received":true}'],
    ]);
  });

  it('delivers once a receiver that was down comes up', async () => {
    const r = new Receiver();
    receivers.push(r);
    const port = await r.start();
    const url = r.url;
    await r.stop();
    const org = await newTenant(t);
    await endpoint(org, url);
    const id = await event(org);
    const failed = await waitFor(
      async () => ((await delivery(id))?.attempts ? delivery(id) : undefined),
      'a failed first attempt',
    );
    expect(failed.status).toBe('pending');
    expect(failed.last_error).toMatch(/ECONNREFUSED/);
    await r.start(port);
    const d = await settled(id, 'succeeded');
    expect(r.hitsFor(id)).toHaveLength(1);
    expect(d.last_status_code).toBe(200);
  });

  it('counts a receiver that does not answer as a failure at the time-out', async () => {
    const r = await receiver(() => 'hang');
    const org = await newTenant(t);
    const e = await endpoint(org, r.url);
    const id = await event(org);
    const d = await waitFor(
      async () => ((await delivery(id))?.attempts ? delivery(id) : undefined),
      'the timed-out attempt',
    );
    await t.http
      .patch(`/api/v1/webhook-endpoints/${e.id}`)
      .set('Authorization', sk(org))
      .send({ enabled: false });
    expect(d.last_error).toBe(`Timed out after ${WORKER_ENV.WEBHOOK_TIMEOUT_MS} ms`);
    expect(d.last_status_code).toBeNull();
    const [first] = await attempts(org, d.id);
    expect(first.durationMs).toBeGreaterThanOrEqual(Number(WORKER_ENV.WEBHOOK_TIMEOUT_MS) - 5);
    expect(first.durationMs).toBeLessThan(Number(WORKER_ENV.WEBHOOK_TIMEOUT_MS) + 1000);
  });

  it('fails the delivery after the last scheduled retry, and a replay delivers it with the same webhook-id', async () => {
    let up = false;
    const r = await receiver((n, hit, res) => (up ? ok(n, hit, res) : void res.writeHead(503).end('down')));
    const org = await newTenant(t);
    await endpoint(org, r.url);
    const id = await event(org);
    const failed = await settled(id, 'failed');
    const scheduled = WORKER_ENV.WEBHOOK_RETRY_SCHEDULE_MS.split(',').length;
    expect(failed.attempts).toBe(scheduled + 1);
    expect(r.hitsFor(id)).toHaveLength(scheduled + 1);
    const listed = await t.http.get(`/api/v1/webhook-deliveries?status=failed`).set('Authorization', sk(org));
    expect(listed.body.data).toEqual([
      expect.objectContaining({
        id: failed.id,
        status: 'failed',
        attempts: scheduled + 1,
        lastStatusCode: 503,
        nextAttemptAt: null,
      }),
    ]);

    up = true;
    const replay = await t.http
      .post(`/api/v1/webhook-deliveries/${failed.id}/retry`)
      .set('Authorization', sk(org));
    expect(replay.status).toBe(200);
    expect(replay.body.data).toMatchObject({ id: failed.id, status: 'pending' });
    const d = await settled(id, 'succeeded');
    expect(d.attempts).toBe(scheduled + 2);
    expect(new Set(r.hitsFor(id).map((h) => h.raw.toString()))).toEqual(new Set([r.hits[0].raw.toString()]));
  });

  it('disables the endpoint on 410 and fails the delivery without retrying', async () => {
    const r = await receiver((_n, _h, res) => void res.writeHead(410).end());
    const org = await newTenant(t);
    const e = await endpoint(org, r.url);
    const id = await event(org);
    const d = await settled(id, 'failed');
    expect(d.attempts).toBe(1);
    const got = await t.http.get(`/api/v1/webhook-endpoints/${e.id}`).set('Authorization', sk(org));
    expect(got.body.data.enabled).toBe(false);
    const next = await event(org);
    expect(await delivery(next)).toBeUndefined();
    expect(r.hits).toHaveLength(1);
  });

  it('honours Retry-After as the earliest time of the next attempt', async () => {
    const r = await receiver((n, hit, res) =>
      n === 0 ? void res.writeHead(429, { 'retry-after': '2' }).end() : ok(n, hit, res),
    );
    const org = await newTenant(t);
    await endpoint(org, r.url);
    const id = await event(org);
    await settled(id, 'succeeded');
    expect(r.hits[1].at - r.hits[0].at).toBeGreaterThanOrEqual(1900);
  });

  it('keeps only the first 1 KB of the response', async () => {
    const r = await receiver((_n, _h, res) => void res.writeHead(200).end('x'.repeat(5000)));
    const org = await newTenant(t);
    await endpoint(org, r.url);
    const id = await event(org);
    const d = await settled(id, 'succeeded');
    expect(d.last_response_snippet).toBe('x'.repeat(1024));
  });

  it('resumes a disabled endpoint’s waiting deliveries when it is enabled again', async () => {
    const r = await receiver();
    const org = await newTenant(t);
    const e = await endpoint(org, r.url);
    const test = await t.http
      .post(`/api/v1/webhook-endpoints/${e.id}/test`)
      .set('Authorization', sk(org))
      .send({});
    await t.http
      .patch(`/api/v1/webhook-endpoints/${e.id}`)
      .set('Authorization', sk(org))
      .send({ enabled: false });
    // It may have gone out before the PATCH; either way it is delivered exactly once after re-enabling.
    await t.http
      .patch(`/api/v1/webhook-endpoints/${e.id}`)
      .set('Authorization', sk(org))
      .send({ enabled: true });
    await settled(test.body.data.eventId, 'succeeded');
    expect(r.hitsFor(test.body.data.eventId)).toHaveLength(1);
  });
});
