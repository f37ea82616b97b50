import { Get, Param } from '@nestjs/common';
import { AppError } from '../common/errors/app-error';
import { Post } from '../common/http/routes';
import { isHttpUrl, normalizePhone } from '../common/validation/rules';
import { AppConfig } from '../config/config';
import { AccountService } from '../going-live/account.service';
import { OrganizationError } from '../organizations/organizations.errors';
import { EmailTakenError } from '../organizations/organizations.service';
import { ROLES, Role } from '../organizations/users';
import { UsersService } from '../organizations/users.service';
import { DashboardError, dashboardError } from './dashboard.errors';
import { DashboardRenderer, roleLabel } from './dashboard.renderer';
import { DashboardPages, idOr404 } from './dashboard-pages';
import { Dash, DashboardAccess, DashboardRequest } from './dashboard-request';
import { fill, formatTime } from './format';
import { parseChoice } from './forms';

/**
 * The organization's people: everyone sees them; owners invite, change roles and remove. Owners
 * also set the organization's public contact here.
 */
@DashboardPages('team')
export class DashboardTeamController {
  constructor(
    private readonly renderer: DashboardRenderer,
    private readonly users: UsersService,
    private readonly config: AppConfig,
    private readonly accounts: AccountService,
  ) {}

  @Get()
  async team(@Dash() d: DashboardRequest): Promise<void> {
    await this.render(d, { email: '', role: 'developer' });
  }

  /** A one-time link, shown once, valid 7 days. */
  @Post('invitations')
  @DashboardAccess('owner')
  async invite(@Dash() d: DashboardRequest): Promise<void> {
    const { t } = d;
    const user = d.signedIn;
    const email = d.field('email').trim();
    const role = parseChoice(d.field('role'), ROLES);
    if (!role) throw dashboardError(DashboardError.InvalidForm);
    let created;
    try {
      created = await this.users.invite(user.organizationId, user.userId, email, role);
    } catch (err) {
      if (AppError.is(err, OrganizationError.InvalidEmail))
        return this.render(d, { email, role, error: t.invalidEmail });
      if (err instanceof EmailTakenError) return this.render(d, { email, role, error: t.emailTaken });
      throw err;
    }
    this.renderer.render(d, 'invitation-created', t.invitationLinkTitle, {
      link: `${this.config.publicUrl}/dashboard/invite/${created.token}`,
      text: fill(t.invitationLinkOnce, {
        email: created.invitation.email,
        date: formatTime(created.invitation.expiresAt, d.lang),
      }),
    });
  }

  /** The support phone and website customers see on the hosted pages and in `organization`. */
  @Post('public-contact')
  @DashboardAccess('owner')
  async savePublicContact(@Dash() d: DashboardRequest): Promise<void> {
    const phoneInput = d.field('phoneNumber').trim();
    const websiteInput = d.field('website').trim();
    const phoneNumber = phoneInput === '' ? '' : normalizePhone(phoneInput);
    const contact = { phoneNumber: phoneInput, website: websiteInput };
    if (phoneNumber === null)
      return this.render(d, { email: '', role: 'developer', contact, error: d.t.invalidPhone });
    if (websiteInput !== '' && !isHttpUrl(websiteInput))
      return this.render(d, { email: '', role: 'developer', contact, error: d.t.invalidUrl });
    await this.accounts.setPublicContact(d.signedIn.organizationId, {
      phoneNumber,
      website: websiteInput === '' ? null : websiteInput,
    });
    d.page.redirect('/dashboard/team?notice=publicContactSaved');
  }

  @Post('invitations/:id/revoke')
  @DashboardAccess('owner')
  async revokeInvitation(@Dash() d: DashboardRequest, @Param('id') id: string): Promise<void> {
    await this.unlessLastOwner(() => this.users.revokeInvitation(d.signedIn.organizationId, idOr404(id)));
    d.page.redirect('/dashboard/team?notice=invitationRevoked');
  }

  @Post('users/:id/role')
  @DashboardAccess('owner')
  async changeRole(@Dash() d: DashboardRequest, @Param('id') id: string): Promise<void> {
    const role = parseChoice(d.field('role'), ROLES);
    if (!role) throw dashboardError(DashboardError.InvalidForm);
    const changed = await this.unlessLastOwner(() =>
      this.users.changeRole(d.signedIn.organizationId, idOr404(id), role),
    );
    if (!changed) return this.render(d, { email: '', role: 'developer', error: d.t.lastOwner });
    d.page.redirect('/dashboard/team?notice=roleChanged');
  }

  /** Their sessions end with them; removing oneself signs out. */
  @Post('users/:id/remove')
  @DashboardAccess('owner')
  async remove(@Dash() d: DashboardRequest, @Param('id') id: string): Promise<void> {
    const user = d.signedIn;
    const removed = await this.unlessLastOwner(() => this.users.remove(user.organizationId, idOr404(id)));
    if (!removed) return this.render(d, { email: '', role: 'developer', error: d.t.lastOwner });
    if (removed.id === user.userId) return d.page.redirect('/dashboard/login');
    d.page.redirect('/dashboard/team?notice=memberRemoved');
  }

  /** Null when the organization would lose its last owner; the 404 page for another organization's ids. */
  private async unlessLastOwner<T>(fn: () => Promise<T>): Promise<T | null> {
    try {
      return await fn();
    } catch (err) {
      if (AppError.is(err, OrganizationError.LastOwner)) return null;
      if (AppError.is(err, OrganizationError.UserNotFound, OrganizationError.InvitationNotFound))
        throw dashboardError(DashboardError.NotFound);
      throw err;
    }
  }

  private async render(
    d: DashboardRequest,
    form: { email: string; role: Role; error?: string; contact?: { phoneNumber: string; website: string } },
  ): Promise<void> {
    const { t } = d;
    const me = d.signedIn;
    const [users, invitations, account] = await Promise.all([
      this.users.users(me.organizationId),
      this.users.pendingInvitations(me.organizationId),
      this.accounts.get(me.organizationId),
    ]);
    const roleChoices = (current: Role) =>
      ROLES.map((r) => ({ value: r, label: roleLabel(t, r), selected: r === current }));
    this.renderer.render(d, 'team', t.teamTitle, {
      members: users.map((u) => ({
        id: u.id,
        email: u.email,
        you: u.id === me.userId,
        role: roleLabel(t, u.role),
        roles: roleChoices(u.role),
        since: formatTime(u.createdAt, d.lang),
        roleAction: `/dashboard/team/users/${u.id}/role`,
        removeAction: `/dashboard/team/users/${u.id}/remove`,
      })),
      invitations: invitations.map((i) => ({
        email: i.email,
        role: roleLabel(t, i.role),
        expires: formatTime(i.expiresAt, d.lang),
        revokeAction: `/dashboard/team/invitations/${i.id}/revoke`,
      })),
      form: { email: form.email, roles: roleChoices(form.role), error: form.error },
      contact: form.contact ?? { phoneNumber: account.phoneNumber, website: account.website ?? '' },
    });
  }
}
