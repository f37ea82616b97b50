import { Messages } from '../../src/common/errors/messages';
import { ApiKeysService } from '../../src/organizations/api-keys.service';
import type { CreatedOrganization } from '../../src/organizations/organizations.service';
import { startTestApp, TestApp } from '../helpers/app';
import { expectText } from '../helpers/http';
import { connectAccount, newPlatform } from '../helpers/platforms';

/**
 * Tenancy with platforms: a connected account, reached with `Khoums-Account`, never sees the
 * platform's data nor a sibling account's; the platform without the header sees only its own; and
 * the account's own key sees exactly what the platform sees acting for it. Every resource of the
 * API, by id (read and change: 404, nothing changed) and in its list.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const api = (path: string) => `/api/v1${path}`;

/** Who asks: a key, and the account it acts for (none: the key's own organization). */
interface Actor {
  name: string;
  secret: string;
  publishable: string;
  account?: string;
}

function as(actor: Actor, method: 'get' | 'post' | 'patch' | 'delete', path: string) {
  const r = t.http[method](api(path)).set('Authorization', actor.secret);
  return actor.account ? r.set('Khoums-Account', actor.account) : r;
}

/** One of each resource, made by `actor`. */
async function resources(actor: Actor) {
  const tag = `${actor.name}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
  const post = async (path: string, body: object, key = actor.secret) => {
    const r = t.http.post(api(path)).set('Authorization', key);
    const res = await (actor.account ? r.set('Khoums-Account', actor.account) : r).send(body);
    if (res.status !== 200) throw new Error(`${actor.name} POST ${path}: ${res.status} ${res.text}`);
    return res.body.data as Record<string, string>;
  };
  const endpoint = await post('/webhook-endpoints', { url: `http://127.0.0.1:9/${tag}` });
  const product = await post('/products', { name: `Plan ${tag}` });
  const price = await post('/prices', { productId: product.id, amount: 1500, interval: 'monthly' });
  const externalUserId = `user-${tag}`;
  const customer = await post('/customers', { externalUserId, phone: '22123456' });
  const subscription = await post('/subscriptions', { customerId: customer.id, priceId: price.id });
  const transactionId = `order-${tag}`;
  const session = await post('/checkout-session', { transactionId, amount: 2500, phoneNumber: '33445566' });
  const methods = await as(actor, 'get', '/payment-methods');
  const masrivi = methods.body.data.find((m: { type: string }) => m.type === 'masrivi');
  const payment = await post(
    '/payment',
    { transactionId, phoneNumber: '33445566', configurationId: masrivi.id },
    actor.publishable,
  );
  const invoices = await as(actor, 'get', `/invoices?subscriptionId=${subscription.id}`);
  const [delivery] = await t.query('SELECT id FROM webhook_deliveries WHERE endpoint_id = $1 LIMIT 1', [
    endpoint.id,
  ]);
  return {
    transactionId,
    externalUserId,
    ids: {
      endpoint: endpoint.id,
      delivery: delivery.id as string,
      product: product.id,
      price: price.id,
      customer: customer.id,
      subscription: subscription.id,
      invoice: (invoices.body.data[0]?.id ?? (await invoiceOf(subscription.id))) as string,
      paymentRequest: session.paymentRequestId,
      session: session.id,
      payment: payment.id,
    },
  };
}

async function invoiceOf(subscriptionId: string): Promise<string> {
  const [invoice] = await t.query('SELECT id FROM invoices WHERE subscription_id = $1', [subscriptionId]);
  return invoice.id;
}

type Made = Awaited<ReturnType<typeof resources>>;

/** Every route naming another tenant's resource, with the 404 it must answer. */
function foreignRoutes(
  m: Made,
): [method: 'get' | 'post' | 'patch' | 'delete', path: string, body: object, message: string][] {
  const i = m.ids;
  return [
    ['get', `/payment-request/${i.paymentRequest}`, {}, Messages.paymentRequestNotFound],
    ['get', `/payment-request/by-transaction/${m.transactionId}`, {}, Messages.paymentRequestNotFound],
    ['patch', `/payment-request/${m.transactionId}/refresh-status`, {}, Messages.paymentRequestNotFound],
    ['get', `/checkout-session/${i.session}`, {}, Messages.checkoutSessionNotFound],
    ['post', `/checkout-session/${i.session}/expire`, {}, Messages.checkoutSessionNotFound],
    ['get', `/payment/${i.payment}`, {}, Messages.paymentNotFound],
    ['post', `/payment/${i.payment}/simulate-transfer`, {}, Messages.paymentNotFound],
    ['patch', `/customers/${i.customer}`, { phone: '22999999' }, Messages.customerNotFound],
    ['get', `/products/${i.product}`, {}, Messages.productNotFound],
    ['patch', `/products/${i.product}`, { name: 'Stolen' }, Messages.productNotFound],
    ['patch', `/products/${i.product}/archive`, {}, Messages.productNotFound],
    ['get', `/prices/${i.price}`, {}, Messages.priceNotFound],
    ['patch', `/prices/${i.price}/archive`, {}, Messages.priceNotFound],
    ['get', `/subscriptions/${i.subscription}`, {}, Messages.subscriptionNotFound],
    ['get', `/subscriptions/by-external-user/${m.externalUserId}`, {}, Messages.subscriptionNotFound],
    ['post', `/subscriptions/${i.subscription}/pause`, {}, Messages.subscriptionNotFound],
    ['post', `/subscriptions/${i.subscription}/cancel`, {}, Messages.subscriptionNotFound],
    ['get', `/invoices/${i.invoice}`, {}, Messages.invoiceNotFound],
    ['get', `/webhook-endpoints/${i.endpoint}`, {}, Messages.webhookEndpointNotFound],
    ['patch', `/webhook-endpoints/${i.endpoint}`, { enabled: false }, Messages.webhookEndpointNotFound],
    ['post', `/webhook-endpoints/${i.endpoint}/rotate-secret`, {}, Messages.webhookEndpointNotFound],
    ['post', `/webhook-endpoints/${i.endpoint}/test`, {}, Messages.webhookEndpointNotFound],
    ['delete', `/webhook-endpoints/${i.endpoint}`, {}, Messages.webhookEndpointNotFound],
    ['get', `/webhook-deliveries/${i.delivery}`, {}, Messages.webhookDeliveryNotFound],
    ['get', `/webhook-deliveries/${i.delivery}/attempts`, {}, Messages.webhookDeliveryNotFound],
    ['post', `/webhook-deliveries/${i.delivery}/retry`, {}, Messages.webhookDeliveryNotFound],
  ];
}

/** The lists of the API and the id of `m` each must (or must not) show. */
function lists(m: Made): [path: string, id: string][] {
  const i = m.ids;
  return [
    ['/payment-request?limit=100', i.paymentRequest],
    ['/payment?limit=100', i.payment],
    ['/customers?limit=100', i.customer],
    ['/products?limit=100', i.product],
    ['/subscriptions?limit=100', i.subscription],
    ['/invoices?limit=100', i.invoice],
    ['/webhook-endpoints?limit=100', i.endpoint],
    ['/webhook-deliveries?limit=100', i.delivery],
  ];
}

let platform: CreatedOrganization;
let actors: Record<'platform' | 'a' | 'b' | 'aOwnKey', Actor>;
let made: Record<'platform' | 'a' | 'b', Made>;

beforeAll(async () => {
  platform = await newPlatform(t, 'Marketplace');
  const a = await connectAccount(t, platform, 'Shop A');
  const b = await connectAccount(t, platform, 'Shop B');
  const [aEnv] = await t.query(
    "SELECT id FROM environments WHERE organization_id = $1 AND kind = 'sandbox'",
    [a.id],
  );
  const keys = t.app.get(ApiKeysService);
  const sk = platform.sandbox.secretKey;
  const pk = platform.sandbox.publishableKey;
  actors = {
    platform: { name: 'platform', secret: sk, publishable: pk },
    a: { name: 'a', secret: sk, publishable: pk, account: a.id },
    b: { name: 'b', secret: sk, publishable: pk, account: b.id },
    aOwnKey: {
      name: 'a-own',
      secret: (await keys.issue(a.id, { id: aEnv.id, kind: 'sandbox' }, 'secret')).key,
      publishable: (await keys.issue(a.id, { id: aEnv.id, kind: 'sandbox' }, 'publishable')).key,
    },
  };
  made = {
    platform: await resources(actors.platform),
    a: await resources(actors.a),
    b: await resources(actors.b),
  };
}, 60_000);

const pairs: [asker: 'platform' | 'a' | 'b' | 'aOwnKey', owner: 'platform' | 'a' | 'b'][] = [
  ['platform', 'a'],
  ['platform', 'b'],
  ['a', 'platform'],
  ['a', 'b'],
  ['b', 'a'],
  ['b', 'platform'],
  ['aOwnKey', 'platform'],
  ['aOwnKey', 'b'],
];

it.each(pairs)("%s never reaches %s's resources by id: 404, and nothing changes", async (asker, owner) => {
  const before = await snapshot(made[owner]);
  for (const [method, path, body, message] of foreignRoutes(made[owner])) {
    const res = await as(actors[asker], method, path).send(body);
    expect({ route: `${method} ${path}`, status: res.status, text: res.text }).toEqual({
      route: `${method} ${path}`,
      status: 404,
      text: message,
    });
  }
  expect(await snapshot(made[owner])).toEqual(before);
});

it.each(pairs)("%s's lists never show %s's resources", async (asker, owner) => {
  for (const [path, id] of lists(made[owner])) {
    const res = await as(actors[asker], 'get', path);
    expect({ path, status: res.status }).toEqual({ path, status: 200 });
    expect({ path, ids: res.body.data.map((r: { id: string }) => r.id) }).toEqual({
      path,
      ids: expect.not.arrayContaining([id]),
    });
  }
});

it.each(['platform', 'a', 'b'] as const)('%s reaches its own resources and lists them', async (who) => {
  for (const [path, id] of lists(made[who])) {
    const res = await as(actors[who], 'get', path);
    expect({ path, ids: res.body.data.map((r: { id: string }) => r.id) }).toEqual({
      path,
      ids: expect.arrayContaining([id]),
    });
  }
  const own = await as(actors[who], 'get', `/payment/${made[who].ids.payment}`);
  expect(own.status).toBe(200);
});

it("the account's own key sees exactly what the platform sees acting for it", async () => {
  for (const [path] of lists(made.a)) {
    const viaPlatform = await as(actors.a, 'get', path);
    const ownKey = await as(actors.aOwnKey, 'get', path);
    expect({ path, body: ownKey.body }).toEqual({ path, body: viaPlatform.body });
  }
  const organization = await as(actors.aOwnKey, 'get', '/organization');
  expect(organization.body).toEqual((await as(actors.a, 'get', '/organization')).body);
  expect(organization.body.data.id).toBe(actors.a.account);
});

it('the hosted page of a session made for an account shows the account, not the platform', async () => {
  const page = await t.http.get(`/checkout/${made.a.ids.session}`);
  expect(page.text).toContain('Shop A');
  expect(page.text).not.toContain('Marketplace');
});

it('a refused request (403) changes nothing for anyone', async () => {
  const stranger = await newPlatform(t);
  const res = await t.http
    .post(api('/products'))
    .set('Authorization', stranger.sandbox.secretKey)
    .set('Khoums-Account', actors.a.account!)
    .send({ name: 'Intruder' });
  expectText(res, 403, Messages.accountNotConnected);
  const rows = await t.query("SELECT count(*)::int AS n FROM products WHERE name = 'Intruder'");
  expect(rows[0].n).toBe(0);
});

/** What a foreign request could change of `m`: its rows as they stand. */
async function snapshot(m: Made) {
  const i = m.ids;
  return {
    endpoint: await t.query('SELECT url, enabled, secret FROM webhook_endpoints WHERE id = $1', [i.endpoint]),
    product: await t.query('SELECT name, active FROM products WHERE id = $1', [i.product]),
    price: await t.query('SELECT active FROM prices WHERE id = $1', [i.price]),
    customer: await t.query('SELECT phone FROM customers WHERE id = $1', [i.customer]),
    subscription: await t.query('SELECT status FROM subscriptions WHERE id = $1', [i.subscription]),
    session: await t.query('SELECT status FROM checkout_sessions WHERE id = $1', [i.session]),
    payment: await t.query('SELECT status FROM payments WHERE id = $1', [i.payment]),
    delivery: await t.query('SELECT status, next_attempt_at FROM webhook_deliveries WHERE id = $1', [
      i.delivery,
    ]),
  };
}
