import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Signed double-submit CSRF protection for the hosted page's plain form posts: the browser holds a
 * random value in an HttpOnly cookie, and each form carries HMAC(secret, cookie value + session id).
 * A forged cross-site post cannot read the cookie, so it cannot produce the token.
 */
export const CSRF_COOKIE = 'khoums_csrf';

export function newCsrfCookieValue(): string {
  return randomBytes(32).toString('base64url');
}

export function csrfToken(secret: string, cookieValue: string, sessionId: string): string {
  return createHmac('sha256', secret).update(`${cookieValue}.${sessionId}`).digest('base64url');
}

export function validCsrfToken(
  secret: string,
  cookieValue: unknown,
  sessionId: string,
  token: unknown,
): boolean {
  if (typeof cookieValue !== 'string' || cookieValue.length < 32 || typeof token !== 'string') return false;
  const expected = Buffer.from(csrfToken(secret, cookieValue, sessionId));
  const given = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
