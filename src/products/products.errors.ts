import { domainErrors } from '../common/errors/app-error';
import { Messages } from '../common/errors/messages';

export enum ProductError {
  NotFound = 'product_not_found',
}

export const productError = domainErrors<ProductError>({
  [ProductError.NotFound]: [404, Messages.productNotFound],
});
