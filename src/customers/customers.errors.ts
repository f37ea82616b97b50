import { domainErrors } from '../common/errors/app-error';
import { Messages } from '../common/errors/messages';

export enum CustomerError {
  NotFound = 'customer_not_found',
  ExternalUserIdTaken = 'customer_external_user_id_taken',
}

export const customerError = domainErrors<CustomerError>({
  [CustomerError.NotFound]: [404, Messages.customerNotFound],
  [CustomerError.ExternalUserIdTaken]: [409, Messages.customerExternalIdTaken],
});
