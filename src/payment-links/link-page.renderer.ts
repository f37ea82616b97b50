import { Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import type { PageRequest } from '../common/http/pages';
import { Views } from '../common/http/views';
import { direction, formatDate, formatMru, LANGUAGES } from '../common/i18n/languages';
import { LINK_TEXTS, LinkTexts } from '../common/i18n/link-texts';
import type { PaymentMethodChoice } from '../checkout/checkout-payments';
import { LinkClosure, linkPagePath } from './payment-link';
import type { LinkPageRow } from './payment-links.repository';

export const linkTexts = (page: PageRequest): LinkTexts => LINK_TEXTS[page.lang];

/** The link form as the customer filled it, with what went wrong. */
export interface LinkFormState {
  amount: string;
  phoneNumber: string;
  methodId?: string;
  error?: string;
  amountInvalid?: boolean;
  phoneInvalid?: boolean;
}

/** The CSRF scope of a link's form. */
export const linkFormScope = (link: Pick<LinkPageRow, 'id'>) => `payment-link:${link.id}`;

const fill = (text: string, values: Record<string, string>) =>
  text.replace(/\{(\w+)\}/g, (whole, name: string) => values[name] ?? whole);

/** The limits of a customer-chosen amount, as the page writes them. */
export const amountHintOf = (page: PageRequest, link: Pick<LinkPageRow, 'minAmount' | 'maxAmount'>) =>
  fill(linkTexts(page).amountHint, {
    min: formatMru(link.minAmount!, page.lang),
    max: formatMru(link.maxAmount!, page.lang),
  });

/**
 * Renders a payment link's pages (views/links/* in layouts/link, the hosted checkout's look, no
 * script): the form, the page of a link that takes no payment (410), of an unknown code (404), and
 * the customer's confirmation after paying. Everything it loads is in the page itself (the style
 * inline) but the icon, so the page stays a few kilobytes.
 */
@Injectable()
export class LinkPageRenderer {
  constructor(private readonly views: Views) {}

  form(
    page: PageRequest,
    link: LinkPageRow,
    methods: PaymentMethodChoice[] | null,
    status: number,
    input: LinkFormState,
  ): void {
    const t = linkTexts(page);
    const amountText = link.amount === null ? null : formatMru(link.amount, page.lang);
    this.render(page, 'links/page', status, {
      pageTitle: `${link.name} · ${link.merchantName}`,
      ...merchantOf(link),
      name: link.name,
      description: link.description,
      testMode: link.environment === 'sandbox',
      amountText,
      amountHint: link.amount === null ? amountHintOf(page, link) : null,
      amount: input.amount,
      phoneNumber: input.phoneNumber,
      methods: methods?.map((m, i) => ({
        ...m,
        checked: input.methodId ? m.id === input.methodId : i === 0,
      })),
      error: input.error,
      amountInvalid: input.amountInvalid,
      phoneInvalid: input.phoneInvalid,
      csrf: page.csrfToken(linkFormScope(link)),
      // Each rendered form is one payment: sending it again (a double click, a reload) starts it once.
      formKey: randomBytes(18).toString('base64url'),
      action: linkPagePath(link.code),
      payLabel: amountText ? fill(t.payFixed, { amount: amountText }) : t.continue,
    });
  }

  /** 410: the link takes no payment, and why, in the customer's language. */
  closed(page: PageRequest, link: LinkPageRow, closure: LinkClosure): void {
    const t = linkTexts(page);
    const message =
      closure === 'expired'
        ? fill(t.closed_expired, { date: formatDate(link.expiresAt!, page.lang) })
        : t[`closed_${closure}`];
    this.render(page, 'links/state', 410, {
      pageTitle: t.closedTitle,
      state: closure,
      heading: t.closedTitle,
      message,
      name: link.name,
      ...merchantOf(link),
    });
  }

  notFound(page: PageRequest): void {
    const t = linkTexts(page);
    this.render(page, 'links/state', 404, {
      pageTitle: t.notFoundTitle,
      state: 'not-found',
      heading: t.notFoundTitle,
      message: t.notFoundBody,
    });
  }

  /** After paying: the merchant's message (or a thank-you), the amount and the reference. */
  paid(page: PageRequest, link: LinkPageRow, payment: { amount: number; transactionId: string }): void {
    const t = linkTexts(page);
    this.render(page, 'links/paid', 200, {
      pageTitle: t.paidTitle,
      ...merchantOf(link),
      successMessage: link.successMessage,
      amountText: formatMru(payment.amount, page.lang),
      transactionId: payment.transactionId,
      linkUrl: linkPagePath(link.code),
    });
  }

  /** Renders `view` in layouts/link, with the language links (the same page, with its query, in each language). */
  private render(page: PageRequest, view: string, status: number, locals: Record<string, unknown>): void {
    const [path, search] = page.req.url.split('?');
    const query = new URLSearchParams(search ?? '');
    const html = this.views.render(
      view,
      {
        ...locals,
        lang: page.lang,
        dir: direction(page.lang),
        t: linkTexts(page),
        nonce: page.nonce,
        languages: LANGUAGES.map((code) => {
          query.set('lang', code);
          return {
            code,
            name: LINK_TEXTS[code].languageName,
            href: `${path}?${query.toString()}`,
            current: code === page.lang,
          };
        }),
      },
      'layouts/link',
    );
    page.send(status, html);
  }
}

const merchantOf = (link: LinkPageRow) => ({
  merchantName: link.merchantName,
  merchantPhone: link.merchantPhone,
  merchantWebsite: link.merchantWebsite,
});
