import { parseCookies, serializeCookie } from './cookies';

describe('cookies', () => {
  it('parses a Cookie header, decoding values and keeping the first of a repeated name', () => {
    expect(parseCookies('a=1; b=x%20y; a=2; c="q"; broken; =v')).toEqual({ a: '1', b: 'x y', c: 'q' });
    expect(parseCookies(undefined)).toEqual({});
    expect(parseCookies('bad=%E0%A4%A')).toEqual({ bad: '%E0%A4%A' });
  });

  it('serializes a Set-Cookie value with its attributes', () => {
    expect(
      serializeCookie('lang', 'ar', {
        path: '/checkout',
        maxAge: 60,
        httpOnly: true,
        secure: true,
        sameSite: 'lax',
      }),
    ).toBe('lang=ar; Path=/checkout; Max-Age=60; HttpOnly; Secure; SameSite=Lax');
    expect(serializeCookie('x', 'a b', { path: '/' })).toBe('x=a%20b; Path=/');
  });
});
