import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { Client } from 'pg';
import { databaseEnv, testDatabaseUrl } from '../helpers/app';
import { buildDist } from '../helpers/build';

/*
 * The operators' commands of docs/going-live.md, run as an operator runs them: the built CLI
 * against the service's database.
 */
const ROOT = resolve(__dirname, '../..');
jest.setTimeout(180_000);

let db: Client;
beforeAll(async () => {
  buildDist();
  db = new Client({ connectionString: testDatabaseUrl() });
  await db.connect();
});
afterAll(() => db.end());

function cli(...args: string[]): { stdout: string; stderr: string; status: number } {
  try {
    const stdout = execFileSync(process.execPath, ['dist/src/cli/main.js', ...args], {
      cwd: ROOT,
      env: { ...process.env, ...databaseEnv(testDatabaseUrl()), LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    return { stdout: stdout.toString(), stderr: '', status: 0 };
  } catch (e) {
    const err = e as { stdout: Buffer; stderr: Buffer; status: number };
    return { stdout: err.stdout.toString(), stderr: err.stderr.toString(), status: err.status };
  }
}

let n = 0;
const email = () => `cli-${process.pid}-${Date.now()}-${++n}@golive.example`;
const organization = async (id: string) =>
  (
    await db.query(
      `SELECT o.verification_status, o.verification_reason, o.platform, pa.bank, pa.holder_name, pa.iban, pa.status
         FROM organizations o LEFT JOIN payout_accounts pa ON pa.organization_id = o.id WHERE o.id = $1`,
      [id],
    )
  ).rows[0];
const auditOf = async (id: string) =>
  (
    await db.query(
      `SELECT actor, action FROM operator_audit_log WHERE organization_id = $1 ORDER BY created_at, id`,
      [id],
    )
  ).rows;

it('org:create makes a verified organization, and an unverified one with --unverified', async () => {
  const made = cli('org:create', '--name', 'Verified Shop', '--email', email(), '--json');
  expect(made.status).toBe(0);
  const { organizationId } = JSON.parse(made.stdout);
  expect(await organization(organizationId)).toMatchObject({
    verification_status: 'verified',
    platform: false,
  });

  const unverified = cli(
    'org:create',
    '--name',
    'Unverified Shop',
    '--email',
    email(),
    '--json',
    '--unverified',
  );
  expect(unverified.status).toBe(0);
  const id = JSON.parse(unverified.stdout).organizationId;
  expect(await organization(id)).toMatchObject({ verification_status: 'unverified', bank: null });
});

it('org:create --platform --payout-* makes a platform with an approved payout account, audited as the CLI', async () => {
  const made = cli(
    'org:create',
    '--name',
    'Platform Shop',
    '--email',
    email(),
    '--json',
    '--platform',
    '--payout-iban',
    'MR13 0002 0001 0100 0012 3456 753',
    '--payout-bank',
    'BNM',
    '--payout-holder',
    'Platform Shop SA',
  );
  expect(made.status).toBe(0);
  const { organizationId } = JSON.parse(made.stdout);
  expect(await organization(organizationId)).toMatchObject({
    verification_status: 'verified',
    platform: true,
    bank: 'BNM',
    holder_name: 'Platform Shop SA',
    iban: 'MR1300020001010000123456753',
    status: 'approved',
  });
  expect(await auditOf(organizationId)).toEqual([{ actor: 'cli', action: 'organization.payout_account' }]);
});

it('org:create refuses an invalid IBAN and creates nothing', async () => {
  const address = email();
  const made = cli(
    'org:create',
    '--name',
    'Bad IBAN',
    '--email',
    address,
    '--payout-iban',
    'MR1300020001010000123456754',
    '--payout-bank',
    'BNM',
    '--payout-holder',
    'X',
  );
  expect(made.status).toBe(1);
  expect(made.stderr).toContain('IBAN must be MR followed by 25 digits, with valid check digits');
  expect((await db.query(`SELECT 1 FROM users WHERE email = $1`, [address])).rows).toEqual([]);
});

it('org:reject, org:verify and org:platform change the organization and are audited as the CLI', async () => {
  const { organizationId: id } = JSON.parse(
    cli('org:create', '--name', 'Decided Shop', '--email', email(), '--json', '--unverified').stdout,
  );
  const rejected = cli('org:reject', id, '--reason', 'RCCM extract missing');
  expect(rejected.status).toBe(0);
  expect(JSON.parse(rejected.stdout).verification).toMatchObject({
    status: 'rejected',
    reason: 'RCCM extract missing',
  });
  expect(cli('org:verify', id).status).toBe(0);
  expect(cli('org:platform', id).status).toBe(0);
  expect(await organization(id)).toMatchObject({ verification_status: 'verified', platform: true });
  expect(await auditOf(id)).toEqual([
    { actor: 'cli', action: 'organization.reject' },
    { actor: 'cli', action: 'organization.verify' },
    { actor: 'cli', action: 'organization.platform' },
  ]);
});

it('refuses org:reject without a reason and an unknown organization', async () => {
  const { organizationId: id } = JSON.parse(
    cli('org:create', '--name', 'S', '--email', email(), '--json').stdout,
  );
  expect(cli('org:reject', id).status).toBe(2);
  const unknown = cli('org:verify', '00000000-0000-4000-8000-000000000000');
  expect(unknown.status).toBe(1);
  expect(unknown.stderr).toContain('Organization not found');
});

it('operator:create prints the id, the email, a one-time password and an otpauth URI, once; the password is to change', async () => {
  const address = email().replace('@golive.example', '@ops.example');
  const made = cli('operator:create', '--email', address, '--json');
  expect(made.status).toBe(0);
  const printed = JSON.parse(made.stdout);
  expect(Object.keys(printed).sort()).toEqual(['email', 'id', 'otpauthUri', 'password']);
  expect(printed.email).toBe(address);
  expect(printed.password.length).toBeGreaterThanOrEqual(16);
  expect(printed.otpauthUri).toMatch(/^otpauth:\/\/totp\/Khoums%3A.+\?secret=[A-Z2-7]{32}&issuer=Khoums/);
  const row = (
    await db.query(
      'SELECT email, password_hash, must_change_password, totp_sealed FROM operators WHERE id = $1',
      [printed.id],
    )
  ).rows[0];
  expect(row).toMatchObject({ email: address, must_change_password: true });
  expect(row.password_hash).not.toContain(printed.password);
  const secret = new URL(printed.otpauthUri).searchParams.get('secret')!;
  expect(row.totp_sealed.toString('latin1')).not.toContain(secret);

  const human = cli('operator:create', '--email', `other-${address}`);
  expect(human.status).toBe(0);
  expect(human.stdout).toMatch(/One-time password \(changed at first sign-in\): \S+/);
  const taken = cli('operator:create', '--email', address.toUpperCase(), '--json');
  expect(taken.status).toBe(1);
  expect(taken.stderr).toContain('already exists');
  expect(cli('operator:create', '--email', 'not-an-email').status).toBe(2);
});
