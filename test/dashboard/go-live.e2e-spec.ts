import type { CreatedOrganization } from '../../src/organizations/organizations.service';
import { CLI_ACTOR } from '../../src/admin/audit-log.repository';
import { OperatorActionsService } from '../../src/admin/operator-actions.service';
import { GO_LIVE_TEXTS } from '../../src/common/i18n/go-live-texts';
import { GoLiveService } from '../../src/going-live/go-live.service';
import { newTenant, startTestApp, TestApp } from '../helpers/app';
import { DASHBOARD_ENV, DashboardBrowser, invitedMember, unescapeHtml } from '../helpers/dashboard';

/*
 * The owner's go-live application in the dashboard (docs/going-live.md): a multipart form with the
 * dashboard's CSRF token, every field checked, documents recognised by their bytes, the ID number
 * and the documents stored sealed, and a rejected application corrected and sent again.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp(DASHBOARD_ENV);
});
afterAll(() => t.close());

const en = GO_LIVE_TEXTS.en;
const PDF = Buffer.concat([
  Buffer.from('%PDF-1.7\n'),
  Buffer.from('RCCM-EXTRACT-PLAINTEXT-MARKER '.repeat(20)),
]);
const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.from('ID-CARD-PLAINTEXT-MARKER '.repeat(20)),
]);
const ID_NUMBER = '4829173650';

const VALID: Record<string, string> = {
  legalName: 'Atar Commerce SARL',
  tradeName: 'Boutique Atar',
  legalForm: 'SARL',
  rccm: 'NKC 2021 B 1234',
  nif: '30125478',
  address: 'Avenue Gamal Abdel Nasser, Nouakchott',
  representativeName: 'Mariem Mint Ahmed',
  representativeIdNumber: ID_NUMBER,
  representativePhone: '+222 22 12 34 56',
  payoutBank: 'BMCI',
  payoutHolder: 'Atar Commerce SARL',
  payoutIban: 'MR13 0002 0001 0100 0012 3456 753',
};

async function unverifiedOwner(): Promise<{ org: CreatedOrganization; browser: DashboardBrowser }> {
  const org = await newTenant(t, 'Atar Commerce', { verification: 'unverified' });
  const browser = new DashboardBrowser(t);
  await browser.signIn(org.email, org.password);
  return { org, browser };
}

type Files = Partial<
  Record<'rccmExtract' | 'representativeIdDocument', { data: Buffer; name: string; type: string }>
>;
const FILES: Files = {
  rccmExtract: { data: PDF, name: 'rccm.pdf', type: 'application/pdf' },
  representativeIdDocument: { data: PNG, name: 'id.png', type: 'image/png' },
};

/** Posts the application as a browser does (multipart, with the page's CSRF token unless `csrf` is given). */
async function apply(
  browser: DashboardBrowser,
  fields: Record<string, string>,
  files: Files = FILES,
  csrf?: string,
) {
  await browser.get('/dashboard/go-live');
  let req = browser.agent
    .post('/dashboard/go-live')
    .set('x-forwarded-for', browser.ip)
    .set('accept-language', browser.language)
    .field('_csrf', csrf ?? browser.csrf);
  for (const [name, value] of Object.entries(fields)) req = req.field(name, value);
  for (const [name, file] of Object.entries(files))
    req = req.attach(name, file.data, { filename: file.name, contentType: file.type });
  return req;
}

const applications = (organizationId: string) =>
  t.query('SELECT id FROM verification_applications WHERE organization_id = $1', [organizationId]);
const standing = async (organizationId: string) =>
  (
    await t.query(
      `SELECT o.verification_status AS status, pa.status AS payout FROM organizations o
         LEFT JOIN payout_accounts pa ON pa.organization_id = o.id WHERE o.id = $1`,
      [organizationId],
    )
  )[0];

it('shows an unverified owner where the application stands and the form', async () => {
  const { browser } = await unverifiedOwner();
  const res = await browser.get('/dashboard/go-live');
  expect(res.status).toBe(200);
  expect(res.text).toContain('data-status="unverified"');
  expect(res.text).toContain('enctype="multipart/form-data"');
  for (const bank of [
    'BNM',
    'BMCI',
    'BPM',
    'BCI',
    'CHINGUITTY',
    'SGM',
    'ATTIJARI',
    'BAMIS',
    'ORABANK',
    'GBM',
  ])
    expect(res.text).toContain(`<option value="${bank}"`);
});

it('stores the application: submitted, the payout account pending, the event, and no plaintext ID or document', async () => {
  const { org, browser } = await unverifiedOwner();
  const res = await apply(browser, VALID);
  expect({ status: res.status, location: res.headers.location }).toEqual({
    status: 303,
    location: '/dashboard/go-live?notice=submitted',
  });
  expect(await standing(org.organizationId)).toEqual({ status: 'submitted', payout: 'pending' });
  const page = await browser.get('/dashboard/go-live?notice=submitted');
  expect(page.text).toContain('data-status="submitted"');
  expect(unescapeHtml(page.text)).toContain(en.submitted);
  expect(page.text).not.toContain('data-testid="go-live-form"');

  // The raw rows: every column as text, the sealed bytes included, hold neither the ID number nor the files.
  const [application] = await t.query<{ row: string; sealed: Buffer; representative_phone: string }>(
    `SELECT a::text AS row, a.representative_id_sealed AS sealed, a.representative_phone
       FROM verification_applications a WHERE organization_id = $1`,
    [org.organizationId],
  );
  expect(application.representative_phone).toBe('22123456');
  expect(application.row).not.toContain(ID_NUMBER);
  expect(application.sealed.includes(Buffer.from(ID_NUMBER))).toBe(false);
  const documents = await t.query<{
    kind: string;
    content_type: string;
    size: number;
    sealed: Buffer;
    row: string;
  }>(
    `SELECT d.kind, d.content_type, d.size, d.sealed, d::text AS row FROM verification_documents d
      JOIN verification_applications a ON a.id = d.application_id WHERE a.organization_id = $1 ORDER BY d.kind`,
    [org.organizationId],
  );
  expect(documents.map((d) => [d.kind, d.content_type, d.size])).toEqual([
    ['rccm_extract', 'application/pdf', PDF.length],
    ['representative_id', 'image/png', PNG.length],
  ]);
  for (const d of documents) {
    expect(d.sealed.includes(Buffer.from('PLAINTEXT-MARKER'))).toBe(false);
    expect(d.row).not.toContain('PLAINTEXT');
  }
  // What operators open is what the owner sent.
  const goLive = t.app.get(GoLiveService);
  expect((await goLive.openDocument(org.organizationId, 'rccm_extract')).data).toEqual(PDF);
  expect((await goLive.openApplication(org.organizationId))!.representativeIdNumber).toBe(ID_NUMBER);
  const events = await t.query(
    `SELECT data FROM events WHERE organization_id = $1 AND kind = 'account-updated'`,
    [org.organizationId],
  );
  expect(events).toHaveLength(2);
  expect(events[0].data).toMatchObject({
    verification: { status: 'submitted' },
    payoutAccount: { bank: 'BMCI', ibanLast4: '6753', status: 'pending' },
  });
});

const INVALID: [string, string, keyof typeof en][] = [
  ['legalName', '', 'problem_required'],
  ['tradeName', 'x'.repeat(201), 'problem_tooLong'],
  ['legalForm', 'LLC', 'problem_invalidLegalForm'],
  ['rccm', '#?', 'problem_invalidRccm'],
  ['nif', '12-34', 'problem_invalidNif'],
  ['address', ' ', 'problem_required'],
  ['representativeName', '   ', 'problem_required'],
  ['representativeIdNumber', '12 34', 'problem_invalidIdNumber'],
  ['representativePhone', '12345678', 'problem_invalidPhone'],
  ['payoutBank', 'CITI', 'problem_invalidBank'],
  ['payoutHolder', '', 'problem_required'],
  ['payoutIban', 'MR1300020001010000123456754', 'problem_invalidIban'],
];

it.each(INVALID)('refuses an invalid %s with its message, and stores nothing', async (field, value, text) => {
  const { org, browser } = await unverifiedOwner();
  const res = await apply(browser, { ...VALID, [field]: value });
  expect(res.status).toBe(400);
  expect(unescapeHtml(res.text)).toContain(`data-testid="error-${field}">${en[text]}`);
  expect(await applications(org.organizationId)).toEqual([]);
  expect(await standing(org.organizationId)).toEqual({ status: 'unverified', payout: null });
});

it('shows the messages in French', async () => {
  const org = await newTenant(t, 'Atar Commerce', { verification: 'unverified' });
  const french = new DashboardBrowser(t, undefined, 'fr');
  await french.signIn(org.email, org.password);
  const res = await apply(french, { ...VALID, payoutIban: 'MR00' });
  expect(res.status).toBe(400);
  expect(unescapeHtml(res.text)).toContain(GO_LIVE_TEXTS.fr.problem_invalidIban);
});

it('recognises documents by their bytes: a text file named .pdf and declared PDF is refused, nothing stored', async () => {
  const { org, browser } = await unverifiedOwner();
  const res = await apply(browser, VALID, {
    ...FILES,
    rccmExtract: {
      data: Buffer.from('just some text, not a PDF'),
      name: 'rccm.pdf',
      type: 'application/pdf',
    },
  });
  expect(res.status).toBe(400);
  expect(unescapeHtml(res.text)).toContain(`data-testid="error-rccmExtract">${en.problem_documentType}`);
  expect(await applications(org.organizationId)).toEqual([]);
});

it('accepts a JPEG declared as anything', async () => {
  const { org, browser } = await unverifiedOwner();
  const jpeg = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(100, 1)]);
  const res = await apply(browser, VALID, {
    ...FILES,
    representativeIdDocument: { data: jpeg, name: 'scan.bin', type: 'application/octet-stream' },
  });
  expect(res.status).toBe(303);
  const [doc] = await t.query(
    `SELECT d.content_type FROM verification_documents d JOIN verification_applications a ON a.id = d.application_id
      WHERE a.organization_id = $1 AND d.kind = 'representative_id'`,
    [org.organizationId],
  );
  expect(doc.content_type).toBe('image/jpeg');
});

it('refuses a document over 5 MB, and one missing, storing nothing', async () => {
  const { org, browser } = await unverifiedOwner();
  const big = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(5 * 1024 * 1024, 0x20)]);
  const res = await apply(browser, VALID, {
    ...FILES,
    rccmExtract: { data: big, name: 'big.pdf', type: 'application/pdf' },
  });
  expect(res.status).toBe(400);
  expect(unescapeHtml(res.text)).toContain(`data-testid="error-rccmExtract">${en.problem_documentTooLarge}`);
  const missing = await apply(browser, VALID, { rccmExtract: FILES.rccmExtract });
  expect(missing.status).toBe(400);
  expect(unescapeHtml(missing.text)).toContain(
    `data-testid="error-representativeIdDocument">${en.problem_documentRequired}`,
  );
  expect(await applications(org.organizationId)).toEqual([]);
});

it('refuses the form without the CSRF token: 403, nothing stored', async () => {
  const { org, browser } = await unverifiedOwner();
  const res = await apply(browser, VALID, FILES, 'forged');
  expect(res.status).toBe(403);
  expect(await applications(org.organizationId)).toEqual([]);
});

it('answers a multipart body anywhere else 415', async () => {
  const org = await newTenant(t);
  const res = await t.http
    .post('/api/v1/payment-request')
    .set('Authorization', org.sandbox.secretKey)
    .field('transactionId', 'x')
    .field('amount', '100');
  expect({ status: res.status, text: res.text }).toEqual({ status: 415, text: 'Unsupported media type' });
});

it('refuses a second application while the first is reviewed: 409', async () => {
  const { org, browser } = await unverifiedOwner();
  expect((await apply(browser, VALID)).status).toBe(303);
  await t.query(
    `UPDATE organizations SET verification_status = 'rejected', verification_reason = 'x' WHERE id = $1`,
    [org.organizationId],
  );
  await browser.get('/dashboard/go-live');
  const csrf = browser.csrf;
  await t.query(
    `UPDATE organizations SET verification_status = 'submitted', verification_reason = NULL WHERE id = $1`,
    [org.organizationId],
  );
  const res = await apply(browser, VALID, FILES, csrf);
  expect(res.status).toBe(409);
  expect(await applications(org.organizationId)).toHaveLength(1);
});

it("shows a rejection's reason; the owner corrects one field, keeps the documents and sends it again", async () => {
  const { org, browser } = await unverifiedOwner();
  expect((await apply(browser, VALID)).status).toBe(303);
  await t.app
    .get(OperatorActionsService)
    .reject(CLI_ACTOR, org.organizationId, 'The NIF does not match the RCCM');
  const page = await browser.get('/dashboard/go-live');
  expect(page.text).toContain('data-status="rejected"');
  expect(page.text).toContain(
    '<span dir="auto" data-testid="rejection-reason">The NIF does not match the RCCM</span>',
  );
  expect(page.text).toContain('value="30125478"');
  expect(page.text).not.toContain(ID_NUMBER);

  const again = await apply(browser, { ...VALID, nif: '30125479' }, {});
  expect(again.status).toBe(303);
  expect(await standing(org.organizationId)).toEqual({ status: 'submitted', payout: 'pending' });
  expect(await applications(org.organizationId)).toHaveLength(2);
  const opened = await t.app.get(GoLiveService).openApplication(org.organizationId);
  expect(opened).toMatchObject({ nif: '30125479', representativeIdNumber: ID_NUMBER });
  expect(opened!.documents.map((d) => d.kind)).toEqual(['rccm_extract', 'representative_id']);
});

it('is for owners: a developer gets 403 on the page and the form, nothing stored', async () => {
  const { org, browser: owner } = await unverifiedOwner();
  const { browser: developer } = await invitedMember(t, owner, 'developer');
  expect((await developer.get('/dashboard/go-live')).status).toBe(403);
  await developer.get('/dashboard/account');
  const res = await apply(developer, VALID, FILES, developer.csrf);
  expect(res.status).toBe(403);
  expect(await applications(org.organizationId)).toEqual([]);
});

it('shows the verification status on every page, and owners a menu link to go live (others the status only)', async () => {
  const { org, browser: owner } = await unverifiedOwner();
  const home = await owner.get('/dashboard');
  expect(home.text).toMatch(
    /<a href="\/dashboard\/go-live" class="badge unverified" data-testid="verification-status" data-status="unverified">unverified<\/a>/,
  );
  expect(home.text).toContain('<li><a href="/dashboard/go-live">Go live</a></li>');
  const page = await owner.get('/dashboard/go-live');
  expect(page.text).toContain('<a href="/dashboard/go-live" aria-current="page">Go live</a>');

  const { browser: developer } = await invitedMember(t, owner, 'developer');
  const theirs = await developer.get('/dashboard/keys');
  expect(theirs.text).toContain('data-testid="verification-status" data-status="unverified"');
  expect(theirs.text).not.toContain('href="/dashboard/go-live"');

  await apply(owner, VALID);
  expect((await owner.get('/dashboard')).text).toContain('data-status="submitted">application sent<');
  await t.app.get(OperatorActionsService).verify(CLI_ACTOR, org.organizationId);
  expect((await developer.get('/dashboard')).text).toContain('data-status="verified">verified<');
});
