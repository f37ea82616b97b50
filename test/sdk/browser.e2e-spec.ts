import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Page } from 'playwright-core';
import type { CreatedOrganization } from '../../src/organizations/organizations.service';
import { webhookHeaders } from '../../src/webhooks/signing';
import { newTenant, startTestApp, TestApp } from '../helpers/app';
import { launchBrowser, newContext, TestBrowser } from '../helpers/browser';
import { baseUrlOf, client, orderId } from './helpers';

/**
 * The built library: the ES module bundle a merchant's web page loads, in Debian's Chromium,
 * paying with a publishable key across origins (CORS on the publishable-key routes only); the
 * ES module and CommonJS builds in Node; the bundle's size.
 */

const SDK = resolve(__dirname, '../../sdk');
const BUNDLE = join(SDK, 'dist/khoums.min.js');

function newestSource(dir: string): number {
  return Math.max(
    ...readdirSync(dir).map((name) => {
      const path = join(dir, name);
      return statSync(path).isDirectory() ? newestSource(path) : statSync(path).mtimeMs;
    }),
  );
}

/** Builds sdk/dist when it is missing or older than the sources (installing the build tools if needed). */
function ensureBuilt(): void {
  if (existsSync(BUNDLE) && statSync(BUNDLE).mtimeMs >= newestSource(join(SDK, 'src'))) return;
  if (!existsSync(join(SDK, 'node_modules/esbuild'))) {
    execFileSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: SDK, stdio: 'pipe' });
  }
  execFileSync(process.execPath, [join(SDK, 'scripts/build.mjs')], { cwd: SDK, stdio: 'pipe' });
}

let t: TestApp;
let org: CreatedOrganization;
let browser: TestBrowser;
let site: Server;
let origin: string;

beforeAll(async () => {
  ensureBuilt();
  t = await startTestApp({ SANDBOX_BANK_TIMEOUT_MS: '300' });
  org = await newTenant(t);
  const bundle = readFileSync(BUNDLE);
  // The merchant's own site, on another origin than the API.
  site = createServer((req, res) => {
    if (req.url === '/khoums.min.js') {
      res.writeHead(200, { 'content-type': 'text/javascript' }).end(bundle);
    } else {
      res
        .writeHead(200, { 'content-type': 'text/html' })
        .end('<!doctype html><title>Shop</title><h1>Shop</h1>');
    }
  });
  await new Promise<void>((ok) => site.listen(0, '127.0.0.1', ok));
  origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  site?.closeAllConnections();
  await new Promise<void>((ok) => (site ? site.close(() => ok()) : ok()));
  await t?.close();
});

/** The page's window, where its own script put the module's exports (`import * as sdk from '…'`). */
type ShopWindow = { sdk: typeof import('../../sdk/src') };

/** The merchant's page, having loaded the bundle as an ES module. */
async function shopPage(): Promise<Page> {
  const page = await (await newContext(browser)).newPage();
  await page.goto(origin + '/');
  await page.addScriptTag({
    type: 'module',
    content: "import * as sdk from '/khoums.min.js'; window.sdk = sdk;",
  });
  await page.waitForFunction(() => 'sdk' in globalThis);
  return page;
}

it('a web page pays with the bundle and a publishable key: look-up, payment methods, pay', async () => {
  const transactionId = orderId('web');
  const sk = client(baseUrlOf(t), org.sandbox.secretKey);
  const pr = await sk.paymentRequests.create({ transactionId, amount: 3300, phoneNumber: '22123456' });

  const page = await shopPage();
  const result = await page.evaluate(
    async ({ baseUrl, key, transactionId }) => {
      const { Khoums } = (globalThis as unknown as ShopWindow).sdk;
      const khoums = new Khoums(key, { baseUrl });
      const request = await khoums.paymentRequests.getByTransactionId(transactionId);
      const methods = await khoums.paymentMethods.list({ isTestingMode: true });
      const sedad = methods.find((m) => m.type === 'sedad')!;
      const payment = await khoums.payments.pay({
        transactionId,
        phoneNumber: request.phoneNumber!,
        paymentMethodId: sedad.id,
      });
      return { request, types: methods.map((m) => m.type), payment };
    },
    { baseUrl: baseUrlOf(t), key: org.sandbox.publishableKey, transactionId },
  );

  expect(result.request).toEqual({ id: pr.id, amount: 3300, phoneNumber: '22123456' });
  expect(result.types).toEqual(['bankily', 'masrivi', 'sedad']);
  expect(result.payment).toMatchObject({ transactionId, status: 'completed', amount: 3300 });
  expect((await sk.paymentRequests.get(pr.id)).status).toBe('paid');
});

it("in a browser, the API's error answers reach the page as AppException (CORS on errors too)", async () => {
  const page = await shopPage();
  const error = await page.evaluate(
    async ({ baseUrl, key }) => {
      const { Khoums } = (globalThis as unknown as ShopWindow).sdk;
      try {
        await new Khoums(key, { baseUrl }).paymentRequests.getByTransactionId('no-such-order');
        return null;
      } catch (e) {
        const err = e as { name: string; status: number; code: string; isClientError: boolean };
        return { name: err.name, status: err.status, code: err.code, isClientError: err.isClientError };
      }
    },
    { baseUrl: baseUrlOf(t), key: org.sandbox.publishableKey },
  );
  expect(error).toEqual({
    name: 'AppException',
    status: 404,
    code: 'Payment Request not found',
    isClientError: true,
  });
});

it('in a browser, the constructor refuses a secret key (invalid_api_key) before any request', async () => {
  const page = await shopPage();
  const requests: string[] = [];
  page.on('request', (r) => requests.push(r.url()));
  const refused = await page.evaluate(
    async ({ baseUrl, key }) => {
      const { Khoums } = (globalThis as unknown as ShopWindow).sdk;
      try {
        new Khoums(key, { baseUrl });
        return null;
      } catch (e) {
        const err = e as { name: string; code: string; status?: number };
        return { name: err.name, code: err.code, status: err.status ?? null };
      }
    },
    { baseUrl: baseUrlOf(t), key: org.sandbox.secretKey },
  );
  expect(refused).toEqual({ name: 'AppException', code: 'invalid_api_key', status: null });
  expect(requests.filter((u) => u.includes('/api/v1/'))).toEqual([]);
});

it("in a browser, constructEvent verifies a delivery with Web Crypto (the same code as Node's)", async () => {
  const secret = 'whsec_' + Buffer.alloc(32, 3).toString('base64');
  const body = JSON.stringify({
    id: 'evt_web',
    event: 'payment-updated',
    createdAt: new Date().toISOString(),
    data: { id: 'p', status: 'completed', transactionId: 'order_web' },
  });
  const headers = webhookHeaders({
    id: 'evt_web',
    kind: 'payment-updated',
    body: Buffer.from(body),
    timestamp: Math.floor(Date.now() / 1000),
    secret,
  });
  const page = await shopPage();
  const outcome = await page.evaluate(
    async ({ body, headers, secret }) => {
      const { constructEvent } = (globalThis as unknown as ShopWindow).sdk;
      const event = await constructEvent(body, headers, secret);
      let tampered = '';
      try {
        await constructEvent(body.replace('completed', 'failed'), headers, secret);
      } catch (e) {
        tampered = (e as Error).name;
      }
      const status = event.event === 'payment-updated' ? event.data.status : undefined;
      return { event: event.event, status, tampered };
    },
    { body, headers, secret },
  );
  expect(outcome).toEqual({
    event: 'payment-updated',
    status: 'completed',
    tampered: 'WebhookSignatureError',
  });
});

describe('CORS', () => {
  it.each([
    ['POST', '/api/v1/payment'],
    ['GET', '/api/v1/payment-methods'],
    ['GET', '/api/v1/configuration'],
    ['GET', '/api/v1/payment-request/by-transaction/order_1'],
  ])(
    'a preflight of %s %s is answered for any origin, with the headers the library sends',
    async (method, path) => {
      const res = await t.http
        .options(path)
        .set('Origin', 'https://shop.example')
        .set('Access-Control-Request-Method', method)
        .set('Access-Control-Request-Headers', 'authorization, content-type, idempotency-key');
      expect(res.status).toBe(204);
      expect(res.headers['access-control-allow-origin']).toBe('*');
      expect(res.headers['access-control-allow-methods']).toContain(method);
      expect(res.headers['access-control-allow-headers'].toLowerCase()).toContain('idempotency-key');
    },
  );

  it('answers of the publishable-key routes carry Access-Control-Allow-Origin, errors included', async () => {
    const ok = await t.http
      .get('/api/v1/payment-methods')
      .set('Origin', 'https://shop.example')
      .set('Authorization', org.sandbox.publishableKey);
    expect([ok.status, ok.headers['access-control-allow-origin']]).toEqual([200, '*']);
    expect(ok.headers['access-control-expose-headers']).toContain('X-Request-Id');
    const refused = await t.http.post('/api/v1/payment').set('Origin', 'https://shop.example').send({});
    expect([refused.status, refused.headers['access-control-allow-origin']]).toEqual([401, '*']);
  });

  it('secret-key routes answer no preflight and carry no CORS header: a browser cannot read them', async () => {
    const preflight = await t.http
      .options('/api/v1/payment-request')
      .set('Origin', 'https://shop.example')
      .set('Access-Control-Request-Method', 'POST');
    expect(preflight.status).toBe(404);
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
    const get = await t.http
      .get('/api/v1/payment-request')
      .set('Origin', 'https://shop.example')
      .set('Authorization', org.sandbox.secretKey);
    expect(get.status).toBe(200);
    expect(get.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('the build', () => {
  it('the minified bundle is under 15 KB gzipped and uses no Node module', () => {
    const bundle = readFileSync(BUNDLE);
    const gzipped = gzipSync(bundle, { level: 9 }).length;
    process.stdout.write(`sdk/dist/khoums.min.js: ${bundle.length} B minified, ${gzipped} B gzipped\n`);
    expect(gzipped).toBeLessThan(15 * 1024);
    expect(bundle.toString()).not.toMatch(/\bnode:|require\(/);
  });

  it('the ES module and CommonJS builds load in Node and export the client, its default and the helpers', () => {
    const names =
      'Khoums,PaymentWaitError,WebhookSignatureError,constructEvent,default,isAppException,newIdempotencyKey,verifyWebhook,verifyWebhookSignature,webhooks';
    const esm = execFileSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `import * as m from '${join(SDK, 'dist/index.mjs')}'; console.log(Object.keys(m).sort().join())`,
      ],
      { encoding: 'utf8' },
    );
    const cjs = execFileSync(
      process.execPath,
      [
        '-e',
        `const m = require('${join(SDK, 'dist/index.cjs')}'); console.log(Object.keys(m).sort().join(), m.default === m.Khoums)`,
      ],
      { encoding: 'utf8' },
    );
    expect(esm.trim()).toBe(names);
    expect(cjs.trim()).toBe(`${names} true`);
    expect(existsSync(join(SDK, 'dist/types/index.d.ts'))).toBe(true);
  });
});
