import { OnModuleInit } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { PageRequest, PageSurface } from '../http/pages';
import type { Views } from '../http/views';
import type { PageContext } from './page-context';
import { PageRenderer } from './page.renderer';
import type { PageTexts, SurfaceDefinition } from './surface-definition';

export type { ErrorPages, ErrorText, PageTexts, SurfaceDefinition } from './surface-definition';

/**
 * A page surface: its definition, its CSRF key (loaded at start-up, kept in PostgreSQL so every
 * instance checks every other's tokens), the request's context made once, and the session rules
 * its guard applies. A surface class says what differs; PageGuard, PageErrorFilter and
 * PageRenderer do the rest.
 */
export abstract class Surface<
  C extends PageContext<unknown, T>,
  T extends PageTexts = PageTexts,
> implements OnModuleInit {
  readonly page: PageSurface;
  readonly renderer: PageRenderer<C>;
  private readonly refusedTokenPages = new Map<string, (ctx: C) => Promise<void>>();

  protected constructor(
    readonly definition: SurfaceDefinition<T>,
    views: Views,
    secure: boolean,
    private readonly csrfKey: () => Promise<string>,
  ) {
    this.page = {
      path: definition.path,
      languages: definition.languages,
      languageCookie: definition.languageCookie,
      csrfSecret: '',
      secure,
      defaultLanguage: definition.defaultLanguage,
    };
    this.renderer = new PageRenderer<C>(views, this);
  }

  /**
   * A route whose form shows a refused token itself (the form again, as typed, 403), in place of
   * the error page: the guard still refuses it before the handler; this only draws the refusal.
   */
  whenTokenRefused(route: string, show: (ctx: C) => Promise<void>): void {
    this.refusedTokenPages.set(route, show);
  }

  refusedTokenPage(ctx: C): ((ctx: C) => Promise<void>) | undefined {
    return this.refusedTokenPages.get(ctx.page.req.routeOptions.url ?? '');
  }

  async onModuleInit(): Promise<void> {
    this.page.csrfSecret = await this.csrfKey();
  }

  /** The request's context, made once (by the guard, else by the filter). */
  request(req: FastifyRequest, reply: FastifyReply): C {
    req.pageContext ??= this.context(new PageRequest(this.page, req, reply));
    return req.pageContext as C;
  }

  /**
   * The request's context, as the guard opens it: a surface whose language depends on what the
   * path names (a payment link's) loads it here first.
   */
  open(req: FastifyRequest, reply: FastifyReply): C | Promise<C> {
    return this.request(req, reply);
  }

  protected abstract context(page: PageRequest): C;

  /**
   * Before the CSRF check: the session a route of this `access` needs (its absence: throw
   * PageError.SignInRequired); `access` is the route's `@PageAccess`, undefined when unmarked.
   */
  abstract loadSession(ctx: C, access: string | undefined, post: boolean): Promise<void>;

  /** After the CSRF check of a POST: whether the session may act (else throw PageError.Forbidden). */
  mayAct(_ctx: C, _access: string | undefined): void {}

  /**
   * A domain rule a page did not turn into a form message (an AppError below 500, by its code), in
   * the page's language; undefined: the filter shows the API's words, marked as English.
   */
  ruleText(_ctx: C, _code: string): string | undefined {
    return undefined;
  }

  /** Where PageError.SignInRequired sends the browser. */
  signInPath(_ctx: C): string {
    return this.definition.signInPath;
  }

  /** What a form's token is bound to (the session, else the browser's anonymous forms). */
  abstract csrfScope(ctx: C): string;

  /** The surface's own locals of its layout (its menu, its user); the kit adds the common ones. */
  abstract layoutLocals(ctx: C): Record<string, unknown>;
}

declare module 'fastify' {
  interface FastifyRequest {
    pageContext?: PageContext<unknown, PageTexts>;
  }
}
