import { BooleanField, EnumField, IntegerField, UuidField } from '../../common/validation/fields';
import { PRICE_INTERVALS, PriceInterval } from '../price';

export class CreatePriceDto {
  @UuidField({ description: 'An active product of the environment' }) productId!: string;

  @IntegerField({ description: 'Whole MRU billed every interval, 1 to 100000000', example: 1500 })
  amount!: number;

  @EnumField(PRICE_INTERVALS, { description: 'How often the amount is billed' })
  interval!: PriceInterval;
}

export class UpdatePriceDto {
  @IntegerField({ optional: true, description: 'Whole MRU, 1 to 100000000' }) amount?: number;

  @EnumField(PRICE_INTERVALS, { optional: true }) interval?: PriceInterval;

  @BooleanField({
    optional: true,
    description:
      'true: this price is deactivated and a new price (new id) is returned for new subscriptions; existing subscriptions keep this one',
  })
  replaceExisting?: boolean;
}

export class PriceIdParams {
  @UuidField() id!: string;
}
