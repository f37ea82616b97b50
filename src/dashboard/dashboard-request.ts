import { createParamDecorator, ExecutionContext, SetMetadata } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type { PageRequest } from '../common/http/pages';
import type { Language } from '../common/i18n/languages';
import { DASHBOARD_TEXTS, DashboardTexts } from '../common/i18n/dashboard-texts';
import { isStorableText } from '../common/validation/storable';
import type { EnvironmentScope, Tenant } from '../organizations/tenant';
import { DashboardError, dashboardError } from './dashboard.errors';
import type { SignedIn } from './sessions.service';

/**
 * Who may use a dashboard route. `anonymous`: no session (sign-in, sign-up, invitations);
 * `member`: any signed-in user (reading; and their own session: sign-out, environment, password);
 * `editor`: owners and developers (every change to the organization's data); `owner`: owners
 * (people and roles). Unmarked, a GET is `member` and a POST `editor`: a new form refuses viewers.
 */
export type Access = 'anonymous' | 'member' | 'editor' | 'owner';
export const ACCESS_METADATA = 'khoums:dashboard-access';
export const DashboardAccess = (access: Access) => SetMetadata(ACCESS_METADATA, access);

declare module 'fastify' {
  interface FastifyRequest {
    dashboard?: DashboardRequest;
  }
}

/** One request to a dashboard page: the page plumbing, and the signed-in user when there is one. */
export class DashboardRequest {
  user: SignedIn | null = null;

  constructor(readonly page: PageRequest) {}

  get t(): DashboardTexts {
    return DASHBOARD_TEXTS[this.page.lang];
  }

  get lang(): Language {
    return this.page.lang;
  }

  get signedIn(): SignedIn {
    if (!this.user) throw dashboardError(DashboardError.SignInRequired);
    return this.user;
  }

  /** The organization and environment the user works on. */
  get scope(): EnvironmentScope {
    const u = this.signedIn;
    return { organizationId: u.organizationId, environmentId: u.environmentId, environment: u.environment };
  }

  /**
   * The session's environment as the API's services take it: the rights of a secret key of it,
   * with the organization's verification (Production money waits for `verified`, as with a key).
   */
  get tenant(): Tenant {
    const u = this.signedIn;
    return { ...this.scope, keyKind: 'secret', keyId: '', verification: u.verificationStatus };
  }

  get canEdit(): boolean {
    return this.user !== null && this.user.role !== 'viewer';
  }

  get isOwner(): boolean {
    return this.user?.role === 'owner';
  }

  /** What a form's token is bound to: the session (signed in), else the browser's anonymous forms. */
  get csrfScope(): string {
    return this.user ? `session:${this.user.sessionId}` : 'anonymous';
  }

  /** The token every form of this page carries. */
  csrf(): string {
    return this.page.csrfToken(this.csrfScope);
  }

  /**
   * A form field as a string ('' when absent or not a string). A value PostgreSQL cannot store (a
   * NUL character) is 400 `The form was not filled in as expected`, whichever form reads it.
   */
  field(name: string): string {
    const value = (this.page.req.body as Record<string, unknown> | undefined)?.[name];
    return typeof value === 'string' ? storable(value) : '';
  }

  /** A form field that may repeat (checkboxes), as strings; checked like `field`. */
  fields(name: string): string[] {
    const value = (this.page.req.body as Record<string, unknown> | undefined)?.[name];
    const values = Array.isArray(value) ? value : value === undefined ? [] : [value];
    return values.filter((v): v is string => typeof v === 'string').map(storable);
  }

  /** A query parameter as a string (the first, when repeated), or undefined. */
  query(name: string): string | undefined {
    const value = (this.page.req.query as Record<string, unknown> | undefined)?.[name];
    const first = Array.isArray(value) ? value[0] : value;
    return typeof first === 'string' ? first : undefined;
  }

  /** The client's address (behind proxies named by TRUST_PROXY: the one the first of them saw). */
  get ip(): string {
    return this.page.req.ip;
  }

  /** The path of this page, without the query. */
  get path(): string {
    return this.page.req.url.split('?')[0];
  }
}

function storable(value: string): string {
  if (!isStorableText(value)) throw dashboardError(DashboardError.InvalidForm);
  return value;
}

/** The request's DashboardRequest (set by DashboardGuard). */
export const Dash = createParamDecorator((_: unknown, ctx: ExecutionContext): DashboardRequest => {
  const d = ctx.switchToHttp().getRequest<FastifyRequest>().dashboard;
  if (!d) throw new Error('@Dash() used on a route without DashboardGuard');
  return d;
});
