import { PaginationQuery } from '../../common/pagination';
import { EnumField, IntegerField, UuidField } from '../../common/validation/fields';
import { PAYOUT_STATUSES, type PayoutStatus } from '../payout';
import { PAYOUT_INTERVALS, WEEKDAYS, type PayoutInterval, type Weekday } from '../payout-schedule';

export class CreatePayoutDto {
  @IntegerField({
    optional: true,
    description: 'Whole MRU, 1 to 100000000; default: the whole available balance',
    example: 25000,
  })
  amount?: number;
}

export class ListPayoutsQuery extends PaginationQuery {
  @EnumField(PAYOUT_STATUSES, { optional: true })
  status?: PayoutStatus;
}

export class PayoutIdParams {
  @UuidField() id!: string;
}

export class UpdatePayoutScheduleDto {
  @EnumField(PAYOUT_INTERVALS, { optional: true, description: 'daily (the default), weekly or manual' })
  interval?: PayoutInterval;

  @EnumField(WEEKDAYS, { optional: true, description: 'The day of a weekly payout (default monday)' })
  weeklyDay?: Weekday;

  @IntegerField({
    optional: true,
    description: 'The least balance, in whole MRU, the schedule pays out (default 1000)',
    example: 1000,
  })
  minimumAmount?: number;
}
