import type { FastifyReply, FastifyRequest } from 'fastify';
import { randomBytes } from 'node:crypto';
import { chooseLanguage, Language } from '../i18n/languages';
import { CookieOptions, parseCookies, serializeCookie } from './cookies';
import { CSRF_COOKIE, csrfToken, newCsrfCookieValue, validCsrfToken } from './csrf';

/**
 * The web plumbing of the server-rendered pages (the hosted checkout, the dashboard): language
 * choice, cookies, CSRF tokens, the nonce of the Content-Security-Policy and the security headers.
 * Controllers describe pages; this writes them.
 */

export interface PageSurface {
  /** Cookie path of the surface (`/checkout`, `/dashboard`). */
  path: string;
  /** The languages it offers. */
  languages: readonly Language[];
  /** Its language cookie's name. */
  languageCookie: string;
  /** Key of its CSRF tokens. */
  csrfSecret: string;
  /** Cookies are Secure (the public origin is https). */
  secure: boolean;
  /** The language when nothing chooses one (default: French). */
  defaultLanguage?: Language;
}

/** One request to a page: its language, cookies and the nonce its inline style and script carry. */
export class PageRequest {
  readonly cookies: Record<string, string>;
  readonly lang: Language;
  readonly nonce = randomBytes(16).toString('hex');

  constructor(
    readonly surface: PageSurface,
    readonly req: FastifyRequest,
    readonly reply: FastifyReply,
  ) {
    this.cookies = parseCookies(req.headers.cookie);
    const query = (req.query as Record<string, unknown> | undefined)?.lang;
    this.lang = chooseLanguage(
      { query, cookie: this.cookies[surface.languageCookie], acceptLanguage: req.headers['accept-language'] },
      surface.languages,
      surface.defaultLanguage,
    );
    // The switcher's choice is remembered.
    if (query === this.lang) {
      this.setCookie(surface.languageCookie, this.lang, {
        maxAge: 365 * 24 * 3600,
        sameSite: 'lax',
        httpOnly: true,
      });
    }
  }

  /** A cookie on the surface's path; Secure when the origin is https. */
  setCookie(
    name: string,
    value: string,
    options: Omit<CookieOptions, 'secure' | 'path'> & { path?: string },
  ): void {
    void this.reply.header(
      'set-cookie',
      serializeCookie(name, value, { path: this.surface.path, ...options, secure: this.surface.secure }),
    );
  }

  /** Removes a cookie of the surface's path. */
  clearCookie(name: string): void {
    this.setCookie(name, '', { maxAge: 0, httpOnly: true, sameSite: 'lax' });
  }

  /** The CSRF token of a form acting on `scope`; sets the browser's CSRF cookie on first use. */
  csrfToken(scope: string): string {
    let cookie = this.cookies[CSRF_COOKIE];
    if (typeof cookie !== 'string' || cookie.length < 32) {
      cookie = newCsrfCookieValue();
      this.cookies[CSRF_COOKIE] = cookie;
      this.setCookie(CSRF_COOKIE, cookie, { httpOnly: true, sameSite: 'lax' });
    }
    return csrfToken(this.surface.csrfSecret, cookie, scope);
  }

  csrfValid(scope: string, token: unknown): boolean {
    return validCsrfToken(this.surface.csrfSecret, this.cookies[CSRF_COOKIE], scope, token);
  }

  /** Sends an HTML page with the CSP of its nonce: nothing from another host, no inline code without the nonce. */
  send(status: number, html: string): void {
    const { nonce } = this;
    void this.reply
      .status(status)
      .headers({
        'content-type': 'text/html; charset=utf-8',
        'content-security-policy':
          `default-src 'self'; script-src 'nonce-${nonce}'; style-src 'nonce-${nonce}'; img-src 'self' data:; ` +
          `object-src 'none'; base-uri 'none'; frame-ancestors 'none'`,
        'cache-control': 'no-store',
        'referrer-policy': 'no-referrer',
        'x-content-type-options': 'nosniff',
        'x-frame-options': 'DENY',
        'content-language': this.lang,
        vary: 'accept-language, cookie',
      })
      .send(html);
  }

  /** 303, so the browser follows a form post with a GET. */
  redirect(url: string): void {
    void this.reply.header('cache-control', 'no-store').redirect(url, 303);
  }
}
