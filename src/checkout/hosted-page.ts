import { applyDecorators, Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { isUUID } from 'class-validator';
import { Public } from '../auth/decorators';
import { AppError } from '../common/errors/app-error';
import { CommonError } from '../common/errors/common-errors';
import { PageRequest, PageSurface } from '../common/http/pages';
import { Views } from '../common/http/views';
import { CHECKOUT_TEXTS, CheckoutTexts } from '../common/i18n/checkout-texts';
import { direction, Language, LANGUAGES } from '../common/i18n/languages';
import { PageContext } from '../common/pages/page-context';
import { Pages } from '../common/pages/pages.decorator';
import { Surface } from '../common/pages/surface';
import { normalizePhone } from '../common/validation/rules';
import { AppConfig } from '../config/config';
import { ServerSecrets } from '../database/server-secrets.repository';
import { validIdempotencyKey } from '../idempotency/request-key';
import { OrganizationError } from '../organizations/organizations.errors';
import { PaymentError } from '../payments/payments.errors';
import type { CheckoutPayInput, PaymentMethodChoice } from './checkout-payments';
import { publicPhone } from './public-checkout';

/*
 * What the hosted checkout's pages share: a checkout session's page and an invoice's page
 * (src/invoices/) live on one surface, in one layout, and post one pay form.
 */

/** One request to a hosted page: the kit's page context (no session: whoever holds the link). */
export class HostedPageRequest extends PageContext<never, CheckoutTexts> {}

/**
 * The hosted checkout's surface: cookies on /checkout, every language (French when the browser
 * asks for none), and the operator's CSRF key or the one instances share. A page's form is bound
 * to the page's id (`:id`, a checkout session's or an invoice's), checked by the kit's guard
 * before the page's state; its only error pages are the refused token's and the not-found page.
 * The payment link's page shares its key with cookies of its own on /l (`make`).
 */
@Injectable()
export class CheckoutSurface extends Surface<HostedPageRequest, CheckoutTexts> {
  constructor(
    private readonly config: AppConfig,
    private readonly secrets: ServerSecrets,
    views: Views,
  ) {
    super(
      {
        name: 'Checkout',
        path: '/checkout',
        views: 'checkout',
        layout: 'layouts/checkout',
        languages: LANGUAGES,
        languageCookie: 'khoums_lang',
        signInPath: '/checkout',
        dictionary: CHECKOUT_TEXTS,
        errorPages: (t) => ({
          security: { title: t.title, body: t.securityCheck },
          notFound: { title: t.notFoundTitle, body: t.notFoundBody },
        }),
      },
      views,
      config.publicUrl.startsWith('https:'),
      () => this.key(),
    );
  }

  protected context(page: PageRequest): HostedPageRequest {
    // Back to the page, not its form's action.
    const request = new HostedPageRequest(this, page);
    request.languageBase = request.path.replace(/\/(pay|cancel)\/?$/, '');
    return request;
  }

  async loadSession(): Promise<void> {}

  csrfScope(ctx: HostedPageRequest): string {
    return param(ctx, 'id');
  }

  layoutLocals(): Record<string, unknown> {
    return {};
  }

  /** The surface as the payment link's page takes it, with the same key. */
  async make(): Promise<PageSurface> {
    return { ...this.page, csrfSecret: await this.key() };
  }

  private async key(): Promise<string> {
    return this.config.CHECKOUT_CSRF_SECRET ?? (await this.secrets.get('checkout-csrf'));
  }
}

/** Pages of the hosted checkout's surface under `path`: no API key (whoever holds the link). */
export const HostedPages = (path: string) => applyDecorators(Public(), Pages(CheckoutSurface, path));

/** A path parameter of the page's route ('' when absent). */
export const param = (ctx: HostedPageRequest, name: string): string =>
  (ctx.page.req.params as Record<string, string> | undefined)?.[name] ?? '';

export const checkoutTexts = (page: { lang: Language }): CheckoutTexts => CHECKOUT_TEXTS[page.lang];

/** The form as the customer filled it, with what went wrong. */
export interface FormState {
  phoneNumber: string;
  methodId?: string;
  error?: string;
}

/** The pay form's fields (all optional: a form is whatever was posted). */
interface PayFormBody {
  paymentMethodId?: unknown;
  phoneNumber?: unknown;
  passCode?: unknown;
  /** The rendered form's own key (a hidden field): a resubmission is the same attempt. */
  idempotencyKey?: unknown;
}

/**
 * Reads a posted pay form (its CSRF token checked by the kit's guard): what the customer typed (to show the form again) and either the payment to make or why not. The
 * phone left empty is `knownPhone`, the number the merchant gave (the page shows it masked only:
 * whoever holds the page's link is not necessarily the payer).
 */
export function readPayForm(
  page: PageRequest,
  knownPhone: string | null,
): { typed: FormState } & ({ input: CheckoutPayInput } | { status: number; error: string }) {
  const t = checkoutTexts(page);
  const form = (page.req.body ?? {}) as PayFormBody;
  const phoneInput = typeof form.phoneNumber === 'string' ? form.phoneNumber : '';
  const methodId = typeof form.paymentMethodId === 'string' ? form.paymentMethodId : '';
  const typed = { phoneNumber: phoneInput, methodId };
  if (!isUUID(methodId)) return { typed, status: 400, error: t.chooseMethodError };
  const phoneNumber = knownPhone && phoneInput.trim() === '' ? knownPhone : normalizePhone(phoneInput);
  if (!phoneNumber) return { typed, status: 400, error: t.invalidPhone };
  const passCode = typeof form.passCode === 'string' ? form.passCode.trim() : '';
  // A form without a valid key (rendered before keys existed, or tampered with) pays without one.
  const key = validIdempotencyKey(form.idempotencyKey) ? { idempotencyKey: form.idempotencyKey } : {};
  return { typed, input: { paymentMethodId: methodId, phoneNumber, passCode, ...key } };
}

/** The form errors the pages show in the customer's language, by the error's code. */
const FORM_ERRORS: Partial<Record<string, keyof CheckoutTexts>> = {
  [PaymentError.BankFailure]: 'bankFailure',
  [PaymentError.WrongPassCode]: 'wrongPassCode',
  [PaymentError.PassCodeRequired]: 'passCodeRequired',
  [PaymentError.MethodNotFound]: 'chooseMethodError',
  [PaymentError.TooManyAttempts]: 'tooManyAttempts',
  [CommonError.InvalidPhoneNumber]: 'invalidPhone',
  [OrganizationError.NotVerifiedForProduction]: 'merchantNotVerified',
};

/** A payment refused with `err`: its headers (Retry-After) on the reply, and the text the form shows. */
export function payFailure(page: PageRequest, err: AppError): string {
  for (const [name, value] of Object.entries(err.headers)) void page.reply.header(name, value);
  const text = FORM_ERRORS[err.code];
  return text ? checkoutTexts(page)[text] : err.message;
}

/**
 * The pay form's locals: the bank apps (the chosen one checked), the typed phone, the number the
 * merchant gave masked (`knownPhone`: the field may be left empty), the error, a fresh key.
 */
export function payFormLocals(
  page: PageRequest,
  scope: string,
  methods: PaymentMethodChoice[] | null,
  input: FormState,
  knownPhone: string | null,
): Record<string, unknown> {
  // The chosen method, while the page still offers it; else the first.
  const chosen = methods?.some((m) => m.id === input.methodId) ? input.methodId : undefined;
  return {
    methods: methods?.map((m, i) => ({ ...m, checked: chosen ? m.id === chosen : i === 0 })),
    phoneNumber: input.phoneNumber,
    knownPhone: knownPhone && publicPhone(knownPhone),
    error: input.error,
    csrf: page.csrfToken(scope),
    // Each rendered form is one payment attempt: submitting it again (a double click, a reload) pays once.
    idempotencyKey: randomBytes(18).toString('base64url'),
  };
}

/** Renders `view` in layouts/checkout with the language links (back to the page, not its form's action). */
export function renderHostedPage(
  views: Views,
  page: PageRequest,
  view: string,
  status: number,
  locals: Record<string, unknown>,
): void {
  const path = page.req.url.split('?')[0].replace(/\/(pay|cancel)\/?$/, '');
  const html = views.render(
    view,
    {
      ...locals,
      lang: page.lang,
      dir: direction(page.lang),
      t: checkoutTexts(page),
      nonce: page.nonce,
      languages: LANGUAGES.map((code) => ({
        code,
        name: CHECKOUT_TEXTS[code].languageName,
        href: `${path}?lang=${code}`,
        current: code === page.lang,
      })),
    },
    'layouts/checkout',
  );
  page.send(status, html);
}
