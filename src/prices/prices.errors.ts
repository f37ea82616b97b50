import { domainErrors } from '../common/errors/app-error';
import { Messages } from '../common/errors/messages';

export enum PriceError {
  NotFound = 'price_not_found',
  /** A price for a product that is not an active product of the key's environment. */
  ProductNotFound = 'price_product_not_found',
  AmountNotPositive = 'price_amount_not_positive',
}

export const priceError = domainErrors<PriceError>({
  [PriceError.NotFound]: [404, Messages.priceNotFound],
  [PriceError.ProductNotFound]: [404, Messages.productNotFound],
  [PriceError.AmountNotPositive]: [400, Messages.priceAmountNotPositive],
});
