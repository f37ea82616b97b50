import { Get } from '@nestjs/common';
import { AppError } from '../common/errors/app-error';
import { Post } from '../common/http/routes';
import type { UploadedFile } from '../common/http/uploads';
import { GO_LIVE_TEXTS, GoLiveTexts } from '../common/i18n/go-live-texts';
import {
  APPLICATION_FIELDS,
  DOCUMENT_FIELDS,
  FieldProblem,
  readApplication,
  readPayoutAccountChange,
} from '../going-live/application-form';
import { GoLiveService } from '../going-live/go-live.service';
import { GoLiveError } from '../going-live/going-live.errors';
import { LEGAL_FORMS, StoredApplication } from '../organizations/application';
import type { Account } from '../organizations/account';
import { ConnectedAccountsService } from '../organizations/connected-accounts.service';
import { DashboardError, dashboardError } from './dashboard.errors';
import { DashboardRenderer } from './dashboard.renderer';
import { DashboardPages } from './dashboard-pages';
import { Dash, DashboardAccess, DashboardRequest } from './dashboard-request';
import { fill, formatTime } from './format';
import { ONBOARDING_COOKIE } from './onboarding.controller';

/** What the form shows: the values typed (or of the latest application), and each field's problem. */
interface FormState {
  values: Record<string, string>;
  problems?: Partial<Record<string, FieldProblem>>;
  error?: string;
  notice?: string;
  /** The payout account change form's values and problems (a verified owner's). */
  change?: { values: Record<string, string>; problems: Partial<Record<string, FieldProblem>> };
}

const PAYOUT_FIELDS = ['payoutBank', 'payoutHolder', 'payoutIban'] as const;

/**
 * The owner's application to go live (docs/going-live.md): where it stands, the operator's reason
 * when rejected, and the form (multipart: the two documents) to apply or apply again.
 */
@DashboardPages('go-live')
export class DashboardGoLiveController {
  constructor(
    private readonly renderer: DashboardRenderer,
    private readonly goLive: GoLiveService,
    private readonly accounts: ConnectedAccountsService,
  ) {}

  /** Owners only, reading too: the application holds the representative's personal data. */
  @Get()
  @DashboardAccess('owner')
  async show(@Dash() d: DashboardRequest): Promise<void> {
    if (!d.isOwner) throw dashboardError(DashboardError.Forbidden);
    const t = this.texts(d);
    const notice = { submitted: t.submitted, 'change-requested': t.changeRequested }[d.query('notice') ?? ''];
    await this.render(d, { values: {}, notice });
  }

  @Post()
  @DashboardAccess('owner')
  async apply(@Dash() d: DashboardRequest): Promise<void> {
    const t = this.texts(d);
    const organizationId = d.signedIn.organizationId;
    const { application } = await this.goLive.standing(organizationId);
    const body = (d.page.req.body ?? {}) as Record<string, unknown>;
    const file = (name: string) => {
      const value = body[name];
      return value && typeof value === 'object' && Buffer.isBuffer((value as UploadedFile).data)
        ? (value as UploadedFile)
        : undefined;
    };
    const values = Object.fromEntries(APPLICATION_FIELDS.map((name) => [name, d.field(name)]));
    const read = readApplication(
      (name) => d.field(name),
      file,
      this.goLive.banks(),
      (kind) => application?.documents.some((doc) => doc.kind === kind) ?? false,
    );
    if ('problems' in read)
      return this.render(d, { values, problems: read.problems, error: t.fixErrors }, 400);
    try {
      await this.goLive.submit(organizationId, d.signedIn.userId, read.input);
    } catch (err) {
      if (AppError.is(err, GoLiveError.UnderReview))
        return this.render(d, { values, error: t.underReview }, 409);
      if (AppError.is(err, GoLiveError.AlreadyVerified))
        return this.render(d, { values, error: t.alreadyVerified }, 409);
      throw err;
    }
    // A merchant onboarded by a platform's link goes back to the platform (docs/platforms.md).
    const onboarding = d.page.cookies[ONBOARDING_COOKIE];
    const returnUrl = onboarding && (await this.accounts.onboardingReturn(organizationId, onboarding));
    if (onboarding) d.page.clearCookie(ONBOARDING_COOKIE);
    d.page.redirect(returnUrl || '/dashboard/go-live?notice=submitted');
  }

  /** A verified owner's new payout account, waiting for an operator (docs/going-live.md). */
  @Post('payout-account')
  @DashboardAccess('owner')
  async changePayoutAccount(@Dash() d: DashboardRequest): Promise<void> {
    const t = this.texts(d);
    const values = Object.fromEntries(PAYOUT_FIELDS.map((name) => [name, d.field(name)]));
    const read = readPayoutAccountChange((name) => d.field(name), this.goLive.banks());
    if ('problems' in read)
      return this.render(
        d,
        { values: {}, change: { values, problems: read.problems }, error: t.fixErrors },
        400,
      );
    try {
      await this.goLive.requestPayoutAccountChange(d.signedIn.organizationId, d.signedIn.userId, read.input);
    } catch (err) {
      if (AppError.is(err, GoLiveError.NotVerified))
        return this.render(d, { values: {}, error: t.changeNeedsVerification }, 409);
      throw err;
    }
    d.page.redirect('/dashboard/go-live?notice=change-requested');
  }

  private texts(d: DashboardRequest): GoLiveTexts {
    return GO_LIVE_TEXTS[d.lang];
  }

  private async render(d: DashboardRequest, form: FormState, status = 200): Promise<void> {
    const t = this.texts(d);
    const { account, application } = await this.goLive.standing(d.signedIn.organizationId);
    const values = Object.keys(form.values).length > 0 ? form.values : valuesOf(application);
    const problem = (name: string) => {
      const p = form.problems?.[name];
      return p ? t[`problem_${p}`] : undefined;
    };
    const canApply = account.verificationStatus === 'unverified' || account.verificationStatus === 'rejected';
    const field = (name: string) => ({
      name,
      label: t[name as keyof GoLiveTexts],
      value: values[name] ?? '',
      error: problem(name),
    });
    this.renderer.render(
      d,
      'go-live',
      t.title,
      {
        g: t,
        standing: standingOf(t, account, d),
        canApply,
        notice: form.notice,
        error: form.error,
        fields: Object.fromEntries(APPLICATION_FIELDS.map((name) => [name, field(name)])),
        legalForms: LEGAL_FORMS.map((code) => ({
          value: code,
          label: t[`legalForm_${code}`],
          selected: values.legalForm === code,
        })),
        banks: this.goLive
          .banks()
          .map((code) => ({ value: code, label: code, selected: values.payoutBank === code })),
        documents: Object.entries(DOCUMENT_FIELDS).map(([kind, name]) => ({
          name,
          label: t[name as keyof GoLiveTexts],
          error: problem(name),
          kept: application?.documents.some((doc) => doc.kind === kind) ?? false,
        })),
        resubmission: account.verificationStatus === 'rejected',
        change:
          account.verificationStatus === 'verified' && changeOf(t, account, form, this.goLive.banks(), d),
      },
      status,
    );
  }
}

/** The latest application's fields, to correct them (never the sealed ID number). */
function valuesOf(application: StoredApplication | undefined): Record<string, string> {
  if (!application) return {};
  const { legalName, tradeName, legalForm, rccm, nif, address, representativeName } = application;
  const { representativePhone, payoutBank, payoutHolder, payoutIban } = application;
  return {
    legalName,
    tradeName,
    legalForm,
    rccm,
    nif,
    address,
    representativeName,
    representativePhone,
    payoutBank,
    payoutHolder,
    payoutIban,
  };
}

function standingOf(t: GoLiveTexts, account: Account, d: DashboardRequest) {
  const status = account.verificationStatus;
  const date = formatTime(status === 'submitted' ? account.submittedAt : account.decidedAt, d.lang);
  return {
    status,
    text: fill(t[`status_${status}`], { date }),
    reason: status === 'rejected' ? account.reason : null,
    payoutAccount: account.payoutAccount && {
      bank: account.payoutAccount.bank,
      holderName: account.payoutAccount.holderName,
      ibanLast4: account.payoutAccount.iban.slice(-4),
      status: t[`payoutStatus_${account.payoutAccount.status}`],
    },
  };
}

/** The payout account change: the request waiting or refused, and the form to ask for one. */
function changeOf(t: GoLiveTexts, account: Account, form: FormState, banks: string[], d: DashboardRequest) {
  const request = account.payoutAccountChange;
  const values = form.change?.values ?? {};
  const field = (name: (typeof PAYOUT_FIELDS)[number]) => {
    const p = form.change?.problems[name];
    return { name, label: t[name], value: values[name] ?? '', error: p ? t[`problem_${p}`] : undefined };
  };
  return {
    request: request && {
      status: request.status,
      text: fill(request.status === 'pending' ? t.changePending : t.changeRejected, {
        date: formatTime(
          new Date(request.status === 'pending' ? request.requestedAt : request.requestedAt),
          d.lang,
        ),
      }),
      bank: request.bank,
      holderName: request.holderName,
      ibanLast4: request.iban.slice(-4),
    },
    fields: {
      payoutBank: field('payoutBank'),
      payoutHolder: field('payoutHolder'),
      payoutIban: field('payoutIban'),
    },
    banks: banks.map((code) => ({ value: code, label: code, selected: values.payoutBank === code })),
  };
}
