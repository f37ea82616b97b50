import type { Language } from '../i18n/languages';
import type { PageRequest } from '../http/pages';
import { isStorableText } from '../validation/storable';
import { PageError, pageError } from './page.errors';
import type { ContextSurface, PageTexts } from './surface-definition';

/**
 * One request to a page of a surface: the page plumbing (language, cookies, nonce), the session's
 * user when there is one, the surface's texts, and the form's fields and query as strings.
 */
export class PageContext<U, T extends PageTexts> {
  user: U | null = null;
  /** Where the language links lead (with its query): the page itself, unless it answers a form's post. */
  languageBase?: string;

  constructor(
    readonly surface: ContextSurface<T>,
    readonly page: PageRequest,
  ) {}

  get t(): T {
    return this.surface.definition.dictionary[this.page.lang];
  }

  get lang(): Language {
    return this.page.lang;
  }

  get signedIn(): U {
    if (!this.user) throw pageError(PageError.SignInRequired);
    return this.user;
  }

  get csrfScope(): string {
    return this.surface.csrfScope(this);
  }

  /** The token every form of this page carries. */
  csrf(): string {
    return this.page.csrfToken(this.csrfScope);
  }

  /** Whether the posted form carries this page's token (`_csrf`). */
  csrfValid(): boolean {
    return this.page.csrfValid(this.csrfScope, this.body?._csrf);
  }

  /**
   * A form field as a string ('' when absent or not a string). A value PostgreSQL cannot store (a
   * NUL character) is 400 `The form was not filled in as expected`, whichever form reads it.
   */
  field(name: string): string {
    const value = this.body?.[name];
    return typeof value === 'string' ? storable(value) : '';
  }

  /** A form field that may repeat (checkboxes), as strings; checked like `field`. */
  fields(name: string): string[] {
    const value = this.body?.[name];
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

  private get body(): Record<string, unknown> | undefined {
    return this.page.req.body as Record<string, unknown> | undefined;
  }
}

function storable(value: string): string {
  if (!isStorableText(value)) throw pageError(PageError.InvalidForm);
  return value;
}
