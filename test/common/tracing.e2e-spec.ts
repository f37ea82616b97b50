import { once } from 'node:events';
import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { privateDatabase, newTenant, startTestApp, TestApp } from '../helpers/app';
import { waitFor } from '../helpers/poll';
import { serviceProcess } from '../helpers/service-process';
import { Receiver } from '../webhooks/receiver';

/**
 * With OTEL_EXPORTER_OTLP_ENDPOINT set, a service process exports its traces over OTLP/HTTP
 * (docs/architecture.md, "Metrics and traces"): here to a collector of our own that reads the JSON
 * export. One pay is one trace, from the HTTP server span down to its statements and its bank
 * call; a webhook's `traceparent` names an exported span; log lines carry the trace id.
 */
interface Span {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes: { key: string; value: { stringValue?: string } }[];
}

/** OTLP/JSON ids are hex; a base64 one (protobuf-style JSON) is turned into hex. */
const hex = (id: string | undefined) =>
  !id ? '' : /^[0-9a-f]+$/.test(id) ? id : Buffer.from(id, 'base64').toString('hex');

const spans: Span[] = [];
let collector: Server;
let collectorUrl: string;
let db: { url: string; drop(): Promise<void> };
let helper: TestApp;
let service: Awaited<ReturnType<typeof serviceProcess>>;
const receiver = new Receiver();

beforeAll(async () => {
  collector = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.url === '/v1/traces' && String(req.headers['content-type']).startsWith('application/json')) {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
          resourceSpans: { scopeSpans: { spans: Span[] }[] }[];
        };
        for (const rs of body.resourceSpans)
          for (const ss of rs.scopeSpans)
            for (const s of ss.spans)
              spans.push({
                ...s,
                traceId: hex(s.traceId),
                spanId: hex(s.spanId),
                parentSpanId: hex(s.parentSpanId),
              });
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  collector.listen(0, '127.0.0.1');
  await once(collector, 'listening');
  collectorUrl = `http://127.0.0.1:${(collector.address() as AddressInfo).port}`;
  await receiver.start();
  db = await privateDatabase();
  helper = await startTestApp({}, db.url);
  service = await serviceProcess(db.url, {
    OTEL_EXPORTER_OTLP_ENDPOINT: collectorUrl,
    OTEL_BSP_SCHEDULE_DELAY: '100',
    WEBHOOK_WORKER: 'true',
    WEBHOOK_POLL_MS: '100',
    RECONCILE_INTERVAL_MS: '0',
    BILLING_SCHEDULER: 'false',
    RATE_LIMIT_PER_KEY: '0',
    RATE_LIMIT_PER_IP: '0',
    LOG_LEVEL: 'info',
    KHOUMS_TEST_LOGS_TO_STDERR: '1',
  });
}, 90_000);
afterAll(async () => {
  await service?.stop();
  await helper?.close();
  await receiver.stop();
  await new Promise((r) => collector.close(r));
  await db?.drop();
});

it('traces one pay from its HTTP server span to its statements and its bank call, sends traceparent with its webhook, and logs the trace id', async () => {
  const org = await newTenant(helper);
  const api = request(`http://127.0.0.1:${service.port}`);
  const endpoint = await api
    .post('/api/v1/webhook-endpoints')
    .set('Authorization', org.sandbox.secretKey)
    .send({ url: receiver.url });
  expect(endpoint.status).toBe(200);
  expect(
    (
      await api
        .post('/api/v1/payment-request')
        .set('Authorization', org.sandbox.secretKey)
        .send({ transactionId: 'traced-pay', amount: 10 })
    ).status,
  ).toBe(200);
  const methods = await api.get('/api/v1/payment-methods').set('Authorization', org.sandbox.publishableKey);
  const masrivi = (methods.body.data as { id: string; type: string }[]).find((m) => m.type === 'masrivi')!;
  const pay = await api
    .post('/api/v1/payment')
    .set('Authorization', org.sandbox.publishableKey)
    .send({ transactionId: 'traced-pay', phoneNumber: '22222222', configurationId: masrivi.id });
  expect(pay.status).toBe(200);

  // The HTTP server span of the pay, and its trace.
  const server = await waitFor(
    () =>
      spans.find(
        (s) =>
          s.kind === 2 &&
          s.attributes.some((a) => a.key === 'http.route' && a.value.stringValue === '/api/v1/payment') &&
          s.attributes.some((a) => a.key === 'http.method' && a.value.stringValue === 'POST'),
      ) ??
      spans.find((s) => s.kind === 2 && s.name === 'POST /api/v1/payment') ??
      // An instrumentation that does not know the route names the span by method only: pick the
      // server span whose trace holds the bank charge.
      spans.find(
        (s) =>
          s.kind === 2 &&
          !s.parentSpanId &&
          spans.some((b) => b.traceId === s.traceId && b.name === 'bank charge'),
      ),
    'the server span of the pay',
  );
  const trace = await waitFor(() => {
    const t = spans.filter((s) => s.traceId === server.traceId);
    return t.some((s) => s.name === 'bank charge') && t.some((s) => s.name.startsWith('pg.query'))
      ? t
      : undefined;
  }, 'the spans of the pay');
  const byId = new Map(trace.map((s) => [s.spanId, s]));
  const descendsFromServer = (s: Span) => {
    for (let p = s.parentSpanId; p; p = byId.get(p)?.parentSpanId) if (p === server.spanId) return true;
    return false;
  };
  const bank = trace.find((s) => s.name === 'bank charge')!;
  const statements = trace.filter((s) => s.name.startsWith('pg.query'));
  expect(descendsFromServer(bank)).toBe(true);
  expect(statements.length).toBeGreaterThanOrEqual(3);
  for (const s of statements) expect(descendsFromServer(s)).toBe(true);

  // The webhook of the payment carries a traceparent naming an exported span.
  const hit = await waitFor(
    () => receiver.hits.find((h) => typeof h.headers.traceparent === 'string'),
    'a webhook with traceparent',
  );
  const [, traceId, spanId] = /^00-([0-9a-f]{32})-([0-9a-f]{16})-0[01]$/.exec(
    hit.headers.traceparent as string,
  )!;
  await waitFor(
    () => spans.find((s) => s.traceId === traceId && s.spanId === spanId),
    'the span the webhook names to be exported',
  );

  // The pay's request log line names its trace.
  const line = service
    .stderr()
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as { msg?: string; url?: string; traceId?: string })
    .find((l) => l.msg === 'request' && l.url === '/api/v1/payment');
  expect(line?.traceId).toBe(server.traceId);
});
