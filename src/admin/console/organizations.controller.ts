import { Get, Param } from '@nestjs/common';
import { AppError } from '../../common/errors/app-error';
import { Post } from '../../common/http/routes';
import type { AdminNotice } from '../../common/i18n/admin-texts';
import { GO_LIVE_TEXTS, GoLiveTexts } from '../../common/i18n/go-live-texts';
import { fill, formatTime } from '../../dashboard/format';
import { parseChoice } from '../../dashboard/forms';
import { AccountService } from '../../going-live/account.service';
import { GoLiveService, OpenedApplication } from '../../going-live/go-live.service';
import { VERIFICATION_STATUSES, VerificationStatus } from '../../organizations/verification';
import type { Account } from '../../organizations/account';
import { DocumentKind } from '../../organizations/application';
import { OrganizationsService } from '../../organizations/organizations.service';
import { PageError, pageError } from '../../common/pages/page.errors';
import { AdminError } from '../admin.errors';
import type { Actor } from '../audit-log.repository';
import { OperatorActionsService, REJECTION_REASON_MAX } from '../operator-actions.service';
import { AdminPages, idOr404 } from './admin-pages';
import { Adm, AdminRequest } from './admin-request';
import { AdminRenderer } from './admin.renderer';

/** The documents as their links name them. */
const DOCUMENT_PATHS: Record<string, DocumentKind> = {
  'rccm-extract': 'rccm_extract',
  'representative-id': 'representative_id',
};
const DOCUMENT_LABELS: Record<DocumentKind, keyof GoLiveTexts> = {
  rccm_extract: 'rccmExtract',
  representative_id: 'representativeIdDocument',
};
const EXTENSIONS = { 'application/pdf': 'pdf', 'image/jpeg': 'jpg', 'image/png': 'png' } as const;

/** The application's fields, in the order of the owner's form. */
const APPLICATION_ROWS = [
  'legalName',
  'tradeName',
  'legalForm',
  'rccm',
  'nif',
  'address',
  'representativeName',
  'representativeIdNumber',
  'representativePhone',
  'payoutBank',
  'payoutHolder',
  'payoutIban',
] as const;

/** What the organization page shows beside the record: a form's error and the values typed. */
interface PageState {
  errors?: Partial<Record<'reason' | 'feeBps' | 'decision' | 'change', string>>;
  reason?: string;
  feeBps?: string;
}

const actorOf = (a: AdminRequest): Actor => ({ operatorId: a.signedIn.operatorId, label: a.signedIn.email });

/**
 * The queue of applications (oldest first), the organizations list, an organization's page with
 * its application (the ID number opened only here) and documents (opened only here, decrypted on
 * the fly), and the operators' actions on it: approve, reject with a reason, fee rate, platform,
 * payouts held or released. Each action is audited (OperatorActionsService), and so is each
 * opening of the ID number (every rendering of the page that shows it) and of a document.
 */
@AdminPages()
export class AdminOrganizationsController {
  constructor(
    private readonly renderer: AdminRenderer,
    private readonly organizations: OrganizationsService,
    private readonly accounts: AccountService,
    private readonly goLive: GoLiveService,
    private readonly actions: OperatorActionsService,
  ) {}

  @Get()
  async queue(@Adm() a: AdminRequest): Promise<void> {
    const [rows, changes] = await Promise.all([
      this.goLive.submittedQueue(),
      this.goLive.payoutAccountChangeQueue(),
    ]);
    this.renderer.render(a, 'queue', a.t.queueTitle, {
      rows: rows.map((r) => ({
        id: r.id,
        name: r.name,
        href: `/admin/organizations/${r.id}`,
        submittedAt: formatTime(r.submittedAt, a.lang),
      })),
      changes: changes.map((r) => ({
        id: r.id,
        name: r.name,
        href: `/admin/organizations/${r.id}`,
        requestedAt: formatTime(r.requestedAt, a.lang),
      })),
    });
  }

  @Get('organizations')
  async list(@Adm() a: AdminRequest): Promise<void> {
    const { t } = a;
    const q = (a.query('q') ?? '').trim().slice(0, 200);
    const status = parseChoice<VerificationStatus>(a.query('status'), VERIFICATION_STATUSES);
    const rows = await this.organizations.searchOrganizations({ q: q || undefined, status });
    this.renderer.render(a, 'organizations', t.organizationsTitle, {
      q,
      statuses: VERIFICATION_STATUSES.map((s) => ({
        value: s,
        label: t[`status_${s}`],
        selected: s === status,
      })),
      rows: rows.map((r) => ({
        id: r.id,
        name: r.name,
        href: `/admin/organizations/${r.id}`,
        status: r.verificationStatus,
        statusText: t[`status_${r.verificationStatus}`],
        platform: r.platform,
        created: formatTime(r.createdAt, a.lang),
      })),
    });
  }

  @Get('organizations/:id')
  async show(@Adm() a: AdminRequest, @Param('id') id: string): Promise<void> {
    await this.renderOrganization(a, idOr404(id));
  }

  /** A document of the latest application, decrypted on the fly (audited): a download, never cached. */
  @Get('organizations/:id/documents/:kind')
  async document(
    @Adm() a: AdminRequest,
    @Param('id') id: string,
    @Param('kind') path: string,
  ): Promise<void> {
    const kind = Object.hasOwn(DOCUMENT_PATHS, path) ? DOCUMENT_PATHS[path] : undefined;
    if (!kind) throw pageError(PageError.NotFound);
    const document = await this.actions.openDocument(actorOf(a), idOr404(id), kind);
    const filename = `${path}-${id}.${EXTENSIONS[document.contentType]}`;
    void a.page.reply
      .status(200)
      .headers({
        'content-type': document.contentType,
        'content-disposition': `attachment; filename="${filename}"`,
        'cache-control': 'no-store',
        'x-content-type-options': 'nosniff',
        'content-security-policy': "default-src 'none'; sandbox",
        'referrer-policy': 'no-referrer',
      })
      .send(document.data);
  }

  @Post('organizations/:id/approve')
  async approve(@Adm() a: AdminRequest, @Param('id') id: string): Promise<void> {
    await this.decide(a, idOr404(id), 'verified', () => this.actions.verify(actorOf(a), id, true));
  }

  @Post('organizations/:id/reject')
  async reject(@Adm() a: AdminRequest, @Param('id') id: string): Promise<void> {
    const reason = a.field('reason');
    const organizationId = idOr404(id);
    if (!reason.trim() || reason.trim().length > REJECTION_REASON_MAX)
      return this.renderOrganization(
        a,
        organizationId,
        { errors: { reason: a.t.reasonRequired }, reason },
        400,
      );
    await this.decide(
      a,
      organizationId,
      'rejected',
      () => this.actions.reject(actorOf(a), id, reason, true),
      reason,
    );
  }

  @Post('organizations/:id/fee-rate')
  async feeRate(@Adm() a: AdminRequest, @Param('id') id: string): Promise<void> {
    const organizationId = idOr404(id);
    const input = a.field('feeBps').trim();
    const feeBps = input === '' ? null : /^[0-9]{1,5}$/.test(input) ? Number(input) : NaN;
    if (feeBps !== null && !(feeBps >= 0 && feeBps <= 10000))
      return this.renderOrganization(
        a,
        organizationId,
        { errors: { feeBps: a.t.invalidFeeRate }, feeBps: input },
        400,
      );
    await this.actions.setFeeRate(actorOf(a), organizationId, feeBps);
    this.done(a, organizationId, 'feeRate');
  }

  @Post('organizations/:id/platform')
  async platform(@Adm() a: AdminRequest, @Param('id') id: string): Promise<void> {
    const organizationId = idOr404(id);
    await this.actions.setPlatform(actorOf(a), organizationId, a.field('platform') === 'true');
    this.done(a, organizationId, 'platform');
  }

  @Post('organizations/:id/payouts')
  async payouts(@Adm() a: AdminRequest, @Param('id') id: string): Promise<void> {
    const organizationId = idOr404(id);
    const held = a.field('held') === 'true';
    await this.actions.setPayoutsHeld(actorOf(a), organizationId, held);
    this.done(a, organizationId, held ? 'payoutsHeld' : 'payoutsReleased');
  }

  /** The owner's payout account change (docs/going-live.md): approved, the payouts go to the new account. */
  @Post('organizations/:id/payout-account-change/approve')
  async approvePayoutAccountChange(@Adm() a: AdminRequest, @Param('id') id: string): Promise<void> {
    const organizationId = idOr404(id);
    await this.decideChange(a, organizationId, 'payoutAccountChangeApproved', () =>
      this.actions.approvePayoutAccountChange(actorOf(a), organizationId),
    );
  }

  @Post('organizations/:id/payout-account-change/reject')
  async rejectPayoutAccountChange(@Adm() a: AdminRequest, @Param('id') id: string): Promise<void> {
    const organizationId = idOr404(id);
    await this.decideChange(a, organizationId, 'payoutAccountChangeRejected', () =>
      this.actions.rejectPayoutAccountChange(actorOf(a), organizationId),
    );
  }

  /** A change no longer waiting (another operator decided, or the owner asked again) is shown, 409. */
  private async decideChange(
    a: AdminRequest,
    organizationId: string,
    notice: AdminNotice,
    act: () => Promise<unknown>,
  ): Promise<void> {
    try {
      await act();
    } catch (err) {
      if (AppError.is(err, AdminError.NoPayoutAccountChange))
        return this.renderOrganization(
          a,
          organizationId,
          { errors: { change: a.t.noPayoutAccountChange } },
          409,
        );
      throw err;
    }
    this.done(a, organizationId, notice);
  }

  /** Approve or reject: an application no longer waiting (another operator decided) is shown, 409. */
  private async decide(
    a: AdminRequest,
    organizationId: string,
    notice: AdminNotice,
    act: () => Promise<unknown>,
    reason?: string,
  ): Promise<void> {
    try {
      await act();
    } catch (err) {
      if (AppError.is(err, AdminError.NotUnderReview))
        return this.renderOrganization(
          a,
          organizationId,
          { errors: { decision: a.t.notUnderReview }, reason },
          409,
        );
      throw err;
    }
    this.done(a, organizationId, notice);
  }

  private done(a: AdminRequest, organizationId: string, notice: AdminNotice): void {
    a.page.redirect(`/admin/organizations/${organizationId}?notice=${notice}`);
  }

  private async renderOrganization(
    a: AdminRequest,
    organizationId: string,
    state: PageState = {},
    status = 200,
  ): Promise<void> {
    const g = GO_LIVE_TEXTS[a.lang];
    const account = await this.accounts.get(organizationId);
    // Audited: the page shows the decrypted ID number.
    const application = await this.actions.openApplication(actorOf(a), organizationId);
    this.renderer.render(
      a,
      'organization',
      account.name,
      {
        org: organizationFacts(a, account),
        application: application && applicationFacts(a, g, application),
        canDecide: account.verificationStatus === 'submitted',
        errors: state.errors ?? {},
        reason: state.reason ?? '',
        feeBps: state.feeBps ?? (account.feeBps === null ? '' : String(account.feeBps)),
        auditHref: `/admin/audit?organization=${organizationId}`,
      },
      status,
    );
  }
}

function organizationFacts(a: AdminRequest, account: Account) {
  const { t } = a;
  return {
    id: account.id,
    name: account.name,
    status: account.verificationStatus,
    statusText: t[`status_${account.verificationStatus}`],
    submittedAt: formatTime(account.submittedAt, a.lang),
    decidedAt: formatTime(account.decidedAt, a.lang),
    reason: account.reason,
    feeRate: account.feeBps === null ? t.feeDefault : fill(t.bps, { bps: account.feeBps }),
    platform: account.platform,
    payoutsHeld: account.payoutsHeld,
    payoutAccount: account.payoutAccount && {
      bank: account.payoutAccount.bank,
      holderName: account.payoutAccount.holderName,
      iban: account.payoutAccount.iban,
      status: GO_LIVE_TEXTS[a.lang][`payoutStatus_${account.payoutAccount.status}`],
    },
    payoutAccountChange: account.payoutAccountChange?.status === 'pending' && {
      bank: account.payoutAccountChange.bank,
      holderName: account.payoutAccountChange.holderName,
      iban: account.payoutAccountChange.iban,
      requestedAt: fill(t.requestedAt, {
        date: formatTime(new Date(account.payoutAccountChange.requestedAt), a.lang),
      }),
    },
  };
}

function applicationFacts(a: AdminRequest, g: GoLiveTexts, application: OpenedApplication) {
  const value = (name: (typeof APPLICATION_ROWS)[number]): string =>
    name === 'legalForm' ? g[`legalForm_${application.legalForm}`] : application[name];
  return {
    sentAt: fill(a.t.sentAt, { date: formatTime(application.createdAt, a.lang) }),
    rows: APPLICATION_ROWS.map((name) => ({
      name,
      label: g[name],
      value: value(name),
      ltr: ['rccm', 'nif', 'representativeIdNumber', 'representativePhone', 'payoutIban'].includes(name),
    })),
    documents: application.documents.map((d) => {
      const path = Object.entries(DOCUMENT_PATHS).find(([, kind]) => kind === d.kind)![0];
      return {
        kind: d.kind,
        label: fill(a.t.openDocument, { name: g[DOCUMENT_LABELS[d.kind]] }),
        href: `/admin/organizations/${application.organizationId}/documents/${path}`,
        type: d.contentType,
        size: `${Math.ceil(d.size / 1024)} KB`,
      };
    }),
  };
}
