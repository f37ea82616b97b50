import { Messages } from '../../src/common/errors/messages';
import { encodeCursor } from '../../src/database/keyset';
import { startTestApp, TestApp } from '../helpers/app';
import {
  billingData,
  DASHBOARD_ENV,
  DashboardBrowser,
  ownSessionForms,
  signedInOwner,
  stateChangingForms,
} from '../helpers/dashboard';

/**
 * The dashboard's forms and links with input PostgreSQL cannot store (a NUL character) or a list
 * cursor the dashboard did not write: a 4xx page, never a 500. Browsers percent-encode a lone
 * surrogate as U+FFFD, so a form or a link can carry a NUL but not a lone surrogate.
 */
const NUL = 'a\u0000b';
const ID = '00000000-0000-4000-8000-000000000000';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp(DASHBOARD_ENV);
});
afterAll(() => t.close());

const LISTS = [
  '/dashboard',
  '/dashboard/payment-requests',
  '/dashboard/payments',
  '/dashboard/products',
  '/dashboard/customers',
  '/dashboard/subscriptions',
  '/dashboard/invoices',
  '/dashboard/webhooks/deliveries',
];
const FILTERS = ['q', 'status', 'customer', 'subscriptionId', 'from', 'to', 'amountMin', 'amountMax'];
const MORE_FILTERS = ['transactionId', 'phone', 'method', 'endpointId', 'event', 'notice', 'lang'];

describe('dashboard links', () => {
  it('leave out a filter holding a NUL character: the list is shown', async () => {
    const { browser } = await signedInOwner(t);
    const failures: string[] = [];
    for (const list of LISTS)
      for (const name of [...FILTERS, ...MORE_FILTERS]) {
        const res = await browser.get(`${list}?${name}=a%00b`);
        if (res.status !== 200) failures.push(`${list}?${name}: ${res.status}`);
      }
    expect(failures).toEqual([]);
  });

  it('answer 400 Invalid cursor for a forged, impossible or NUL-holding list cursor, never a 500', async () => {
    const { browser } = await signedInOwner(t);
    const cursors = [
      'forged',
      'a%00b',
      encodeCursor(`2025-02-30T10:00:00.000000Z,${ID}`), // no such day
      encodeCursor(`0000-01-01T00:00:00.000000Z,${ID}`), // no year 0 in PostgreSQL
      encodeCursor(`2025-11-23T24:00:00.000000Z,${ID}`),
      encodeCursor(`2025-11-23T10:00:00.000000Z,not-a-uuid`),
    ];
    const answers: string[] = [];
    for (const list of LISTS.filter((l) => l !== '/dashboard'))
      for (const cursor of cursors)
        for (const direction of ['after', 'before']) {
          const res = await browser.get(`${list}?${direction}=${cursor}`);
          const shown = res.text.includes(Messages.invalidCursor) ? 'message' : 'no message';
          answers.push(`${list}?${direction}=${cursor}: ${res.status} ${shown}`);
        }
    expect(answers.filter((a) => !a.endsWith(': 400 message'))).toEqual([]);
  });

  it('still page with the cursors the dashboard writes, and an empty cursor is the first page', async () => {
    const { browser } = await signedInOwner(t);
    const good = encodeCursor(`2025-11-23T10:00:00.123456Z,${ID}`);
    expect((await browser.get(`/dashboard/products?after=${good}`)).status).toBe(200);
    expect((await browser.get(`/dashboard/products?before=${good}`)).status).toBe(200);
    expect((await browser.get('/dashboard/products?after=')).status).toBe(200);
  });

  it('with a NUL in a path parameter are 404 pages', async () => {
    const { browser } = await signedInOwner(t);
    for (const path of ['products', 'customers', 'subscriptions', 'invoices', 'payment-requests', 'invite']) {
      const res = await browser.get(`/dashboard/${path}/a%00b`);
      expect({ path, status: res.status }).toEqual({ path, status: 404 });
    }
  });
});

describe('dashboard forms', () => {
  it('refuse a field holding a NUL character with 400 and the form error, whichever form and field', async () => {
    const { org, browser } = await signedInOwner(t);
    const billing = await billingData(t, org);
    const endpoint = await t.http
      .post('/api/v1/webhook-endpoints')
      .set('Authorization', org.sandbox.secretKey)
      .send({ url: 'http://127.0.0.1:9/hook' });
    const ids = {
      ...billing,
      keyId: ID,
      endpointId: endpoint.body.data.id as string,
      deliveryId: ID,
      invitationId: ID,
      userId: ID,
      invitationToken: '',
    };
    const forms = [
      ...stateChangingForms(ids),
      ...ownSessionForms.filter(([path]) => path !== '/dashboard/logout'),
    ];
    const answers: string[] = [];
    for (const [path, form] of forms)
      for (const field of Object.keys(form)) {
        await browser.get('/dashboard/account'); // a fresh CSRF token
        const res = await browser.post(path, { ...form, [field]: NUL });
        const shown = res.text.includes(Messages.invalidForm) ? 'message' : 'no message';
        answers.push(`${path} ${field}: ${res.status} ${shown}`);
      }
    expect(answers.length).toBeGreaterThan(25);
    expect(answers.filter((a) => !a.endsWith(': 400 message'))).toEqual([]);
    const products = await t.query('SELECT name FROM products WHERE organization_id = $1', [
      org.organizationId,
    ]);
    expect(products).toEqual([{ name: 'Plan' }]);
  });

  it('refuse a NUL character in the sign-in and sign-up forms with 400', async () => {
    for (const [path, form] of [
      ['/dashboard/login', { email: NUL, password: 'password-123' }],
      ['/dashboard/login', { email: 'someone@test.khoums', password: NUL }],
      ['/dashboard/signup', { name: NUL, email: `n-${Date.now()}@test.khoums`, password: 'long-password-1' }],
      ['/dashboard/signup', { name: 'Shop', email: NUL, password: 'long-password-1' }],
    ] as const) {
      const browser = new DashboardBrowser(t);
      await browser.get(path);
      const res = await browser.post(path, form);
      expect({ path, form, status: res.status }).toEqual({ path, form, status: 400 });
    }
  });
});
