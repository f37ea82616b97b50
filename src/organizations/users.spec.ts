import { isRole, normalizeEmail, passwordProblem } from './users';

describe('dashboard users', () => {
  it('takes passwords of 8 to 256 characters', () => {
    expect(passwordProblem('1234567')).toBe('too-short');
    expect(passwordProblem('12345678')).toBeNull();
    expect(passwordProblem('x'.repeat(257))).toBe('too-long');
  });

  it('normalises emails and refuses what is not one', () => {
    expect(normalizeEmail('  Owner@Example.MR ')).toBe('owner@example.mr');
    expect(normalizeEmail('demo@khoums.local')).toBe('demo@khoums.local');
    for (const bad of ['', 'no-at-sign', 'a b@c.d', '@x', 7]) expect(normalizeEmail(bad)).toBeNull();
  });

  it('knows the three roles', () => {
    expect(['owner', 'developer', 'viewer'].every(isRole)).toBe(true);
    expect(isRole('admin')).toBe(false);
  });
});
