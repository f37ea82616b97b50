import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/**
 * Dashboard users. An owner does everything, invitations and roles included; a developer manages
 * keys, webhooks and the rest of the organization's data but not its people; a viewer only reads.
 */
export const ROLES = ['owner', 'developer', 'viewer'] as const;
export type Role = (typeof ROLES)[number];

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}

export interface User {
  id: string;
  organizationId: string;
  email: string;
  role: Role;
  createdAt: Date;
}

/** A one-time link that lets someone join an organization with a role. */
export interface Invitation {
  id: string;
  organizationId: string;
  email: string;
  role: Role;
  invitedBy: string | null;
  createdAt: Date;
  expiresAt: Date;
}

/** At least 10 characters, at most 256, and not among the 10,000 most common (NIST SP 800-63B's blocklist). */
export const PASSWORD_MIN = 10;
export const PASSWORD_MAX = 256;

/**
 * The 10,000 most common passwords, lower-cased: the head of zxcvbn 4.4.2's frequency-ordered
 * `passwords` list (MIT; from Mark Burnett's 10 million passwords), shipped as data/common-passwords.txt.
 */
let commonPasswords: Set<string> | undefined;
function isCommonPassword(password: string): boolean {
  if (!commonPasswords) {
    const file = [resolve(__dirname, '../../data'), resolve(__dirname, '../../../data')]
      .map((dir) => join(dir, 'common-passwords.txt'))
      .find((f) => existsSync(f));
    if (!file) throw new Error('data/common-passwords.txt is missing');
    commonPasswords = new Set(readFileSync(file, 'utf8').split('\n').filter(Boolean));
  }
  return commonPasswords.has(password.toLowerCase());
}

export type PasswordProblem = 'too-short' | 'too-long' | 'too-common';

export function passwordProblem(password: string): PasswordProblem | null {
  if ([...password].length < PASSWORD_MIN) return 'too-short';
  if (password.length > PASSWORD_MAX) return 'too-long';
  if (isCommonPassword(password)) return 'too-common';
  return null;
}

/** Trimmed and lower-cased, or null when it is not an address (the CLI's rule: something@something). */
export function normalizeEmail(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const email = value.trim().toLowerCase();
  return email.length <= 254 && /^[^\s@]+@[^\s@]+$/.test(email) ? email : null;
}
