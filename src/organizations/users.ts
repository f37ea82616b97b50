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

/** At least 8 characters (NIST SP 800-63B's floor), at most 256. */
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 256;

export function passwordProblem(password: string): 'too-short' | 'too-long' | null {
  if ([...password].length < PASSWORD_MIN) return 'too-short';
  if (password.length > PASSWORD_MAX) return 'too-long';
  return null;
}

/** Trimmed and lower-cased, or null when it is not an address (the CLI's rule: something@something). */
export function normalizeEmail(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const email = value.trim().toLowerCase();
  return email.length <= 254 && /^[^\s@]+@[^\s@]+$/.test(email) ? email : null;
}
