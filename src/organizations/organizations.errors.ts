import { domainErrors } from '../common/errors/app-error';
import { Messages } from '../common/errors/messages';

/** Accounts, invitations and keys as the dashboard manages them. */
export enum OrganizationError {
  InvalidEmail = 'invalid_email',
  PasswordTooShort = 'password_too_short',
  PasswordTooCommon = 'password_too_common',
  PasswordTooLong = 'password_too_long',
  WrongCurrentPassword = 'wrong_current_password',
  UserNotFound = 'user_not_found',
  LastOwner = 'last_owner',
  InvitationNotFound = 'invitation_not_found',
  ApiKeyNotFound = 'api_key_not_found',
  NotVerifiedForProduction = 'organization_not_verified',
  OrganizationNotFound = 'organization_not_found',
  OnlyPlatforms = 'only_platforms_connect_accounts',
  AccountNotConnected = 'account_not_connected',
  AccountEmailTaken = 'account_email_taken',
}

export const organizationError = domainErrors<OrganizationError>({
  [OrganizationError.InvalidEmail]: [400, Messages.invalidEmail],
  [OrganizationError.PasswordTooShort]: [400, Messages.passwordTooShort],
  [OrganizationError.PasswordTooCommon]: [400, Messages.passwordTooCommon],
  [OrganizationError.PasswordTooLong]: [400, Messages.passwordTooLong],
  [OrganizationError.WrongCurrentPassword]: [400, Messages.wrongCurrentPassword],
  [OrganizationError.UserNotFound]: [404, Messages.userNotFound],
  [OrganizationError.LastOwner]: [409, Messages.lastOwner],
  [OrganizationError.InvitationNotFound]: [404, Messages.invitationNotFound],
  [OrganizationError.ApiKeyNotFound]: [404, Messages.apiKeyNotFound],
  [OrganizationError.NotVerifiedForProduction]: [403, Messages.organizationNotVerified],
  [OrganizationError.OrganizationNotFound]: [404, Messages.organizationNotFound],
  [OrganizationError.OnlyPlatforms]: [403, Messages.onlyPlatformsConnectAccounts],
  [OrganizationError.AccountNotConnected]: [403, Messages.accountNotConnected],
  [OrganizationError.AccountEmailTaken]: [409, Messages.accountEmailTaken],
});
