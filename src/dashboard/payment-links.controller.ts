import { ReadsReplica } from '../database/reads-replica';
import { Get, Param } from '@nestjs/common';
import { AppError } from '../common/errors/app-error';
import { CommonError } from '../common/errors/common-errors';
import { Post } from '../common/http/routes';
import { formatMru, LANGUAGES, type Language } from '../common/i18n/languages';
import { DASHBOARD_TEXTS } from '../common/i18n/dashboard-texts';
import { parseDateTime } from '../common/validation/rules';
import { LINK_LIMITS } from '../payment-links/dto/payment-link.dto';
import { closureOf, linkPagePath, PaymentLink, PaymentLinkJson } from '../payment-links/payment-link';
import { PaymentLinkError } from '../payment-links/payment-links.errors';
import { PaymentLinksService } from '../payment-links/payment-links.service';
import { PaymentRequestsService } from '../payment-requests/payment-requests.service';
import { DashboardError, dashboardError } from './dashboard.errors';
import { DashboardRenderer } from './dashboard.renderer';
import { DashboardPages, idOr404 } from './dashboard-pages';
import { Dash, DashboardRequest } from './dashboard-request';
import { dateTimeInput, fill, formatCount, formatTime } from './format';
import { parseAmount } from './forms';
import { pager, requestRow, Viewer } from './presenters';

const PAGE_SIZE = 25;

type Errors = Record<string, string>;

/** The link form as typed (create: every field; edit: those a link may change). */
interface LinkForm {
  name: string;
  description: string;
  amount: string;
  minAmount: string;
  maxAmount: string;
  maxPayments: string;
  expiresAt: string;
  successMessage: string;
  language: string;
  errors: Errors;
}

/** The link form, checked as the API checks it (the DTO's limits); the parsed values the API takes. */
function readForm(d: DashboardRequest, editing: boolean) {
  const form: LinkForm = {
    name: d.field('name').trim(),
    description: d.field('description').trim(),
    amount: d.field('amount').trim(),
    minAmount: d.field('minAmount').trim(),
    maxAmount: d.field('maxAmount').trim(),
    maxPayments: d.field('maxPayments').trim(),
    expiresAt: d.field('expiresAt').trim(),
    successMessage: d.field('successMessage').trim(),
    language: d.field('language'),
    errors: {},
  };
  const { t } = d;
  const e = form.errors;
  if (form.name.length < 1 || form.name.length > LINK_LIMITS.name) e.name = t.linkNameRequired;
  if (form.description.length > LINK_LIMITS.description) e.description = t.linkDescriptionTooLong;
  if (form.successMessage.length > LINK_LIMITS.successMessage) e.successMessage = t.linkSuccessMessageTooLong;
  const optionalAmount = (field: 'amount' | 'minAmount' | 'maxAmount') => {
    if (form[field] === '') return undefined;
    const amount = parseAmount(form[field]);
    if (amount === undefined || amount < 1) e[field] = t.invalidAmount;
    return amount;
  };
  const amount = editing ? undefined : optionalAmount('amount');
  const minAmount = editing || form.amount !== '' ? undefined : optionalAmount('minAmount');
  const maxAmount = editing || form.amount !== '' ? undefined : optionalAmount('maxAmount');
  if (minAmount !== undefined && maxAmount !== undefined && minAmount > maxAmount)
    e.maxAmount = t.linkMinAboveMax;
  let maxPayments: number | null = null;
  if (form.maxPayments !== '') {
    maxPayments = /^\d{1,9}$/.test(form.maxPayments) ? Number(form.maxPayments) : 0;
    if (maxPayments < 1) e.maxPayments = t.invalidMaxPayments;
  }
  let expiresAt: string | null = null;
  if (form.expiresAt !== '') {
    const at = parseDateTime(form.expiresAt);
    if (!at || at.getTime() <= Date.now()) e.expiresAt = t.invalidExpiresAt;
    else expiresAt = at.toISOString();
  }
  const language: Language = (LANGUAGES as readonly string[]).includes(form.language)
    ? (form.language as Language)
    : d.lang;
  return {
    form,
    valid: Object.keys(e).length === 0,
    values: {
      name: form.name,
      description: form.description || null,
      amount,
      minAmount,
      maxAmount,
      maxPayments,
      expiresAt,
      successMessage: form.successMessage || null,
      language,
    },
  };
}

/** The API's rules a form may still break (checked by the service), on the field they concern. */
const FIELD_OF_ERROR: Record<string, keyof LinkForm> = {
  [CommonError.AmountNotPositive]: 'amount',
  [CommonError.AmountTooLarge]: 'amount',
  [PaymentLinkError.MinAboveMax]: 'maxAmount',
  [PaymentLinkError.ExpiresAtPast]: 'expiresAt',
};

/** The badge colour of each status (the dashboard's classes). */
const LINK_BADGES = {
  active: 'active',
  inactive: 'disabled',
  expired: 'expired',
  exhausted: 'completed',
} as const;

/** A link as the list and its page show it. */
function linkRow(v: Viewer, link: PaymentLink, json: PaymentLinkJson) {
  const closure = closureOf(link, { paid: link.paymentsCount, taken: 0 });
  const status = closure === 'full' || closure === null ? 'active' : closure;
  return {
    id: link.id,
    code: link.code,
    href: `/dashboard/payment-links/${link.id}`,
    name: link.name,
    description: link.description,
    amount:
      link.amount !== null
        ? formatMru(link.amount, v.lang)
        : fill(v.t.anyAmountBetween, {
            min: formatMru(link.minAmount!, v.lang),
            max: formatMru(link.maxAmount!, v.lang),
          }),
    payments:
      link.maxPayments === null
        ? formatCount(link.paymentsCount, v.lang)
        : fill(v.t.linkPaymentsOf, {
            count: formatCount(link.paymentsCount, v.lang),
            max: formatCount(link.maxPayments, v.lang),
          }),
    collected: formatMru(link.amountCollected, v.lang),
    status,
    statusText: v.t[`linkStatus_${status}`],
    badge: LINK_BADGES[status],
    active: link.active,
    created: formatTime(link.createdAt, v.lang),
    expires: link.expiresAt ? formatTime(link.expiresAt, v.lang) : v.t.none,
    successMessage: link.successMessage,
    url: json.url,
    pagePath: linkPagePath(link.code),
    qrSvg: `${linkPagePath(link.code)}/qr.svg`,
    qrPng: `${linkPagePath(link.code)}/qr.png?size=1024`,
    qrAlt: fill(v.t.qrCodeAlt, { name: link.name }),
    whatsappUrl: json.whatsappUrl,
  };
}

/**
 * Payment links (docs/payment-links.md) of the session's environment: list and create; a link's
 * page with its address to copy, its QR code to download, WhatsApp sharing, its payments, the edit
 * form and (de)activation. The rules are the API's (`PaymentLinksService`), its limits the DTO's.
 */
@DashboardPages()
export class DashboardPaymentLinksController {
  constructor(
    private readonly renderer: DashboardRenderer,
    private readonly links: PaymentLinksService,
    private readonly requests: PaymentRequestsService,
  ) {}

  @ReadsReplica('page')
  @Get('payment-links')
  async list(@Dash() d: DashboardRequest): Promise<void> {
    await this.renderList(d, emptyForm(d.lang), 200);
  }

  @Post('payment-links')
  async create(@Dash() d: DashboardRequest): Promise<void> {
    const { form, valid, values } = readForm(d, false);
    if (!valid) return this.renderList(d, form, 400);
    let created: PaymentLinkJson;
    try {
      created = await this.links.create(d.tenant, {
        name: values.name,
        description: values.description,
        amount: values.amount,
        minAmount: values.minAmount,
        maxAmount: values.maxAmount,
        maxPayments: values.maxPayments ?? undefined,
        expiresAt: values.expiresAt ?? undefined,
        successMessage: values.successMessage,
        language: values.language,
      });
    } catch (err) {
      const field = AppError.is(err) ? FIELD_OF_ERROR[err.code] : undefined;
      if (!field) throw err;
      form.errors[field] =
        field === 'expiresAt'
          ? d.t.invalidExpiresAt
          : field === 'maxAmount'
            ? d.t.linkMinAboveMax
            : d.t.invalidAmount;
      return this.renderList(d, form, 400);
    }
    d.page.redirect(`/dashboard/payment-links/${created.id}?notice=linkCreated`);
  }

  @Get('payment-links/:id')
  async link(@Dash() d: DashboardRequest, @Param('id') id: string): Promise<void> {
    const link = await this.linkOrNotFoundPage(d, id);
    await this.renderLink(d, link, formOf(link), 200);
  }

  @Post('payment-links/:id')
  async update(@Dash() d: DashboardRequest, @Param('id') id: string): Promise<void> {
    const link = await this.linkOrNotFoundPage(d, id);
    const { form, valid, values } = readForm(d, true);
    if (!valid) return this.renderLink(d, link, form, 400);
    try {
      await this.links.update(d.tenant, link.id, {
        name: values.name,
        description: values.description,
        maxPayments: values.maxPayments,
        expiresAt: values.expiresAt,
        successMessage: values.successMessage,
      });
    } catch (err) {
      if (!AppError.is(err, PaymentLinkError.ExpiresAtPast)) throw err;
      form.errors.expiresAt = d.t.invalidExpiresAt;
      return this.renderLink(d, link, form, 400);
    }
    d.page.redirect(`/dashboard/payment-links/${link.id}?notice=linkSaved`);
  }

  /** `active` = `true` | `false`: reactivates or deactivates (its page then answers 410). */
  @Post('payment-links/:id/active')
  async setActive(@Dash() d: DashboardRequest, @Param('id') id: string): Promise<void> {
    const link = await this.linkOrNotFoundPage(d, id);
    const active = d.field('active') === 'true';
    await this.links.update(d.tenant, link.id, { active });
    d.page.redirect(
      `/dashboard/payment-links/${link.id}?notice=${active ? 'linkActivated' : 'linkDeactivated'}`,
    );
  }

  private async linkOrNotFoundPage(d: DashboardRequest, id: string): Promise<PaymentLink> {
    const link = await this.links.findInEnvironment(d.scope.environmentId, idOr404(id));
    if (!link) throw dashboardError(DashboardError.NotFound);
    return link;
  }

  private async renderList(d: DashboardRequest, form: LinkForm, status: number): Promise<void> {
    const page = await this.links.search(d.scope.environmentId, {
      after: d.query('after'),
      before: d.query('before'),
      limit: PAGE_SIZE,
    });
    this.renderer.render(
      d,
      'payment-links',
      d.t.paymentLinksTitle,
      {
        rows: page.items.map((l) => linkRow(d, l, this.links.toJson(l))),
        form,
        shareLanguages: languageChoices(form.language),
        pager: pager(d, '/dashboard/payment-links', {}, page),
      },
      status,
    );
  }

  private async renderLink(
    d: DashboardRequest,
    link: PaymentLink,
    form: LinkForm,
    status: number,
  ): Promise<void> {
    const here = `/dashboard/payment-links/${link.id}`;
    const payments = await this.requests.search(
      d.scope.environmentId,
      { paymentLinkId: link.id },
      { after: d.query('after'), before: d.query('before'), limit: PAGE_SIZE },
    );
    this.renderer.render(
      d,
      'payment-link',
      fill(d.t.paymentLinkTitle, { name: link.name }),
      {
        link: { ...linkRow(d, link, this.links.toJson(link)), action: here, activeAction: `${here}/active` },
        form,
        payments: payments.items.map((pr) => requestRow(d, pr)),
        pager: pager(d, here, {}, payments),
      },
      status,
    );
  }
}

function emptyForm(lang: Language): LinkForm {
  return {
    name: '',
    description: '',
    amount: '',
    minAmount: '',
    maxAmount: '',
    maxPayments: '',
    expiresAt: '',
    successMessage: '',
    language: lang,
    errors: {},
  };
}

function formOf(link: PaymentLink): LinkForm {
  return {
    ...emptyForm(link.language),
    name: link.name,
    description: link.description ?? '',
    maxPayments: link.maxPayments === null ? '' : String(link.maxPayments),
    expiresAt: dateTimeInput(link.expiresAt),
    successMessage: link.successMessage ?? '',
  };
}

/** The share text languages, each in its own words, the chosen one selected. */
const languageChoices = (selected: string) =>
  LANGUAGES.map((code) => ({
    value: code,
    label: DASHBOARD_TEXTS[code].languageName,
    selected: code === selected,
  }));
