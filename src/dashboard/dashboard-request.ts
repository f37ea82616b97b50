import type { DashboardTexts } from '../common/i18n/dashboard-texts';
import { PageContext } from '../common/pages/page-context';
import { PageAccess, PageCtx } from '../common/pages/pages.decorator';
import type { EnvironmentScope, Tenant } from '../organizations/tenant';
import type { SignedIn } from './sessions.service';

/**
 * Who may use a dashboard route. `anonymous`: no session (sign-in, sign-up, invitations);
 * `member`: any signed-in user (reading; and their own session: sign-out, environment, password);
 * `editor`: owners and developers (every change to the organization's data); `owner`: owners
 * (people and roles). Unmarked, a GET is `member` and a POST `editor`: a new form refuses viewers.
 */
export type Access = 'anonymous' | 'member' | 'editor' | 'owner';
export const DashboardAccess = (access: Access) => PageAccess(access);

/** One request to a dashboard page: the kit's page context, with the signed-in user's organization. */
export class DashboardRequest extends PageContext<SignedIn, DashboardTexts> {
  /** The organization and environment the user works on. */
  get scope(): EnvironmentScope {
    const u = this.signedIn;
    return { organizationId: u.organizationId, environmentId: u.environmentId, environment: u.environment };
  }

  /**
   * The session's environment as the API's services take it: the rights of a secret key of it,
   * with the organization's verification (Production money waits for `verified`, as with a key).
   */
  get tenant(): Tenant {
    const u = this.signedIn;
    return { ...this.scope, keyKind: 'secret', keyId: '', verification: u.verificationStatus };
  }

  get canEdit(): boolean {
    return this.user !== null && this.user.role !== 'viewer';
  }

  get isOwner(): boolean {
    return this.user?.role === 'owner';
  }
}

/** The request's DashboardRequest (made by the page kit's guard). */
export const Dash = PageCtx;
