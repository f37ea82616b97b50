import { csrfToken, newCsrfCookieValue, validCsrfToken } from './csrf';

describe('checkout CSRF tokens', () => {
  const secret = 'a'.repeat(32);
  const cookie = newCsrfCookieValue();

  it('accepts the token made from the same cookie and session', () => {
    expect(validCsrfToken(secret, cookie, 's1', csrfToken(secret, cookie, 's1'))).toBe(true);
  });

  it('rejects a token made for another session, another cookie or another secret', () => {
    expect(validCsrfToken(secret, cookie, 's2', csrfToken(secret, cookie, 's1'))).toBe(false);
    expect(validCsrfToken(secret, newCsrfCookieValue(), 's1', csrfToken(secret, cookie, 's1'))).toBe(false);
    expect(validCsrfToken(secret, cookie, 's1', csrfToken('b'.repeat(32), cookie, 's1'))).toBe(false);
  });

  it('rejects a missing cookie or token', () => {
    expect(validCsrfToken(secret, undefined, 's1', csrfToken(secret, cookie, 's1'))).toBe(false);
    expect(validCsrfToken(secret, cookie, 's1', undefined)).toBe(false);
    expect(validCsrfToken(secret, cookie, 's1', '')).toBe(false);
  });
});
