import { Injectable } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CheckoutSurface } from '../checkout/hosted-page';
import { PageRequest } from '../common/http/pages';
import { Views } from '../common/http/views';
import { LANGUAGES } from '../common/i18n/languages';
import { LINK_TEXTS, LinkTexts } from '../common/i18n/link-texts';
import { PageContext } from '../common/pages/page-context';
import { Surface } from '../common/pages/surface';
import { AppConfig } from '../config/config';
import { linkFormScope } from './link-page.renderer';
import { isLinkCode } from './payment-link';
import type { LinkPageRow } from './payment-links.repository';
import { PaymentLinksService } from './payment-links.service';

/** One request to a payment link's page: the link its path names, when there is one. */
export class LinkPageRequest extends PageContext<never, LinkTexts> {
  link?: LinkPageRow;
}

/**
 * The payment link's page as a surface: cookies of its own on /l, the hosted checkout's CSRF key,
 * every language with the link's own when the customer's chooses none, and its form's token bound
 * to the link. Its form shows a refused token itself (the form again, after the link's state).
 */
@Injectable()
export class LinkSurface extends Surface<LinkPageRequest, LinkTexts> {
  constructor(
    views: Views,
    config: AppConfig,
    checkout: CheckoutSurface,
    private readonly links: PaymentLinksService,
  ) {
    super(
      {
        name: 'Link',
        path: '/l',
        views: 'links',
        layout: 'layouts/link',
        languages: LANGUAGES,
        languageCookie: 'khoums_lang',
        signInPath: '/l',
        dictionary: LINK_TEXTS,
        errorPages: (t) => ({
          security: { title: t.securityCheck, body: t.securityCheck },
          notFound: { title: t.notFoundTitle, body: t.notFoundBody },
        }),
      },
      views,
      config.publicUrl.startsWith('https:'),
      async () => (await checkout.make()).csrfSecret,
    );
  }

  /** The link of the path first: its language is the page's when the customer's chooses none. */
  override async open(req: FastifyRequest, reply: FastifyReply): Promise<LinkPageRequest> {
    const code = (req.params as Record<string, string> | undefined)?.code ?? '';
    const link = isLinkCode(code) ? await this.links.forPage(code) : undefined;
    const surface = link ? { ...this.page, defaultLanguage: link.language } : this.page;
    const ctx = new LinkPageRequest(this, new PageRequest(surface, req, reply));
    ctx.link = link;
    req.pageContext = ctx;
    return ctx;
  }

  protected context(page: PageRequest): LinkPageRequest {
    return new LinkPageRequest(this, page);
  }

  async loadSession(): Promise<void> {}

  csrfScope(ctx: LinkPageRequest): string {
    return ctx.link ? linkFormScope(ctx.link) : 'payment-link-unknown';
  }

  layoutLocals(): Record<string, unknown> {
    return {};
  }
}
