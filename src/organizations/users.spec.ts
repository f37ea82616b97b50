import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isRole, normalizeEmail, passwordProblem } from './users';

describe('dashboard users', () => {
  it('takes passwords of 10 to 256 characters that are not among the 10,000 most common, whatever their case', () => {
    expect(passwordProblem('123456789')).toBe('too-short');
    expect(passwordProblem('12345678')).toBe('too-short');
    expect(passwordProblem('x'.repeat(257))).toBe('too-long');
    for (const common of ['1234567890', 'qwertyuiop', 'QwertyUIOP', 'PASSWORD123'])
      expect(passwordProblem(common)).toBe('too-common');
    expect(passwordProblem('tevragh zeina 2026')).toBeNull();
    expect(passwordProblem('x'.repeat(256))).toBeNull();
  });

  it('ships a list of exactly 10,000 common passwords, lower-cased', () => {
    const list = readFileSync(join(__dirname, '../../data/common-passwords.txt'), 'utf8')
      .split('\n')
      .filter(Boolean);
    expect(list).toHaveLength(10_000);
    expect(new Set(list).size).toBe(10_000);
    expect(list.every((p) => p === p.toLowerCase())).toBe(true);
    expect(list.slice(0, 3)).toEqual(['123456', 'password', '12345678']);
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
