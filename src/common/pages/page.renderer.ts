import type { Views } from '../http/views';
import { direction, Language } from '../i18n/languages';
import type { PageContext } from './page-context';
import type { PageTexts, RenderingSurface } from './surface-definition';

/**
 * Renders a surface's views (`views/<surface>/*`) inside its layout, with what every layout shows:
 * the title, language and direction, the nonce, the texts, the CSRF token of the page's forms, the
 * notice named by `?notice=`, the language links (back to the same page, the notice dropped) and
 * the fields' limits; the surface adds its own (its menu, its user).
 */
export class PageRenderer<C extends PageContext<unknown, PageTexts>> {
  constructor(
    private readonly views: Views,
    private readonly surface: RenderingSurface<C>,
  ) {}

  render(ctx: C, view: string, title: string, locals: Record<string, unknown> = {}, status = 200): void {
    const { definition } = this.surface;
    const html = this.views.render(
      `${definition.views}/${view}`,
      { ...this.layout(ctx, title), ...this.surface.layoutLocals(ctx), ...locals },
      definition.layout,
    );
    ctx.page.send(status, html);
  }

  /** An error page; `messageLang`: the message's language, when not the page's. */
  error(ctx: C, status: number, title: string, message: string, messageLang?: Language): void {
    const other = messageLang && messageLang !== ctx.lang ? messageLang : undefined;
    this.render(
      ctx,
      'error',
      title,
      { heading: title, message, status, messageLang: other, messageDir: other && direction(other) },
      status,
    );
  }

  private layout(ctx: C, title: string): Record<string, unknown> {
    const { definition } = this.surface;
    const t = ctx.t;
    const notice = ctx.query('notice');
    const [path, search] = (ctx.languageBase ?? ctx.page.req.url).split('?');
    const query = new URLSearchParams(search ?? '');
    query.delete('notice');
    return {
      pageTitle: title,
      lang: ctx.lang,
      dir: direction(ctx.lang),
      nonce: ctx.page.nonce,
      t,
      csrf: ctx.csrf(),
      limits: definition.limits,
      notice: notice && t.notices && Object.hasOwn(t.notices, notice) ? t.notices[notice] : undefined,
      languages: definition.languages.map((code) => {
        query.set('lang', code);
        return {
          code,
          name: definition.dictionary[code].languageName,
          href: `${path}?${query.toString()}`,
          current: code === ctx.lang,
        };
      }),
    };
  }
}
