import { createHash } from 'node:crypto';
import { Messages } from '../../src/common/errors/messages';
import { OrganizationsService } from '../../src/organizations/organizations.service';
import * as secrets from '../../src/organizations/secrets';
import { newTenant, startTestApp, TestApp } from '../helpers/app';
import {
  DASHBOARD_ENV,
  DashboardBrowser,
  ownSessionForms,
  signedInOwner,
  stateChangingForms,
} from '../helpers/dashboard';

// SWC's CommonJS exports are getters that cannot be redefined: the services and this file get a
// plain copy of the module instead (an ES module's, so that `import * as` takes it as it is), whose
// functions jest.spyOn can wrap (they are called through it, at call time).
jest.mock('../../src/organizations/secrets', () => ({
  __esModule: true,
  ...jest.requireActual('../../src/organizations/secrets'),
}));

/** The merchant dashboard (docs/dashboard.md): sessions, sign-in, sign-up, the sign-in limit and CSRF. */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp(DASHBOARD_ENV);
});
afterAll(() => t.close());

const PAGES = [
  '/dashboard',
  '/dashboard/payment-requests',
  '/dashboard/payment-requests/0b7a5c0e-1d7e-4f43-9a44-7d1b0f0a0001',
  '/dashboard/payments',
  '/dashboard/keys',
  '/dashboard/webhooks',
  '/dashboard/webhooks/deliveries',
  '/dashboard/payment-methods',
  '/dashboard/products',
  '/dashboard/products/0b7a5c0e-1d7e-4f43-9a44-7d1b0f0a0001',
  '/dashboard/customers',
  '/dashboard/customers/0b7a5c0e-1d7e-4f43-9a44-7d1b0f0a0001',
  '/dashboard/subscriptions',
  '/dashboard/subscriptions/0b7a5c0e-1d7e-4f43-9a44-7d1b0f0a0001',
  '/dashboard/invoices',
  '/dashboard/invoices/0b7a5c0e-1d7e-4f43-9a44-7d1b0f0a0001',
  '/dashboard/team',
  '/dashboard/account',
  '/dashboard/payouts',
  '/dashboard/payouts/0b7a5c0e-1d7e-4f43-9a44-7d1b0f0a0001',
  '/dashboard/reports/settlement',
  '/dashboard/reports/settlement.csv',
  '/dashboard/payment-requests.csv',
  '/dashboard/payments.csv',
  '/dashboard/invoices.csv',
  '/dashboard/payouts.csv',
  '/dashboard/payouts/0b7a5c0e-1d7e-4f43-9a44-7d1b0f0a0001/transactions.csv',
  '/dashboard/payment-links/0b7a5c0e-1d7e-4f43-9a44-7d1b0f0a0001/requests.csv',
  '/dashboard/no-such-page',
];

const sessionCookie = (res: { headers: Record<string, unknown> }) =>
  ((res.headers['set-cookie'] as string[] | undefined) ?? []).find((c) => c.startsWith('khoums_session='));

describe('signed out', () => {
  it.each(PAGES)('redirects %s with 303 to /dashboard/login', async (path) => {
    const res = await new DashboardBrowser(t).get(path);
    expect({ status: res.status, location: res.headers.location }).toEqual({
      status: 303,
      location: '/dashboard/login',
    });
  });

  it('sends a form post to the sign-in page too, changing nothing', async () => {
    const b = new DashboardBrowser(t);
    await b.get('/dashboard/login');
    const res = await b.post('/dashboard/keys', { type: 'secret' });
    expect({ status: res.status, location: res.headers.location }).toEqual({
      status: 303,
      location: '/dashboard/login',
    });
  });

  it('redirects a stale or forged session cookie to the sign-in page and clears it', async () => {
    const res = await t.http.get('/dashboard/keys').set('cookie', `khoums_session=${'x'.repeat(43)}`);
    expect(res.status).toBe(303);
    expect(sessionCookie(res)).toMatch(/Max-Age=0/);
  });
});

describe('sign-in', () => {
  it('shows the form with email, password and a CSRF field, in a page that loads nothing from elsewhere', async () => {
    const res = await new DashboardBrowser(t).get('/dashboard/login');
    expect(res.status).toBe(200);
    expect(res.text).toMatch(/<input id="email" name="email" type="email"/);
    expect(res.text).toMatch(/<input id="password" name="password" type="password"/);
    expect(res.text).toMatch(/name="_csrf" value="[^"]{20,}"/);
    const csp = res.headers['content-security-policy'];
    const nonce = /'nonce-([^']+)'/.exec(csp)![1];
    expect(res.text).toContain(`<style nonce="${nonce}">`);
    expect(res.text).not.toMatch(/(src|href|action)="(https?:)?\/\//);
    expect(res.headers['x-frame-options']).toBe('DENY');
  });

  it('signs in: 303 to /dashboard, an HttpOnly SameSite=Lax cookie on /dashboard, and only its hash stored', async () => {
    const org = await newTenant(t);
    const b = new DashboardBrowser(t);
    await b.get('/dashboard/login');
    const res = await b.post('/dashboard/login', { email: org.email, password: org.password });
    expect({ status: res.status, location: res.headers.location }).toEqual({
      status: 303,
      location: '/dashboard',
    });
    const cookie = sessionCookie(res)!;
    expect(cookie).toMatch(/; Path=\/dashboard/);
    expect(cookie).toMatch(/; HttpOnly/);
    expect(cookie).toMatch(/; SameSite=Lax/);
    expect(cookie).not.toMatch(/; Secure/);
    const token = decodeURIComponent(/^khoums_session=([^;]+)/.exec(cookie)![1]);
    expect(token.length).toBeGreaterThanOrEqual(43);
    const rows = await t.query(
      `SELECT s.token_hash FROM dashboard_sessions s JOIN users u ON u.id = s.user_id WHERE u.email = $1`,
      [org.email],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0].token_hash).toEqual(createHash('sha256').update(token).digest());
    expect(JSON.stringify(await t.query('SELECT * FROM dashboard_sessions'))).not.toContain(token);
    const home = await b.get('/dashboard');
    expect(home.status).toBe(200);
    expect(home.text).toContain('Test Merchant');
  });

  it('answers a wrong password and an unknown email alike: 200, the form again, "Invalid email or password"', async () => {
    const org = await newTenant(t);
    for (const [email, password] of [
      [org.email, 'wrong password'],
      [`nobody-${Date.now()}@test.khoums`, org.password],
    ]) {
      const b = new DashboardBrowser(t);
      await b.get('/dashboard/login');
      const res = await b.post('/dashboard/login', { email, password });
      expect(res.status).toBe(200);
      expect(res.text).toContain(Messages.invalidEmailOrPassword);
      expect(res.text).toContain('name="password"');
      expect(sessionCookie(res)).toBeUndefined();
    }
  });

  it('takes the email whatever its case and spaces', async () => {
    const org = await newTenant(t);
    const b = new DashboardBrowser(t);
    await b.get('/dashboard/login');
    const res = await b.post('/dashboard/login', {
      email: `  ${org.email.toUpperCase()} `,
      password: org.password,
    });
    expect(res.status).toBe(303);
  });

  it('marks the session cookie Secure when PUBLIC_URL is https', async () => {
    const secure = await startTestApp({ ...DASHBOARD_ENV, PUBLIC_URL: 'https://pay.example.mr' });
    try {
      const org = await newTenant(secure);
      const b = new DashboardBrowser(secure);
      const form = await b.get('/dashboard/login');
      expect((form.headers['set-cookie'] as unknown as string[]).join()).toMatch(
        /khoums_csrf=[^;]+; Path=\/dashboard; HttpOnly; Secure/,
      );
      // supertest's cookie jar keeps Secure cookies from plain http: send them by hand.
      const csrfCookie = (form.headers['set-cookie'] as unknown as string[])
        .find((c) => c.startsWith('khoums_csrf='))!
        .split(';')[0];
      const res = await secure.http
        .post('/dashboard/login')
        .set('cookie', csrfCookie)
        .set('x-forwarded-for', b.ip)
        .type('form')
        .send({ email: org.email, password: org.password, _csrf: b.csrf });
      expect(res.status).toBe(303);
      expect(sessionCookie(res)).toMatch(/; HttpOnly; Secure; SameSite=Lax/);
    } finally {
      await secure.close();
    }
  });
});

describe('sign-up', () => {
  it('creates an organization, its two environments with their bank apps and its owner, and signs in', async () => {
    const email = `signup-${Date.now()}@test.khoums`;
    const b = new DashboardBrowser(t);
    await b.get('/dashboard/signup');
    const res = await b.post('/dashboard/signup', {
      name: 'Boutique Tevragh Zeina',
      email,
      password: 'secret password',
    });
    expect({ status: res.status, location: res.headers.location }).toEqual({
      status: 303,
      location: '/dashboard',
    });
    expect(sessionCookie(res)).toBeDefined();
    const [user] = await t.query(
      `SELECT u.role, o.name, (SELECT array_agg(kind ORDER BY kind) FROM environments e WHERE e.organization_id = o.id) AS envs,
              (SELECT count(*)::int FROM payment_methods m JOIN environments e ON e.id = m.environment_id WHERE e.organization_id = o.id) AS methods
         FROM users u JOIN organizations o ON o.id = u.organization_id WHERE u.email = $1`,
      [email],
    );
    expect(user).toEqual({
      role: 'owner',
      name: 'Boutique Tevragh Zeina',
      envs: ['production', 'sandbox'],
      // Each environment's three bank apps and its transfer method (off until the owner turns it on).
      methods: 8,
    });
    const home = await b.get('/dashboard');
    expect(home.status).toBe(200);
    expect(home.text).toContain('Boutique Tevragh Zeina');
    // And the password works on its own.
    await new DashboardBrowser(t).signIn(email, 'secret password');
  });

  it('refuses a taken email, an invalid one, a short password and a missing name, keeping what was typed', async () => {
    const org = await newTenant(t);
    const b = new DashboardBrowser(t);
    await b.get('/dashboard/signup');
    const taken = await b.post('/dashboard/signup', {
      name: 'Shop',
      email: org.email,
      password: 'long enough',
    });
    expect(taken.status).toBe(200);
    expect(taken.text).toContain('An account with this email address already exists.');
    expect(taken.text).toContain('value="Shop"');
    const bad = await b.post('/dashboard/signup', { name: '', email: 'not-an-email', password: 'short' });
    expect(bad.text).toContain('Invalid email address.');
    expect(bad.text).toContain('The password must be at least 10 characters.');
    for (const password of ['12345678', '1234567890', 'QwertyUiop']) {
      const weak = await b.post('/dashboard/signup', {
        name: 'Shop',
        email: `weak-${Date.now()}@test.khoums`,
        password,
      });
      expect(weak.status).toBe(200);
      expect(weak.text).toContain(
        password.length < 10
          ? 'The password must be at least 10 characters.'
          : 'This password is one of the most common ones. Choose another.',
      );
      expect(sessionCookie(weak)).toBeUndefined();
    }
    expect(bad.text).toContain('Enter your business name');
    expect(sessionCookie(bad)).toBeUndefined();
  });
});

describe('sessions', () => {
  it('signs out: the session row is gone and its cookie opens nothing any more', async () => {
    const { org, browser } = await signedInOwner(t);
    const cookieBefore = await t.query(
      `SELECT count(*)::int AS n FROM dashboard_sessions s JOIN users u ON u.id = s.user_id WHERE u.email = $1`,
      [org.email],
    );
    expect(cookieBefore[0].n).toBe(1);
    const res = await browser.post('/dashboard/logout');
    expect({ status: res.status, location: res.headers.location }).toEqual({
      status: 303,
      location: '/dashboard/login',
    });
    expect(sessionCookie(res)).toMatch(/Max-Age=0/);
    const after = await t.query(
      `SELECT count(*)::int AS n FROM dashboard_sessions s JOIN users u ON u.id = s.user_id WHERE u.email = $1`,
      [org.email],
    );
    expect(after[0].n).toBe(0);
  });

  it('changes the password: the other sessions end, this one stays, and only the new password signs in', async () => {
    const { org, browser } = await signedInOwner(t);
    const other = new DashboardBrowser(t);
    await other.signIn(org.email, org.password);
    await browser.get('/dashboard/account');
    const wrong = await browser.post('/dashboard/account/password', {
      currentPassword: 'not it',
      newPassword: 'a new password',
      confirmPassword: 'a new password',
    });
    expect(wrong.text).toContain('The current password is incorrect.');
    const differ = await browser.post('/dashboard/account/password', {
      currentPassword: org.password,
      newPassword: 'a new password',
      confirmPassword: 'another one',
    });
    expect(differ.text).toContain('The two passwords do not match.');
    expect((await other.get('/dashboard')).status).toBe(200);

    const res = await browser.post('/dashboard/account/password', {
      currentPassword: org.password,
      newPassword: 'a new password',
      confirmPassword: 'a new password',
    });
    expect(res.status).toBe(200);
    expect(res.text).toContain('Password changed. Your other sessions were signed out.');
    expect((await other.get('/dashboard')).status).toBe(303);
    expect((await browser.get('/dashboard')).status).toBe(200);
    const old = new DashboardBrowser(t);
    await old.get('/dashboard/login');
    expect((await old.post('/dashboard/login', { email: org.email, password: org.password })).status).toBe(
      200,
    );
    await new DashboardBrowser(t).signIn(org.email, 'a new password');
  });

  it('expires: a session past its expiry opens nothing', async () => {
    const { org, browser } = await signedInOwner(t);
    await t.query(
      `UPDATE dashboard_sessions SET created_at = now() - interval '2 days', expires_at = now() - interval '1 second'
        WHERE user_id = (SELECT id FROM users WHERE email = $1)`,
      [org.email],
    );
    expect((await browser.get('/dashboard')).status).toBe(303);
  });

  it('signs in the organization created by OrganizationsService.create with its generated password (the demo login)', async () => {
    const created = await t.app.get(OrganizationsService).create({
      name: 'Demo Merchant',
      email: `demo-${Date.now()}@khoums.local`,
    });
    const b = new DashboardBrowser(t);
    await b.signIn(created.email, created.password);
    const [{ role }] = await t.query('SELECT role FROM users WHERE email = $1', [created.email]);
    expect(role).toBe('owner');
  });
});

describe('the sign-in limits (failed attempts in 15 minutes: 10 per email and address, 50 per address, 100 per email)', () => {
  async function attempt(b: DashboardBrowser, email: string, password: string) {
    await b.get('/dashboard/login');
    return b.post('/dashboard/login', { email, password });
  }
  /** Failed attempts recorded as if made just now. */
  const seedFailures = (rows: { email: string; ip: string }[]) =>
    t.query(
      `INSERT INTO login_attempts (id, email, ip) SELECT gen_random_uuid(), e, i FROM unnest($1::text[], $2::text[]) AS x(e, i)`,
      [rows.map((r) => r.email), rows.map((r) => r.ip)],
    );

  it('answers the 11th attempt for one email from one address with the 429 page, even with the right password; another address signs in', async () => {
    const org = await newTenant(t);
    const b = new DashboardBrowser(t);
    for (let i = 0; i < 10; i++) expect((await attempt(b, org.email, `wrong ${i}`)).status).toBe(200);
    const res = await attempt(b, org.email, org.password);
    expect(res.status).toBe(429);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.text).toContain('Too many sign-in attempts. Try again in 15 minutes.');
    // One address's failures never lock the owner out.
    expect((await attempt(new DashboardBrowser(t), org.email, org.password)).status).toBe(303);
    // Once the window has passed, this address signs in too.
    await t.query(
      `UPDATE login_attempts SET created_at = created_at - interval '16 minutes' WHERE email = $1`,
      [org.email],
    );
    expect((await attempt(b, org.email, org.password)).status).toBe(303);
  });

  it('answers 429 after 50 failed attempts from one address, whatever the emails; another address is not concerned', async () => {
    const b = new DashboardBrowser(t);
    await seedFailures(
      Array.from({ length: 49 }, (_, i) => ({ email: `spray-${i}-${b.ip}@test.khoums`, ip: b.ip })),
    );
    expect((await attempt(b, `last-${b.ip}@test.khoums`, 'nope')).status).toBe(200);
    const org = await newTenant(t);
    expect((await attempt(b, org.email, org.password)).status).toBe(429);
    expect((await attempt(new DashboardBrowser(t), org.email, org.password)).status).toBe(303);
  });

  it('answers 429 after 100 failed attempts for one email from all addresses', async () => {
    const org = await newTenant(t);
    await seedFailures(
      Array.from({ length: 99 }, () => ({ email: org.email, ip: new DashboardBrowser(t).ip })),
    );
    expect((await attempt(new DashboardBrowser(t), org.email, 'nope')).status).toBe(200);
    expect((await attempt(new DashboardBrowser(t), org.email, org.password)).status).toBe(429);
  });

  it('limits the current-password check of "change password" like a sign-in', async () => {
    const { org, browser } = await signedInOwner(t);
    await browser.get('/dashboard/account');
    const change = (currentPassword: string) =>
      browser.post('/dashboard/account/password', {
        currentPassword,
        newPassword: 'a new password',
        confirmPassword: 'a new password',
      });
    for (let i = 0; i < 10; i++) {
      const res = await change(`wrong ${i}`);
      expect(res.status).toBe(200);
      expect(res.text).toContain('The current password is incorrect.');
    }
    const res = await change(org.password);
    expect(res.status).toBe(429);
    expect(res.text).toContain('Too many sign-in attempts. Try again in 15 minutes.');
  });

  it('does not count successful sign-ins', async () => {
    const org = await newTenant(t);
    const b = new DashboardBrowser(t);
    for (let i = 0; i < 12; i++) expect((await attempt(b, org.email, org.password)).status).toBe(303);
  });

  it('counts in PostgreSQL: two instances share the limit, also under concurrent attempts', async () => {
    const second = await startTestApp(DASHBOARD_ENV);
    try {
      const org = await newTenant(t);
      const ip = new DashboardBrowser(t).ip;
      const browsers = Array.from({ length: 16 }, (_, i) => new DashboardBrowser(i % 2 ? second : t, ip));
      await Promise.all(browsers.map((b) => b.get('/dashboard/login')));
      const statuses = await Promise.all(
        browsers.map((b) => b.post('/dashboard/login', { email: org.email, password: 'bad' })),
      );
      expect(statuses.filter((r) => r.status === 200)).toHaveLength(10);
      expect(statuses.filter((r) => r.status === 429)).toHaveLength(6);
    } finally {
      await second.close();
    }
  });
});

describe('password hashing (scrypt) only after the cheap checks: token, form, limit', () => {
  it('runs no scrypt for a post with a bad CSRF token, over the limit, with a bad form or for an invitation that does not exist', async () => {
    const { org, browser } = await signedInOwner(t);
    await browser.get('/dashboard/account');
    const anonymous = new DashboardBrowser(t);
    await anonymous.get('/dashboard/login');
    const limited = new DashboardBrowser(t);
    await t.query(
      `INSERT INTO login_attempts (id, email, ip) SELECT gen_random_uuid(), 'x' || g || '@test.khoums', $1 FROM generate_series(1, 50) g`,
      [limited.ip],
    );
    await limited.get('/dashboard/login');
    const hashes = jest.spyOn(secrets, 'hashPassword');
    const verifies = jest.spyOn(secrets, 'verifyPassword');
    try {
      const strong = 'a strong new password';
      const refused: [DashboardBrowser, string, Record<string, string | null>, number][] = [
        [anonymous, '/dashboard/login', { email: org.email, password: org.password, _csrf: 'forged' }, 403],
        [
          anonymous,
          '/dashboard/signup',
          { name: 'x', email: `h-${Date.now()}@test.khoums`, password: strong, _csrf: null },
          403,
        ],
        [anonymous, '/dashboard/invite/sometoken', { password: strong, _csrf: 'forged' }, 403],
        [
          browser,
          '/dashboard/account/password',
          { currentPassword: org.password, newPassword: strong, confirmPassword: strong, _csrf: 'forged' },
          403,
        ],
        [limited, '/dashboard/login', { email: org.email, password: org.password }, 429],
        [
          limited,
          '/dashboard/signup',
          { name: 'x', email: `h2-${Date.now()}@test.khoums`, password: strong },
          429,
        ],
        [
          anonymous,
          '/dashboard/signup',
          { name: 'x', email: `h3-${Date.now()}@test.khoums`, password: '1234567890' },
          200,
        ],
        [anonymous, '/dashboard/invite/no-such-invitation', { password: strong }, 404],
        [
          browser,
          '/dashboard/account/password',
          { currentPassword: org.password, newPassword: 'qwertyuiop', confirmPassword: 'qwertyuiop' },
          200,
        ],
      ];
      for (const [b, path, form, status] of refused) {
        const res = await b.post(path, form);
        expect({ path, status: res.status }).toEqual({ path, status });
      }
      expect(hashes).not.toHaveBeenCalled();
      expect(verifies).not.toHaveBeenCalled();
      // The spies do see scrypt: a sign-in that passes the cheap checks runs it once.
      await anonymous.get('/dashboard/login');
      expect(
        (await anonymous.post('/dashboard/login', { email: org.email, password: org.password })).status,
      ).toBe(303);
      expect(verifies).toHaveBeenCalledTimes(1);
    } finally {
      hashes.mockRestore();
      verifies.mockRestore();
    }
  });
});

describe('CSRF', () => {
  async function ids(t: TestApp) {
    const { org, browser } = await signedInOwner(t);
    const [key] = await t.query('SELECT id FROM api_keys WHERE environment_id = $1 LIMIT 1', [
      org.sandbox.environmentId,
    ]);
    return { org, browser, keyId: key.id as string };
  }

  it("refuses every form posted without a token, with a wrong one or with another session's, with 403, changing nothing", async () => {
    const { browser, keyId } = await ids(t);
    const other = (await signedInOwner(t)).browser;
    const forms = [
      ...stateChangingForms({
        keyId,
        endpointId: '0b7a5c0e-1d7e-4f43-9a44-7d1b0f0a0001',
        deliveryId: '0b7a5c0e-1d7e-4f43-9a44-7d1b0f0a0002',
        invitationId: '0b7a5c0e-1d7e-4f43-9a44-7d1b0f0a0003',
        userId: '0b7a5c0e-1d7e-4f43-9a44-7d1b0f0a0004',
        invitationToken: 'x',
        productId: '0b7a5c0e-1d7e-4f43-9a44-7d1b0f0a0005',
        priceId: '0b7a5c0e-1d7e-4f43-9a44-7d1b0f0a0006',
        customerId: '0b7a5c0e-1d7e-4f43-9a44-7d1b0f0a0007',
        subscriptionId: '0b7a5c0e-1d7e-4f43-9a44-7d1b0f0a0008',
      }),
      ...ownSessionForms,
    ];
    for (const [path, form] of forms) {
      for (const token of [null, 'forged-token', other.csrf]) {
        const res = await browser.post(path, { ...form, _csrf: token });
        expect({ path, token, status: res.status }).toEqual({ path, token, status: 403 });
        expect(res.text).toContain('Security check');
      }
    }
    expect(
      (await t.query('SELECT revoked_at FROM api_keys WHERE id = $1', [keyId]))[0].revoked_at,
    ).toBeNull();
    expect((await browser.get('/dashboard')).status).toBe(200);
  });

  it('refuses the anonymous forms (sign-in, sign-up, invitation) without a valid token', async () => {
    const org = await newTenant(t);
    const b = new DashboardBrowser(t);
    await b.get('/dashboard/login');
    for (const [path, form] of [
      ['/dashboard/login', { email: org.email, password: org.password }],
      ['/dashboard/signup', { name: 'x', email: `csrf-${Date.now()}@test.khoums`, password: 'long enough' }],
      ['/dashboard/invite/sometoken', { password: 'long enough' }],
    ] as const) {
      for (const token of [null, 'forged']) {
        const res = await b.post(path, { ...form, _csrf: token });
        expect({ path, status: res.status }).toEqual({ path, status: 403 });
      }
    }
  });

  it("binds a signed-in form's token to the session: a token from before sign-in does not work after", async () => {
    const org = await newTenant(t);
    const b = new DashboardBrowser(t);
    await b.get('/dashboard/login');
    const anonymous = b.csrf;
    await b.post('/dashboard/login', { email: org.email, password: org.password });
    expect((await b.post('/dashboard/keys', { type: 'secret', _csrf: anonymous })).status).toBe(403);
  });
});

describe('languages', () => {
  it('speaks French, Arabic or English: ?lang= first (remembered), then Accept-Language, English when none', async () => {
    const b = new DashboardBrowser(t, undefined, 'fr-FR,fr;q=0.9');
    expect((await b.get('/dashboard/login')).text).toContain('<html lang="fr" dir="ltr">');
    const en = await b.get('/dashboard/login?lang=en');
    expect(en.text).toContain('<html lang="en" dir="ltr">');
    expect(en.text).toContain('Sign in to the dashboard');
    expect((await b.get('/dashboard/login')).text).toContain('<html lang="en" dir="ltr">');
    const none = await t.http.get('/dashboard/login').set('accept-language', 'de-DE,es;q=0.8');
    expect(none.text).toContain('<html lang="en" dir="ltr">');
    const ar = await t.http.get('/dashboard/login').set('accept-language', 'ar, fr;q=0.8');
    expect(ar.text).toContain('<html lang="ar" dir="rtl">');
    expect(ar.text).toContain('تسجيل الدخول إلى لوحة التحكم');
  });
});

it('answered every page once: nothing in the log says a reply was sent twice, nor any error of the dashboard', () => {
  expect(t.logs.filter((l) => /FST_ERR_REP_ALREADY_SENT|DashboardErrorFilter/.test(l))).toEqual([]);
});
