import { PaginationQuery } from '../../common/pagination';
import {
  DateTimeField,
  EnumField,
  IntegerField,
  PredicateField,
  UuidField,
} from '../../common/validation/fields';
import { COUPON_DURATIONS, CouponDuration } from '../coupon';

export const COUPON_CODE = /^[A-Z0-9_-]{3,40}$/;

export class CreateCouponDto {
  @PredicateField(
    '3 to 40 of A-Z 0-9 - _',
    (v) => typeof v === 'string' && COUPON_CODE.test(v),
    { type: 'string', pattern: COUPON_CODE.source },
    { optional: true, description: 'Unique in the organization; generated when absent' },
  )
  code?: string;

  @IntegerField({ optional: true, min: 1, max: 100, description: 'Exactly one of percentOff and amountOff' })
  percentOff?: number;

  @IntegerField({
    optional: true,
    min: 1,
    max: 100000000,
    description: 'Whole MRU off each discounted invoice',
  })
  amountOff?: number;

  @EnumField(COUPON_DURATIONS, {
    description: 'once: the next invoice; repeating: durationInPeriods invoices; forever',
  })
  duration!: CouponDuration;

  @IntegerField({ optional: true, min: 1, max: 120 }) durationInPeriods?: number;

  @IntegerField({ optional: true, min: 1, max: 100000000, description: 'How many times it may be applied' })
  maxRedemptions?: number;

  @DateTimeField({ optional: true, description: 'Not applied from then on' }) expiresAt?: string;
}

export class ListCouponsQuery extends PaginationQuery {}

export class CouponIdParams {
  @UuidField() id!: string;
}
