import { CLI_ACTOR } from '../../src/admin/audit-log.repository';
import {
  OperatorActionsService,
  READ_ACTIONS,
  REJECTION_REASON_MAX,
} from '../../src/admin/operator-actions.service';
import { ADMIN_TEXTS } from '../../src/common/i18n/admin-texts';
import { GO_LIVE_TEXTS } from '../../src/common/i18n/go-live-texts';
import { newTenant, startTestApp, TestApp } from '../helpers/app';
import {
  APPLICATION,
  appliedOrganization,
  ID_NUMBER,
  newOperator,
  OPERATOR_PASSWORD,
  PDF,
  PNG,
  signedInOperator,
} from '../helpers/admin';
import { DASHBOARD_ENV, DashboardBrowser, freshIp, signedInOwner, unescapeHtml } from '../helpers/dashboard';

/*
 * The operators' console /admin (docs/admin.md): a surface of its own (cookie, sessions, CSRF),
 * signed in with a password and a TOTP code, the queue, an application with its documents, the
 * decisions and terms, and the audit log.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp(DASHBOARD_ENV);
});
afterAll(() => t.close());

const en = ADMIN_TEXTS.en;
const cookieOf = (res: { headers: Record<string, unknown> }, name: string) =>
  ((res.headers['set-cookie'] as string[] | undefined) ?? []).find((c) => c.startsWith(`${name}=`));
const tokenOf = (cookie: string) => decodeURIComponent(/^[^=]+=([^;]+)/.exec(cookie)![1]);
const standing = async (organizationId: string) =>
  (
    await t.query(
      `SELECT verification_status AS status, verification_reason AS reason, fee_bps AS "feeBps", platform,
              payouts_held AS "payoutsHeld" FROM organizations WHERE id = $1`,
      [organizationId],
    )
  )[0];
/** The organization's audited changes (its reads of personal data apart: readsOf). */
const auditOf = (organizationId: string) =>
  t.query(
    `SELECT actor, operator_id AS "operatorId", action, before, after FROM operator_audit_log
      WHERE organization_id = $1 AND action <> ALL($2) ORDER BY created_at, id`,
    [organizationId, READ_ACTIONS],
  );
const readsOf = (organizationId: string) =>
  t.query(
    `SELECT actor, operator_id AS "operatorId", action, before, after, created_at AS "createdAt"
       FROM operator_audit_log WHERE organization_id = $1 AND action = ANY($2) ORDER BY created_at, id`,
    [organizationId, READ_ACTIONS],
  );

describe('signing in', () => {
  it("changing the password ends the operator's other sessions, and keeps this one", async () => {
    const { operator, browser } = await signedInOperator(t);
    const other = new DashboardBrowser(t);
    await other.get('/admin/login');
    // A later step's code: the one the first sign-in used signs in once only.
    const signIn = await other.post('/admin/login', {
      email: operator.email,
      password: operator.password,
      code: operator.code(1),
    });
    expect(signIn.status).toBe(303);
    expect((await other.get('/admin')).status).toBe(200);

    await browser.get('/admin/password');
    const changed = await browser.post('/admin/password', {
      currentPassword: operator.password,
      newPassword: 'an even newer password',
      confirmPassword: 'an even newer password',
    });
    expect(changed.status).toBe(303);
    const ended = await other.get('/admin');
    expect({ status: ended.status, location: ended.headers.location }).toEqual({
      status: 303,
      location: '/admin/login',
    });
    expect((await browser.get('/admin')).status).toBe(200);
    const [sessions] = await t.query(
      'SELECT count(*)::int AS n FROM operator_sessions WHERE operator_id = $1',
      [operator.id],
    );
    expect(sessions.n).toBe(1);
  });

  it('needs the password and the current TOTP code; then the one-time password must be changed first', async () => {
    const operator = await newOperator(t);
    const browser = new DashboardBrowser(t);
    const page = await browser.get('/admin/login');
    expect(page.status).toBe(200);
    expect(page.text).toContain('autocomplete="one-time-code"');

    for (const form of [
      { email: operator.email, password: 'not the password', code: operator.code() },
      { email: operator.email, password: operator.password, code: '000000' },
      { email: operator.email, password: operator.password, code: operator.code(2) },
      { email: 'nobody@khoums.example', password: operator.password, code: operator.code() },
    ]) {
      const res = await browser.post('/admin/login', form);
      expect(res.status).toBe(200);
      expect(res.text).toContain(en.invalidSignIn);
      expect(cookieOf(res, 'khoums_admin_session')).toBeUndefined();
    }

    const res = await browser.post('/admin/login', {
      email: operator.email.toUpperCase(),
      password: operator.password,
      code: operator.code(),
    });
    expect({ status: res.status, location: res.headers.location }).toEqual({
      status: 303,
      location: '/admin/password',
    });
    const cookie = cookieOf(res, 'khoums_admin_session')!;
    expect(cookie).toMatch(/; Path=\/admin(;|$)/);
    expect(cookie).toMatch(/; HttpOnly/);
    expect(cookie).toMatch(/; SameSite=Strict/);
    const [row] = await t.query(
      'SELECT token_hash FROM operator_sessions s JOIN operators o ON o.id = s.operator_id WHERE o.email = $1',
      [operator.email],
    );
    expect(row.token_hash.toString('utf8')).not.toContain(tokenOf(cookie));

    // Every page waits for the new password.
    for (const path of ['/admin', '/admin/audit', '/admin/organizations']) {
      const blocked = await browser.get(path);
      expect({ status: blocked.status, location: blocked.headers.location }).toEqual({
        status: 303,
        location: '/admin/password',
      });
    }
    const form = await browser.get('/admin/password');
    expect(form.text).toContain(en.passwordMustChange);
    const same = await browser.post('/admin/password', {
      currentPassword: operator.password,
      newPassword: operator.password,
      confirmPassword: operator.password,
    });
    expect(same.status).toBe(400);
    const wrong = await browser.post('/admin/password', {
      currentPassword: 'not it at all',
      newPassword: OPERATOR_PASSWORD,
      confirmPassword: OPERATOR_PASSWORD,
    });
    expect(wrong.status).toBe(400);
    expect(wrong.text).toContain(en.wrongCurrentPassword);
    const changed = await browser.post('/admin/password', {
      currentPassword: operator.password,
      newPassword: OPERATOR_PASSWORD,
      confirmPassword: OPERATOR_PASSWORD,
    });
    expect({ status: changed.status, location: changed.headers.location }).toEqual({
      status: 303,
      location: '/admin?notice=passwordChanged',
    });
    const queue = await browser.get('/admin?notice=passwordChanged');
    expect(queue.status).toBe(200);
    expect(queue.text).toContain(en.notices.passwordChanged);
    const [after] = await t.query('SELECT must_change_password FROM operators WHERE id = $1', [operator.id]);
    expect(after.must_change_password).toBe(false);

    // The one-time password no longer signs in; the new one does, with a new code.
    const again = new DashboardBrowser(t);
    await again.get('/admin/login');
    const old = await again.post('/admin/login', {
      email: operator.email,
      password: operator.password,
      code: operator.code(1),
    });
    expect(old.status).toBe(200);
    const ok = await again.post('/admin/login', {
      email: operator.email,
      password: OPERATOR_PASSWORD,
      code: operator.code(1),
    });
    expect({ status: ok.status, location: ok.headers.location }).toEqual({ status: 303, location: '/admin' });
  });

  it('takes each code once: the same code again is refused, even right after', async () => {
    const operator = await newOperator(t);
    const code = operator.code();
    const first = new DashboardBrowser(t);
    await first.get('/admin/login');
    expect(
      (await first.post('/admin/login', { email: operator.email, password: operator.password, code })).status,
    ).toBe(303);
    const second = new DashboardBrowser(t);
    await second.get('/admin/login');
    const replay = await second.post('/admin/login', {
      email: operator.email,
      password: operator.password,
      code,
    });
    expect(replay.status).toBe(200);
    expect(replay.text).toContain(en.invalidSignIn);
  });

  it('limits failed sign-ins like the dashboard: the 11th try of one email from one address is 429', async () => {
    const operator = await newOperator(t);
    const browser = new DashboardBrowser(t, freshIp());
    await browser.get('/admin/login');
    for (let i = 0; i < 10; i++) {
      const res = await browser.post('/admin/login', {
        email: operator.email,
        password: 'wrong',
        code: '123456',
      });
      expect(res.status).toBe(200);
    }
    const limited = await browser.post('/admin/login', {
      email: operator.email,
      password: operator.password,
      code: operator.code(),
    });
    expect(limited.status).toBe(429);
    expect(limited.text).toContain(en.tooManyBody);
    expect(cookieOf(limited, 'khoums_admin_session')).toBeUndefined();
  });

  it('signs out: the session row is gone and its cookie opens nothing', async () => {
    const { operator, browser } = await signedInOperator(t);
    const res = await browser.post('/admin/logout');
    expect({ status: res.status, location: res.headers.location }).toEqual({
      status: 303,
      location: '/admin/login',
    });
    const [n] = await t.query('SELECT count(*)::int AS n FROM operator_sessions WHERE operator_id = $1', [
      operator.id,
    ]);
    expect(n.n).toBe(0);
    expect((await browser.get('/admin')).headers.location).toBe('/admin/login');
  });

  it('ends a session after 30 idle minutes, and slides it on every request', async () => {
    const { operator, browser } = await signedInOperator(t);
    const [left] = await t.query(
      `SELECT extract(epoch FROM expires_at - now())::int AS seconds FROM operator_sessions WHERE operator_id = $1`,
      [operator.id],
    );
    expect(left.seconds).toBeGreaterThan(29 * 60);
    expect(left.seconds).toBeLessThanOrEqual(30 * 60);
    // 31 minutes without a request.
    await t.query(
      `UPDATE operator_sessions SET created_at = now() - interval '40 minutes',
              last_seen_at = now() - interval '31 minutes', expires_at = now() - interval '1 minute'
        WHERE operator_id = $1`,
      [operator.id],
    );
    const res = await browser.get('/admin');
    expect({ status: res.status, location: res.headers.location }).toEqual({
      status: 303,
      location: '/admin/login',
    });
  });

  it('speaks French and Arabic (right to left) too', async () => {
    const ar = await t.http.get('/admin/login?lang=ar');
    expect(ar.text).toContain('<html lang="ar" dir="rtl">');
    expect(ar.text).toContain(ADMIN_TEXTS.ar.signInTitle);
    const fr = await t.http.get('/admin/login').set('accept-language', 'fr-FR');
    expect(fr.text).toContain('<html lang="fr" dir="ltr">');
    expect(fr.text).toContain(ADMIN_TEXTS.fr.signInTitle);
  });
});

describe('a surface of its own', () => {
  it("never opens with a merchant's dashboard session, nor the dashboard with an operator's", async () => {
    const { browser: owner } = await signedInOwner(t);
    // The merchant's own browser (its dashboard cookies) gets the operators' sign-in page.
    for (const path of [
      '/admin',
      '/admin/audit',
      `/admin/organizations/${'0'.repeat(8)}-0000-4000-8000-${'0'.repeat(12)}`,
    ]) {
      const res = await owner.get(path);
      expect({ status: res.status, location: res.headers.location }).toEqual({
        status: 303,
        location: '/admin/login',
      });
    }
    // The merchant's session value under the console's cookie name opens nothing either.
    const merchantLogin = new DashboardBrowser(t);
    await merchantLogin.get('/dashboard/login');
    const org = await newTenant(t, 'Cookie Swap');
    const signed = await merchantLogin.post('/dashboard/login', { email: org.email, password: org.password });
    const merchantToken = tokenOf(cookieOf(signed, 'khoums_session')!);
    const swapped = await t.http.get('/admin').set('cookie', `khoums_admin_session=${merchantToken}`);
    expect({ status: swapped.status, location: swapped.headers.location }).toEqual({
      status: 303,
      location: '/admin/login',
    });

    // And the other way: an operator's session value opens no dashboard page.
    const operator = await newOperator(t);
    const ops = new DashboardBrowser(t);
    await ops.get('/admin/login');
    const res = await ops.post('/admin/login', {
      email: operator.email,
      password: operator.password,
      code: operator.code(),
    });
    const operatorToken = tokenOf(cookieOf(res, 'khoums_admin_session')!);
    for (const cookie of [`khoums_session=${operatorToken}`, `khoums_admin_session=${operatorToken}`]) {
      const dash = await t.http.get('/dashboard').set('cookie', cookie);
      expect({ status: dash.status, location: dash.headers.location }).toEqual({
        status: 303,
        location: '/dashboard/login',
      });
    }
    expect((await ops.get('/dashboard')).headers.location).toBe('/dashboard/login');
  });

  it("refuses a form without the console's CSRF token (a dashboard token included), changing nothing", async () => {
    const { org } = await appliedOrganization(t);
    const { browser } = await signedInOperator(t);
    const { browser: owner } = await signedInOwner(t);
    await owner.get('/dashboard/account');
    for (const csrf of [null, '', owner.csrf]) {
      const res = await browser.post(`/admin/organizations/${org.organizationId}/approve`, { _csrf: csrf });
      expect(res.status).toBe(403);
      expect(res.text).toContain(en.securityTitle);
    }
    expect((await standing(org.organizationId)).status).toBe('submitted');
    expect(await auditOf(org.organizationId)).toEqual([]);
  });

  it('answers an unknown path with the 404 page, and an anonymous one with the sign-in page', async () => {
    const { browser } = await signedInOperator(t);
    expect((await browser.get('/admin/nothing-here')).status).toBe(404);
    expect((await browser.get('/admin/organizations/not-a-uuid')).status).toBe(404);
    expect((await browser.get(`/admin/organizations/${crypto.randomUUID()}`)).status).toBe(404);
    expect((await t.http.get('/admin/nothing-here')).headers.location).toBe('/admin/login');
  });
});

describe('the queue and an application', () => {
  it('lists submitted applications oldest first, and only those', async () => {
    const { org: later } = await appliedOrganization(t, 'Later Shop');
    const { org: earlier } = await appliedOrganization(t, 'Earlier Shop');
    const unverified = await newTenant(t, 'Never Applied', { verification: 'unverified' });
    await t.query(
      `UPDATE organizations SET verification_submitted_at = now() - interval '2 days' WHERE id = $1`,
      [earlier.organizationId],
    );
    const { browser } = await signedInOperator(t);
    const res = await browser.get('/admin');
    const ids = [...res.text.matchAll(/data-testid="queued" data-id="([^"]+)"/g)].map((m) => m[1]);
    expect(ids.indexOf(earlier.organizationId)).toBeGreaterThanOrEqual(0);
    expect(ids.indexOf(earlier.organizationId)).toBeLessThan(ids.indexOf(later.organizationId));
    expect(ids).not.toContain(unverified.organizationId);
  });

  it('shows the application with the ID number opened, and serves each document decrypted as a download, never cached', async () => {
    const otherPdf = Buffer.concat([
      Buffer.from('%PDF-1.4\n'),
      Buffer.from('ANOTHER ORGANIZATION '.repeat(10)),
    ]);
    const { org } = await appliedOrganization(t, 'Documents Shop');
    const { org: other } = await appliedOrganization(t, 'Other Shop', { pdf: otherPdf, png: PNG });
    const { browser } = await signedInOperator(t);
    const page = await browser.get(`/admin/organizations/${org.organizationId}`);
    expect(page.status).toBe(200);
    expect(page.text).toMatch(
      new RegExp(`data-testid="field-representativeIdNumber"[^>]*><bdi>${ID_NUMBER}<`),
    );
    expect(page.text).toContain('MR1300020001010000123456753');
    const link = `/admin/organizations/${org.organizationId}/documents/rccm-extract`;
    expect(page.text).toContain(`href="${link}"`);

    const pdf = await browser.agent
      .get(link)
      .buffer(true)
      .parse((res, done) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => done(null, Buffer.concat(chunks)));
      });
    expect(pdf.status).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.headers['content-disposition']).toBe(
      `attachment; filename="rccm-extract-${org.organizationId}.pdf"`,
    );
    expect(pdf.headers['cache-control']).toBe('no-store');
    expect(Buffer.compare(pdf.body as Buffer, PDF)).toBe(0);

    const png = await browser.agent
      .get(`/admin/organizations/${org.organizationId}/documents/representative-id`)
      .buffer(true)
      .parse((res, done) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => done(null, Buffer.concat(chunks)));
      });
    expect(png.headers['content-type']).toBe('image/png');
    expect(png.headers['content-disposition']).toMatch(/^attachment; filename="representative-id-.+\.png"$/);
    expect(Buffer.compare(png.body as Buffer, PNG)).toBe(0);

    // Each organization's own documents.
    const theirs = await browser.agent
      .get(`/admin/organizations/${other.organizationId}/documents/rccm-extract`)
      .buffer(true)
      .parse((res, done) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => done(null, Buffer.concat(chunks)));
      });
    expect(Buffer.compare(theirs.body as Buffer, otherPdf)).toBe(0);

    // Not a document kind, an organization without an application, and no session: nothing.
    expect((await browser.get(`/admin/organizations/${org.organizationId}/documents/passport`)).status).toBe(
      404,
    );
    const none = await newTenant(t, 'No Application');
    expect(
      (await browser.get(`/admin/organizations/${none.organizationId}/documents/rccm-extract`)).status,
    ).toBe(404);
    expect((await t.http.get(link)).headers.location).toBe('/admin/login');
  });

  it('rejects with a required reason the owner then reads, takes the corrected application, and approves it', async () => {
    const { org, owner } = await appliedOrganization(t, 'Decided Shop');
    const { operator, browser } = await signedInOperator(t);
    const path = `/admin/organizations/${org.organizationId}`;
    const page = await browser.get(path);
    expect(page.text).toContain(`maxlength="${REJECTION_REASON_MAX}"`);

    const empty = await browser.post(`${path}/reject`, { reason: '   ' });
    expect(empty.status).toBe(400);
    expect(empty.text).toContain(en.reasonRequired);
    const long = await browser.post(`${path}/reject`, { reason: 'x'.repeat(REJECTION_REASON_MAX + 1) });
    expect(long.status).toBe(400);
    expect(long.text).toContain(en.reasonRequired);
    expect((await standing(org.organizationId)).status).toBe('submitted');

    const reason = 'The RCCM extract is older than three months';
    const rejected = await browser.post(`${path}/reject`, { reason });
    expect({ status: rejected.status, location: rejected.headers.location }).toEqual({
      status: 303,
      location: `${path}?notice=rejected`,
    });
    expect(await standing(org.organizationId)).toMatchObject({ status: 'rejected', reason });
    const seen = await owner.get('/dashboard/go-live');
    expect(unescapeHtml(seen.text)).toContain(reason);
    expect(seen.text).toContain(GO_LIVE_TEXTS.en.submitAgain);

    // Not waiting any more: neither decision is taken.
    await browser.get(path);
    const late = await browser.post(`${path}/approve`);
    expect(late.status).toBe(409);
    expect(late.text).toContain(en.notUnderReview);
    expect((await standing(org.organizationId)).status).toBe('rejected');

    // The owner corrects (keeping the documents) and sends again; the operator approves.
    await owner.get('/dashboard/go-live');
    let req = owner.agent
      .post('/dashboard/go-live')
      .set('x-forwarded-for', owner.ip)
      .field('_csrf', owner.csrf);
    for (const [field, value] of Object.entries({ ...APPLICATION, tradeName: 'Boutique Atar 2' }))
      req = req.field(field, value);
    expect((await req).status).toBe(303);
    await browser.get(path);
    const approved = await browser.post(`${path}/approve`);
    expect(approved.headers.location).toBe(`${path}?notice=verified`);
    expect((await standing(org.organizationId)).status).toBe('verified');

    const audit = await auditOf(org.organizationId);
    expect(audit.map((e) => [e.actor, e.operatorId, e.action])).toEqual([
      [operator.email, operator.id, 'organization.reject'],
      [operator.email, operator.id, 'organization.verify'],
    ]);
    expect(audit[1].before.verification.status).toBe('submitted');
    expect(audit[1].after.verification.status).toBe('verified');

    // The Production key now asks for money.
    const created = await t.http
      .post('/api/v1/payment-request')
      .set('Authorization', org.production.secretKey)
      .send({ transactionId: `after-approval-${Date.now()}`, amount: 500, phoneNumber: '22123456' });
    expect(created.status).toBe(200);
  });

  it('sets the fee rate (0..10000 basis points, empty: the default), the platform flag and the payout hold, each audited', async () => {
    const org = await newTenant(t, 'Terms Shop');
    const { operator, browser } = await signedInOperator(t);
    const path = `/admin/organizations/${org.organizationId}`;
    await browser.get(path);
    for (const bad of ['10001', '-1', '2.5', 'abc']) {
      const res = await browser.post(`${path}/fee-rate`, { feeBps: bad });
      expect(res.status).toBe(400);
      expect(res.text).toContain(en.invalidFeeRate);
    }
    expect((await standing(org.organizationId)).feeBps).toBeNull();
    expect((await browser.post(`${path}/fee-rate`, { feeBps: '250' })).headers.location).toBe(
      `${path}?notice=feeRate`,
    );
    expect((await standing(org.organizationId)).feeBps).toBe(250);
    await browser.get(path);
    await browser.post(`${path}/fee-rate`, { feeBps: '' });
    expect((await standing(org.organizationId)).feeBps).toBeNull();

    await browser.get(path);
    await browser.post(`${path}/platform`, { platform: 'true' });
    expect((await standing(org.organizationId)).platform).toBe(true);
    await browser.get(path);
    await browser.post(`${path}/payouts`, { held: 'true' });
    expect((await standing(org.organizationId)).payoutsHeld).toBe(true);
    const page = await browser.get(path);
    expect(page.text).toContain('data-testid="release-payouts"');
    expect(page.text).toContain('data-testid="unmark-platform"');
    await browser.post(`${path}/payouts`, { held: 'false' });
    expect((await standing(org.organizationId)).payoutsHeld).toBe(false);

    const audit = await auditOf(org.organizationId);
    expect(audit.map((e) => e.action)).toEqual([
      'organization.fee_rate',
      'organization.fee_rate',
      'organization.platform',
      'organization.payouts_hold',
      'organization.payouts_release',
    ]);
    expect(audit.every((e) => e.operatorId === operator.id)).toBe(true);
    expect([audit[0].before.feeBps, audit[0].after.feeBps]).toEqual([null, 250]);
  });

  it('finds organizations by name or id, and by status', async () => {
    const name = `Findable ${Date.now()}`;
    const org = await newTenant(t, name, { verification: 'unverified' });
    const { browser } = await signedInOperator(t);
    const byName = await browser.get(`/admin/organizations?q=${encodeURIComponent(name.toLowerCase())}`);
    expect(byName.text).toContain(`data-id="${org.organizationId}"`);
    const byId = await browser.get(`/admin/organizations?q=${org.organizationId}`);
    expect(byId.text).toContain(`data-id="${org.organizationId}"`);
    const verified = await browser.get(`/admin/organizations?q=${encodeURIComponent(name)}&status=verified`);
    expect(verified.text).not.toContain(`data-id="${org.organizationId}"`);
    const wildcard = await browser.get('/admin/organizations?q=%25_%25');
    expect(wildcard.status).toBe(200);
  });
});

describe('the audit log', () => {
  it('shows who, what, when, before and after, filtered by operator, action, organization and dates', async () => {
    const org = await newTenant(t, 'Audited Shop');
    const { operator, browser } = await signedInOperator(t);
    const { operator: other, browser: otherBrowser } = await signedInOperator(t);
    const path = `/admin/organizations/${org.organizationId}`;
    await browser.get(path);
    await browser.post(`${path}/fee-rate`, { feeBps: '120' });
    await otherBrowser.get(path);
    await otherBrowser.post(`${path}/platform`, { platform: 'true' });

    const entries = (html: string) =>
      [...html.matchAll(/data-testid="audit-entry" data-action="([^"]+)" data-organization="([^"]*)"/g)].map(
        (m) => [m[1], m[2]],
      );
    const mine = await browser.get(`/admin/audit?organization=${org.organizationId}`);
    expect(entries(mine.text)).toEqual([
      ['organization.platform', org.organizationId],
      ['organization.fee_rate', org.organizationId],
    ]);
    expect(mine.text).toContain(operator.email);
    expect(mine.text).toContain(other.email);
    expect(unescapeHtml(mine.text)).toContain('<code>feeBps</code>: <code>null</code> → <code>120</code>');

    const byOperator = await browser.get(
      `/admin/audit?organization=${org.organizationId}&operator=${operator.id}`,
    );
    expect(entries(byOperator.text)).toEqual([['organization.fee_rate', org.organizationId]]);
    const byAction = await browser.get(
      `/admin/audit?organization=${org.organizationId}&action=organization.platform`,
    );
    expect(entries(byAction.text)).toEqual([['organization.platform', org.organizationId]]);
    const today = new Date().toISOString().slice(0, 10);
    const inRange = await browser.get(
      `/admin/audit?organization=${org.organizationId}&from=${today}&to=${today}`,
    );
    expect(entries(inRange.text)).toHaveLength(2);
    const before = await browser.get(`/admin/audit?organization=${org.organizationId}&to=2020-01-01`);
    expect(entries(before.text)).toEqual([]);
    const after = await browser.get(`/admin/audit?organization=${org.organizationId}&from=2999-01-01`);
    expect(entries(after.text)).toEqual([]);
  });

  it('records each opening of the ID number and of a document (operator, organization, what, when), shown and filtered on the audit page', async () => {
    const { org } = await appliedOrganization(t, 'Read Shop');
    const { operator, browser } = await signedInOperator(t);
    const { operator: other, browser: otherBrowser } = await signedInOperator(t);
    const path = `/admin/organizations/${org.organizationId}`;
    expect(await readsOf(org.organizationId)).toEqual([]);
    const started = new Date();

    // The page that shows the decrypted ID number: one entry per showing.
    expect((await browser.get(path)).text).toContain(ID_NUMBER);
    expect((await browser.get(`${path}/documents/rccm-extract`)).status).toBe(200);
    expect((await otherBrowser.get(`${path}/documents/representative-id`)).status).toBe(200);
    // What opens nothing records nothing: an unknown kind, an organization that never applied.
    expect((await browser.get(`${path}/documents/passport`)).status).toBe(404);
    const none = await newTenant(t, 'Never Applied');
    expect((await browser.get(`/admin/organizations/${none.organizationId}`)).status).toBe(200);
    expect(
      (await browser.get(`/admin/organizations/${none.organizationId}/documents/rccm-extract`)).status,
    ).toBe(404);
    expect(
      await t.query('SELECT 1 FROM operator_audit_log WHERE organization_id = $1', [none.organizationId]),
    ).toEqual([]);

    const reads = await readsOf(org.organizationId);
    expect(reads).toEqual([
      {
        actor: operator.email,
        operatorId: operator.id,
        action: 'organization.show_id_number',
        before: null,
        after: { field: 'representativeIdNumber', applicationId: expect.any(String) },
        createdAt: expect.any(Date),
      },
      {
        actor: operator.email,
        operatorId: operator.id,
        action: 'organization.open_document',
        before: null,
        after: { document: 'rccm_extract' },
        createdAt: expect.any(Date),
      },
      {
        actor: other.email,
        operatorId: other.id,
        action: 'organization.open_document',
        before: null,
        after: { document: 'representative_id' },
        createdAt: expect.any(Date),
      },
    ]);
    expect(reads.every((r) => r.createdAt >= new Date(started.getTime() - 1000))).toBe(true);

    // The audit page shows them, offers them as filters, and filters by them.
    const rows = (html: string) =>
      [
        ...unescapeHtml(html).matchAll(
          /data-testid="audit-entry" data-action="([^"]+)"[\s\S]*?data-testid="audit-who"><bdi>([^<]+)<[\s\S]*?data-testid="audit-read">([^<]+)</g,
        ),
      ].map((m) => [m[1], m[2], m[3]]);
    const all = await browser.get(`/admin/audit?organization=${org.organizationId}`);
    expect(all.text).toContain(
      `<option value="organization.open_document">${en.action_open_document}</option>`,
    );
    expect(all.text).toContain(
      `<option value="organization.show_id_number">${en.action_show_id_number}</option>`,
    );
    const documents = await browser.get(
      `/admin/audit?organization=${org.organizationId}&action=organization.open_document`,
    );
    expect(rows(documents.text)).toEqual([
      ['organization.open_document', other.email, "Opened: Representative's ID"],
      ['organization.open_document', operator.email, 'Opened: RCCM extract'],
    ]);
    const idNumbers = await browser.get(
      `/admin/audit?organization=${org.organizationId}&action=organization.show_id_number`,
    );
    expect(rows(idNumbers.text)).toEqual([
      ['organization.show_id_number', operator.email, 'Opened: National ID number (NNI)'],
    ]);
    const byOther = await browser.get(`/admin/audit?organization=${org.organizationId}&operator=${other.id}`);
    expect(rows(byOther.text)).toEqual([
      ['organization.open_document', other.email, "Opened: Representative's ID"],
    ]);
    // The audit page's own showing of the entries is no read of personal data.
    expect(await readsOf(org.organizationId)).toHaveLength(3);
  });

  it('shows the command line as the actor of its entries', async () => {
    const org = await newTenant(t, 'CLI Shop', { verification: 'unverified' });
    await t.app.get(OperatorActionsService).verify(CLI_ACTOR, org.organizationId);
    const { browser } = await signedInOperator(t);
    const res = await browser.get(`/admin/audit?operator=cli&organization=${org.organizationId}`);
    expect(res.text).toMatch(/data-testid="audit-who"><bdi>command line</);
  });
});

it('lets one of two operators deciding at once win: the other is told, and one decision is audited', async () => {
  const { org } = await appliedOrganization(t, 'Raced Shop');
  const { browser: first } = await signedInOperator(t);
  const { browser: second } = await signedInOperator(t);
  const path = `/admin/organizations/${org.organizationId}`;
  await first.get(path);
  await second.get(path);
  const [approve, reject] = await Promise.all([
    first.post(`${path}/approve`),
    second.post(`${path}/reject`, { reason: 'Unreadable ID' }),
  ]);
  expect([approve.status, reject.status].sort()).toEqual([303, 409]);
  const audit = await auditOf(org.organizationId);
  expect(audit).toHaveLength(1);
  expect((await standing(org.organizationId)).status).toBe(
    audit[0].action === 'organization.verify' ? 'verified' : 'rejected',
  );
});

it('never logs the password, the TOTP code or the ID number, and refuses a NUL in a form with 400', async () => {
  const operator = await newOperator(t);
  const code = operator.code();
  const browser = new DashboardBrowser(t);
  await browser.get('/admin/login');
  await browser.post('/admin/login', { email: operator.email, password: operator.password, code });
  await browser.get('/admin/password');
  const nul = await browser.post('/admin/password', {
    currentPassword: 'a\u0000b',
    newPassword: OPERATOR_PASSWORD,
    confirmPassword: OPERATOR_PASSWORD,
  });
  expect(nul.status).toBe(400);
  await browser.post('/admin/password', {
    currentPassword: operator.password,
    newPassword: OPERATOR_PASSWORD,
    confirmPassword: OPERATOR_PASSWORD,
  });
  const { org } = await appliedOrganization(t, 'Logged Shop');
  expect((await browser.get(`/admin/organizations/${org.organizationId}`)).text).toContain(ID_NUMBER);
  const logs = t.logs.join('\n');
  // As whole tokens: a 6-digit code may well occur inside a longer number (a timestamp).
  for (const secret of [operator.password, OPERATOR_PASSWORD, code, ID_NUMBER])
    expect({ secret, logged: new RegExp(`(?<![0-9A-Za-z])${secret}(?![0-9A-Za-z])`).test(logs) }).toEqual({
      secret,
      logged: false,
    });
});
