import type { CreatedOrganization } from '../../src/organizations/organizations.service';
import { NON_PUBLIC_ADDRESS } from '../../src/webhooks/http-delivery';
import { generateSecret } from '../../src/webhooks/signing';
import { newTenant, recordEvent, startWorkerApp, TestApp } from '../helpers/app';
import { waitFor } from '../helpers/poll';
import { Receiver, WORKER_ENV } from './receiver';

/**
 * Delivery with private addresses refused (a deployment's default): an endpoint whose host name
 * resolves to a non-public address, or one stored before the rule, is never called.
 */
let t: TestApp;
const receivers: Receiver[] = [];
beforeAll(async () => {
  t = await startWorkerApp({ ...WORKER_ENV, WEBHOOK_ALLOW_PRIVATE_URLS: 'false' });
});
afterAll(async () => {
  await Promise.all(receivers.map((r) => r.stop()));
  await t.close();
});

async function receiver(): Promise<Receiver> {
  const r = new Receiver();
  receivers.push(r);
  await r.start();
  return r;
}

/** Stored directly: the API refuses these URLs, but DNS can change after an endpoint is created. */
async function storedEndpoint(org: CreatedOrganization, environmentId: string, url: string): Promise<string> {
  const [{ id }] = await t.query(
    `INSERT INTO webhook_endpoints (id, organization_id, environment_id, url, events, secret)
     VALUES (gen_random_uuid(), $1, $2, $3, ARRAY['payment-created'], $4) RETURNING id`,
    [org.organizationId, environmentId, url, generateSecret()],
  );
  return id;
}

async function firstAttempt(eventId: string) {
  return waitFor(async () => {
    const [d] = await t.query('SELECT * FROM webhook_deliveries WHERE event_id = $1', [eventId]);
    return d?.attempts
      ? (d as { status: string; last_error: string; last_status_code: number | null })
      : undefined;
  }, `the attempt of ${eventId}`);
}

describe.each(['sandbox', 'production'] as const)('delivery in %s without private addresses', (env) => {
  it.each([
    ['a host name resolving to loopback', (r: Receiver) => r.url.replace('127.0.0.1', 'localhost')],
    ['a loopback IP literal', (r: Receiver) => r.url],
    ['an IPv4-mapped loopback literal', (r: Receiver) => r.url.replace('127.0.0.1', '[::ffff:127.0.0.1]')],
  ])('refuses %s at delivery time as a failed attempt, never calling it', async (_what, urlOf) => {
    const r = await receiver();
    const org = await newTenant(t);
    const environmentId = org[env].environmentId;
    const endpointId = await storedEndpoint(org, environmentId, urlOf(r));
    const id = await recordEvent(t, {
      organizationId: org.organizationId,
      environmentId,
      kind: 'payment-created',
      data: {},
    });
    const d = await firstAttempt(id);
    await t.query('UPDATE webhook_endpoints SET enabled = false WHERE id = $1', [endpointId]);
    expect(d).toMatchObject({ status: 'pending', last_error: NON_PUBLIC_ADDRESS, last_status_code: null });
    expect(r.hits).toHaveLength(0);
  });
});
