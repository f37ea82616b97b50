/**
 * The few cookies the server-rendered pages use (language, CSRF), read and written by hand.
 * Not @fastify/cookie: its v11 loads the ESM-only `cookie` v2 with a dynamic import(), which
 * Jest's CommonJS runtime cannot execute without --experimental-vm-modules.
 */
export function parseCookies(header: string | undefined): Record<string, string> {
  const cookies: Record<string, string> = {};
  if (!header) return cookies;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const name = part.slice(0, eq).trim();
    let value = part.slice(eq + 1).trim();
    if (value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
    if (!name || name in cookies) continue; // the first (most specific path) wins, as browsers send it
    try {
      cookies[name] = decodeURIComponent(value);
    } catch {
      cookies[name] = value;
    }
  }
  return cookies;
}

export interface CookieOptions {
  path: string;
  /** Seconds; omitted: a session cookie. */
  maxAge?: number;
  httpOnly?: boolean;
  secure?: boolean;
  sameSite?: 'lax' | 'strict';
}

/** A `set-cookie` header value. */
export function serializeCookie(name: string, value: string, o: CookieOptions): string {
  let out = `${name}=${encodeURIComponent(value)}; Path=${o.path}`;
  if (o.maxAge !== undefined) out += `; Max-Age=${Math.floor(o.maxAge)}`;
  if (o.httpOnly) out += '; HttpOnly';
  if (o.secure) out += '; Secure';
  if (o.sameSite) out += `; SameSite=${o.sameSite === 'lax' ? 'Lax' : 'Strict'}`;
  return out;
}
