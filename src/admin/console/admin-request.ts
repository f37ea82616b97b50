import type { AdminTexts } from '../../common/i18n/admin-texts';
import { PageContext } from '../../common/pages/page-context';
import { PageAccess, PageCtx } from '../../common/pages/pages.decorator';
import { isStorableText } from '../../common/validation/storable';
import type { SignedInOperator } from '../operator-sessions.service';

/**
 * Who may use a console route. `anonymous`: no session (sign-in); `password`: a signed-in operator
 * who may still have to change the one-time password (that page, sign-out); `operator` (the
 * default): a signed-in operator whose password is their own.
 */
export type AdminAccess = 'anonymous' | 'password' | 'operator';
export const AdminAccessIs = (access: AdminAccess) => PageAccess(access);

/** One request to a console page: the kit's page context, the signed-in operator when there is one. */
export class AdminRequest extends PageContext<SignedInOperator, AdminTexts> {
  get operator(): SignedInOperator | null {
    return this.user;
  }

  /** A query parameter as a string, or undefined (also when PostgreSQL could not store it). */
  override query(name: string): string | undefined {
    const value = super.query(name);
    return value !== undefined && isStorableText(value) ? value : undefined;
  }
}

/** The request's AdminRequest (made by the page kit's guard). */
export const Adm = PageCtx;
