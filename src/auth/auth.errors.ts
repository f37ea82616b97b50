import { domainErrors } from '../common/errors/app-error';
import { Messages } from '../common/errors/messages';

export enum AuthError {
  ApiKeyRequired = 'api_key_required',
  InvalidApiKey = 'invalid_api_key',
  UnauthorizedAccess = 'unauthorized_access',
  CheckoutNeedsSecretKey = 'checkout_needs_secret_key',
}

export const authError = domainErrors<AuthError>({
  [AuthError.ApiKeyRequired]: [401, Messages.apiKeyRequired],
  [AuthError.InvalidApiKey]: [401, Messages.invalidApiKey],
  [AuthError.UnauthorizedAccess]: [403, Messages.unauthorizedAccess],
  [AuthError.CheckoutNeedsSecretKey]: [403, Messages.checkoutNeedsSecretKey],
});
