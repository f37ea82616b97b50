import { domainErrors } from '../common/errors/app-error';
import { Messages } from '../common/errors/messages';

export enum CouponError {
  NotFound = 'coupon_not_found',
  NotValid = 'coupon_not_valid',
  CodeTaken = 'coupon_code_taken',
  OneKindOfDiscount = 'coupon_one_kind_of_discount',
  DurationInPeriods = 'coupon_duration_in_periods',
}

export const couponError = domainErrors<CouponError>({
  [CouponError.NotFound]: [404, Messages.couponNotFound],
  [CouponError.NotValid]: [400, Messages.couponNotValid],
  [CouponError.CodeTaken]: [409, Messages.couponCodeTaken],
  [CouponError.OneKindOfDiscount]: [400, Messages.couponOneKindOfDiscount],
  [CouponError.DurationInPeriods]: [400, Messages.couponDurationInPeriods],
});
