import { Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { isUUID } from 'class-validator';
import { AppError } from '../common/errors/app-error';
import { CommonError } from '../common/errors/common-errors';
import { PageRequest, PageSurface } from '../common/http/pages';
import { Views } from '../common/http/views';
import { CHECKOUT_TEXTS, CheckoutTexts } from '../common/i18n/checkout-texts';
import { direction, LANGUAGES } from '../common/i18n/languages';
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

/**
 * The hosted checkout's surface: cookies on /checkout, and the operator's CSRF key or the one
 * instances share. Each page's controller (checkout, invoice, payment link) makes it at start-up.
 */
@Injectable()
export class CheckoutSurface {
  constructor(
    private readonly config: AppConfig,
    private readonly secrets: ServerSecrets,
  ) {}

  async make(): Promise<PageSurface> {
    return {
      path: '/checkout',
      languages: LANGUAGES,
      languageCookie: 'khoums_lang',
      csrfSecret: this.config.CHECKOUT_CSRF_SECRET ?? (await this.secrets.get('checkout-csrf')),
      secure: this.config.publicUrl.startsWith('https:'),
    };
  }
}

export const checkoutTexts = (page: PageRequest): CheckoutTexts => CHECKOUT_TEXTS[page.lang];

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
  _csrf?: unknown;
  /** The rendered form's own key (a hidden field): a resubmission is the same attempt. */
  idempotencyKey?: unknown;
}

/**
 * Reads a posted pay form whose CSRF token is scoped to `scope` (the session's or invoice's id):
 * what the customer typed (to show the form again) and either the payment to make or why not. The
 * phone left empty is `knownPhone`, the number the merchant gave (the page shows it masked only:
 * whoever holds the page's link is not necessarily the payer).
 */
export function readPayForm(
  page: PageRequest,
  scope: string,
  knownPhone: string | null,
): { typed: FormState } & ({ input: CheckoutPayInput } | { status: number; error: string }) {
  const t = checkoutTexts(page);
  const form = (page.req.body ?? {}) as PayFormBody;
  const phoneInput = typeof form.phoneNumber === 'string' ? form.phoneNumber : '';
  const methodId = typeof form.paymentMethodId === 'string' ? form.paymentMethodId : '';
  const typed = { phoneNumber: phoneInput, methodId };
  if (!page.csrfValid(scope, form._csrf)) return { typed, status: 403, error: t.securityCheck };
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
