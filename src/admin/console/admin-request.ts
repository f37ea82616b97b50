import { createParamDecorator, ExecutionContext, SetMetadata } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { ADMIN_TEXTS, AdminTexts } from '../../common/i18n/admin-texts';
import type { PageRequest } from '../../common/http/pages';
import type { Language } from '../../common/i18n/languages';
import { isStorableText } from '../../common/validation/storable';
import { AdminError, adminError } from '../admin.errors';
import type { SignedInOperator } from '../operator-sessions.service';

/**
 * Who may use a console route. `anonymous`: no session (sign-in); `password`: a signed-in operator
 * who may still have to change the one-time password (that page, sign-out); `operator` (the
 * default): a signed-in operator whose password is their own.
 */
export type AdminAccess = 'anonymous' | 'password' | 'operator';
export const ADMIN_ACCESS_METADATA = 'khoums:admin-access';
export const AdminAccessIs = (access: AdminAccess) => SetMetadata(ADMIN_ACCESS_METADATA, access);

declare module 'fastify' {
  interface FastifyRequest {
    admin?: AdminRequest;
  }
}

/** One request to a console page: the page plumbing, and the signed-in operator when there is one. */
export class AdminRequest {
  operator: SignedInOperator | null = null;

  constructor(readonly page: PageRequest) {}

  get t(): AdminTexts {
    return ADMIN_TEXTS[this.page.lang];
  }

  get lang(): Language {
    return this.page.lang;
  }

  get signedIn(): SignedInOperator {
    if (!this.operator) throw adminError(AdminError.SignInRequired);
    return this.operator;
  }

  /** What a form's token is bound to: the session (signed in), else the browser's sign-in form. */
  get csrfScope(): string {
    return this.operator ? `operator-session:${this.operator.sessionId}` : 'operator-anonymous';
  }

  csrf(): string {
    return this.page.csrfToken(this.csrfScope);
  }

  /** A form field as a string ('' when absent); a NUL character is 400 `The form was not filled in as expected`. */
  field(name: string): string {
    const value = (this.page.req.body as Record<string, unknown> | undefined)?.[name];
    if (typeof value !== 'string') return '';
    if (!isStorableText(value)) throw adminError(AdminError.InvalidForm);
    return value;
  }

  /** A query parameter as a string (the first, when repeated), or undefined. */
  query(name: string): string | undefined {
    const value = (this.page.req.query as Record<string, unknown> | undefined)?.[name];
    const first = Array.isArray(value) ? value[0] : value;
    return typeof first === 'string' && isStorableText(first) ? first : undefined;
  }

  get ip(): string {
    return this.page.req.ip;
  }

  get path(): string {
    return this.page.req.url.split('?')[0];
  }
}

/** The request's AdminRequest (set by AdminGuard). */
export const Adm = createParamDecorator((_: unknown, ctx: ExecutionContext): AdminRequest => {
  const a = ctx.switchToHttp().getRequest<FastifyRequest>().admin;
  if (!a) throw new Error('@Adm() used on a route without AdminGuard');
  return a;
});
