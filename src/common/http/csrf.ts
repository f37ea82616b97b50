import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Signed double-submit CSRF protection for server-rendered forms (the hosted page, the dashboard): the browser holds a
 * random value in an HttpOnly cookie, and each form carries HMAC(secret, cookie value + scope), where the scope is what the form acts on (a checkout session, a dashboard session).
 * A forged cross-site post cannot read the cookie, so it cannot produce the token.
 */
export const CSRF_COOKIE = 'khoums_csrf';

export function newCsrfCookieValue(): string {
  return randomBytes(32).toString('base64url');
}

export function csrfToken(secret: string, cookieValue: string, scope: string): string {
  return createHmac('sha256', secret).update(`${cookieValue}.${scope}`).digest('base64url');
}

export function validCsrfToken(secret: string, cookieValue: unknown, scope: string, token: unknown): boolean {
  if (typeof cookieValue !== 'string' || cookieValue.length < 32 || typeof token !== 'string') return false;
  const expected = Buffer.from(csrfToken(secret, cookieValue, scope));
  const given = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
