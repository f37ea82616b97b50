import { Type } from 'class-transformer';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsArray, IsInt, IsObject, IsOptional, Max, Min, ValidateNested } from 'class-validator';
import { BooleanField, EnumField, IntegerField, Msg, PredicateField } from '../../common/validation/fields';
import {
  DUNNING_ACTIONS,
  DUNNING_DAYS_MAX,
  DunningAction,
  INVOICE_PREFIX,
  REMINDER_DAYS_MAX,
} from '../billing-settings';

const dayList = `array of integers 0-${REMINDER_DAYS_MAX}`;

/** A list of reminder days: each a whole number of days from 0 to 60 (422 otherwise). */
const ReminderDays = () => (target: object, property: string | symbol) => {
  ApiPropertyOptional({ type: 'integer', isArray: true, minimum: 0, maximum: REMINDER_DAYS_MAX })(
    target,
    property,
  );
  IsOptional()(target, property);
  IsArray({ message: Msg.expected(dayList) })(target, property);
  IsInt({ each: true, message: Msg.expected(dayList) })(target, property);
  Min(0, { each: true, message: Msg.expected(dayList) })(target, property);
  Max(REMINDER_DAYS_MAX, { each: true, message: Msg.expected(dayList) })(target, property);
};

export class RemindersDto {
  @ReminderDays() beforeDueDays?: number[];
  @ReminderDays() afterDueDays?: number[];
}

export class SmsDto {
  @BooleanField({ optional: true }) enabled?: boolean;
}

export class DunningDto {
  @IntegerField({
    nullable: true,
    min: 1,
    max: DUNNING_DAYS_MAX,
    description: 'Days after an unpaid due date; null: never',
  })
  afterDaysOverdue?: number | null;
  @EnumField(DUNNING_ACTIONS, { optional: true }) action?: DunningAction;
}

export class PortalDto {
  @BooleanField({ optional: true }) allowCancel?: boolean;
}

const Nested = (type: new () => object) => (target: object, property: string | symbol) => {
  ApiPropertyOptional({ type })(target, property);
  IsOptional()(target, property);
  IsObject({ message: Msg.expected('object') })(target, property);
  ValidateNested()(target, property);
  Type(() => type)(target, property);
};

/** PATCH /billing-settings: each part given replaces what it names; the rest is kept. */
export class UpdateBillingSettingsDto {
  @Nested(RemindersDto) reminders?: RemindersDto;
  @Nested(SmsDto) sms?: SmsDto;
  @Nested(DunningDto) dunning?: DunningDto;
  @Nested(PortalDto) portal?: PortalDto;
  /** 1 to 10 of A-Z 0-9, upper case (lower case is refused, not upper-cased); null: the default. */
  @PredicateField(
    '1 to 10 of A-Z 0-9',
    (v) => typeof v === 'string' && INVOICE_PREFIX.test(v),
    { type: 'string', pattern: INVOICE_PREFIX.source, example: 'ATAR' },
    {
      nullable: true,
      description:
        "The prefix of the invoice numbers given from now on; null: back to the default (the organization's first four letters or digits). Numbers already given keep theirs",
    },
  )
  invoicePrefix?: string | null;
}
