import type { Language } from '../i18n/languages';

/*
 * What a surface is made of, apart from its class (`surface.ts`): the leaf the kit's context and
 * renderer read a surface through, so that no file of the kit imports one that imports it back.
 */

/** The texts every surface's dictionary has: its language's name, and the notices `?notice=` names. */
export interface PageTexts {
  languageName: string;
  notices?: Record<string, string>;
}

/** An error page's heading and sentence. */
export interface ErrorText {
  title: string;
  body: string;
}

/**
 * A surface's error pages in one language. Those it has no page for (a surface whose forms show
 * their own errors) are answered as the API answers them.
 */
export interface ErrorPages {
  security: ErrorText;
  notFound: ErrorText;
  forbidden?: ErrorText;
  tooMany?: ErrorText;
  rateLimited?: ErrorText;
  serverError?: ErrorText;
  /** Another rule refused: this title over the API's words. */
  refusedTitle?: string;
}

/** What makes a surface itself: the rest (guard, filter, context, renderer, languages, CSRF) is the kit's. */
export interface SurfaceDefinition<T extends PageTexts> {
  /** Its name in logs (`Dashboard` logs as `DashboardErrorFilter`). */
  name: string;
  /** Path of its pages and cookies (`/dashboard`); views under `views/<views>/`. */
  path: string;
  views: string;
  /** Its layout (`layouts/dashboard`). */
  layout: string;
  languages: readonly Language[];
  /** The language when nothing chooses one (default: French). */
  defaultLanguage?: Language;
  languageCookie: string;
  /** The cookie holding the session's token, cleared when the session is gone (when it names one surface's session). */
  sessionCookie?: string;
  /** Where PageError.SignInRequired sends the browser (and PasswordChangeRequired, when the surface has one). */
  signInPath: string;
  passwordChangePath?: string;
  /** Typed, per language (a missing translation is a compile error). */
  dictionary: Record<Language, T>;
  /** Its error pages (`views/<views>/error`) in the language of `t`. */
  errorPages(t: T): ErrorPages;
  /** The limits the surface's fields carry (`maxlength="{{@root.limits.…}}"`). */
  limits?: Record<string, number>;
}

/** What a page's context asks of its surface: its definition and the scope of its forms' tokens. */
export interface ContextSurface<T extends PageTexts> {
  readonly definition: SurfaceDefinition<T>;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  csrfScope(ctx: any): string;
}

/** What the renderer asks of its surface: its definition and its layout's own locals. */
export interface RenderingSurface<C> {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  readonly definition: SurfaceDefinition<any>;
  layoutLocals(ctx: C): Record<string, unknown>;
}
