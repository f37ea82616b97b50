import { OperatorsService } from '../../src/admin/operators.service';
import { totp } from '../../src/admin/totp';
import type { CreatedOrganization } from '../../src/organizations/organizations.service';
import { newTenant, TestApp } from './app';
import { DashboardBrowser } from './dashboard';

/** The secret of an otpauth:// URI (base32, RFC 4648), as an authenticator app reads it. */
export function totpSecretOf(uri: string): Buffer {
  const base32 = new URL(uri).searchParams.get('secret')!;
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = '';
  for (const c of base32) bits += alphabet.indexOf(c).toString(2).padStart(5, '0');
  return Buffer.from(bits.match(/.{8}/g)!.map((b) => parseInt(b, 2)));
}

export interface TestOperator {
  id: string;
  email: string;
  password: string;
  secret: Buffer;
  /** The code of the current 30-second step (or of the step `stepsAhead` later). */
  code(stepsAhead?: number): string;
}

let operators = 0;
/** A new operator, as `operator:create` makes one (its one-time password still to change). */
export async function newOperator(t: TestApp): Promise<TestOperator> {
  operators += 1;
  const created = await t.app
    .get(OperatorsService)
    .create(`ops-${process.pid}-${Date.now()}-${operators}@khoums.example`);
  const secret = totpSecretOf(created.otpauthUri);
  return {
    id: created.id,
    email: created.email,
    password: created.password,
    secret,
    code: (stepsAhead = 0) => totp(secret, Date.now() + stepsAhead * 30_000),
  };
}

export const OPERATOR_PASSWORD = 'operator chosen password';

/**
 * A browser signed in to /admin as a new operator who has changed the one-time password (the
 * change signs in with the current code, so each operator signs in once per test).
 */
export async function signedInOperator(
  t: TestApp,
): Promise<{ operator: TestOperator; browser: DashboardBrowser }> {
  const operator = await newOperator(t);
  const browser = new DashboardBrowser(t);
  await browser.get('/admin/login');
  const res = await browser.post('/admin/login', {
    email: operator.email,
    password: operator.password,
    code: operator.code(),
  });
  if (res.status !== 303) throw new Error(`operator sign-in failed: ${res.status} ${res.text.slice(0, 300)}`);
  await browser.get('/admin/password');
  const changed = await browser.post('/admin/password', {
    currentPassword: operator.password,
    newPassword: OPERATOR_PASSWORD,
    confirmPassword: OPERATOR_PASSWORD,
  });
  if (changed.status !== 303) throw new Error(`password change failed: ${changed.status}`);
  operator.password = OPERATOR_PASSWORD;
  await browser.get('/admin');
  return { operator, browser };
}

export const PDF = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.from('RCCM-EXTRACT-ADMIN '.repeat(20))]);
export const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.from('ID-CARD-ADMIN '.repeat(20)),
]);
export const ID_NUMBER = '4829173650';

export const APPLICATION: Record<string, string> = {
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

/** An unverified organization whose owner has applied through /dashboard/go-live with both documents. */
export async function appliedOrganization(
  t: TestApp,
  name = 'Atar Commerce',
  documents: { pdf: Buffer; png: Buffer } = { pdf: PDF, png: PNG },
): Promise<{ org: CreatedOrganization; owner: DashboardBrowser }> {
  const org = await newTenant(t, name, { verification: 'unverified' });
  const owner = new DashboardBrowser(t);
  await owner.signIn(org.email, org.password);
  await owner.get('/dashboard/go-live');
  let req = owner.agent
    .post('/dashboard/go-live')
    .set('x-forwarded-for', owner.ip)
    .field('_csrf', owner.csrf);
  for (const [field, value] of Object.entries(APPLICATION)) req = req.field(field, value);
  req = req
    .attach('rccmExtract', documents.pdf, { filename: 'rccm.pdf', contentType: 'application/pdf' })
    .attach('representativeIdDocument', documents.png, { filename: 'id.png', contentType: 'image/png' });
  const res = await req;
  if (res.status !== 303) throw new Error(`applying failed: ${res.status} ${res.text.slice(0, 300)}`);
  return { org, owner };
}
