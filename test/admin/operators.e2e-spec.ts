import { OperatorsService } from '../../src/admin/operators.service';
import { totp } from '../../src/admin/totp';
import { startTestApp, TestApp } from '../helpers/app';

/* Operators' accounts (docs/going-live.md): a one-time password and a TOTP secret; sign-in needs both. */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const secretOf = (uri: string) => {
  const base32 = new URL(uri).searchParams.get('secret')!;
  const A = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = '';
  for (const c of base32) bits += A.indexOf(c).toString(2).padStart(5, '0');
  return Buffer.from(bits.match(/.{8}/g)!.map((b) => parseInt(b, 2)));
};

it('signs in with the password and the current code, once per code; the secret is stored sealed', async () => {
  const operators = t.app.get(OperatorsService);
  const email = `ops-${Date.now()}@khoums.example`;
  const created = await operators.create(email);
  expect(created.otpauthUri).toMatch(/^otpauth:\/\/totp\/Khoums%3Aops-/);
  const secret = secretOf(created.otpauthUri);
  const now = Date.now();
  expect(await operators.checkSignIn(email, 'wrong password', totp(secret, now), now)).toBeNull();
  expect(await operators.checkSignIn(email, created.password, '000000', now)).toBeNull();
  expect(await operators.checkSignIn(email, created.password, totp(secret, now), now)).toMatchObject({
    email,
    mustChangePassword: true,
  });
  // The same code again is refused; the next step's is accepted (one step of skew).
  expect(await operators.checkSignIn(email, created.password, totp(secret, now), now)).toBeNull();
  expect(
    await operators.checkSignIn(email, created.password, totp(secret, now + 30_000), now),
  ).not.toBeNull();

  const [row] = await t.query<{ totp_sealed: Buffer; password_hash: string }>(
    'SELECT totp_sealed, password_hash FROM operators WHERE email = $1',
    [email],
  );
  expect(row.totp_sealed.includes(secret)).toBe(false);
  expect(row.password_hash).not.toContain(created.password);
  await expect(operators.create(email.toUpperCase())).rejects.toThrow(/already exists/);
});
