import { PaginationQuery } from '../../common/pagination';
import {
  BooleanField,
  DateTimeField,
  EnumField,
  ExternalIdField,
  IntegerField,
  PhoneField,
  PredicateField,
  StringField,
  UuidField,
} from '../../common/validation/fields';
import { isTrialPeriod, MAX_TRIAL_DAYS, TRIAL_PERIODS, TrialPeriod } from '../periods';
import { SUBSCRIPTION_STATUSES, SubscriptionStatus } from '../subscription';

/** The options every way of creating a subscription takes (docs/billing.md). */
export class SubscriptionOptionsDto {
  @PredicateField(
    'boolean or "trialing"',
    (v) => typeof v === 'boolean' || v === 'trialing',
    { oneOf: [{ type: 'boolean' }, { type: 'string', enum: ['trialing'] }] },
    {
      optional: true,
      description: 'Start with a trial ("trialing" means true); needs trialPeriod or trialEnd',
    },
  )
  trial?: boolean | 'trialing';

  @PredicateField(
    `one of ${TRIAL_PERIODS.join(', ')}, or an integer number of days 1-${MAX_TRIAL_DAYS}`,
    isTrialPeriod,
    {
      oneOf: [
        { type: 'string', enum: TRIAL_PERIODS },
        { type: 'integer', minimum: 1, maximum: MAX_TRIAL_DAYS },
      ],
    },
    { optional: true, description: 'Length of the trial, from startedAt' },
  )
  trialPeriod?: TrialPeriod;

  @DateTimeField({ optional: true, description: 'When the trial ends (wins over trialPeriod)' })
  trialEnd?: string;

  @DateTimeField({
    optional: true,
    description: 'Start of the first period (default now); in the past, every started period is invoiced',
  })
  startedAt?: string;

  @DateTimeField({
    optional: true,
    description: 'No period starts from then on; the subscription then expires',
  })
  expiresAt?: string;

  @BooleanField({
    optional: true,
    description:
      'Starts `incomplete` with its first invoice due at once; paid: `active`; unpaid 23 hours later: `incomplete_expired` and the invoice void. Not with a trial',
  })
  requireFirstPayment?: boolean;

  @IntegerField({
    optional: true,
    min: 1,
    max: 10000,
    description: 'Units of the price billed each period (default 1): each invoice is amount × quantity',
  })
  quantity?: number;

  @StringField({
    optional: true,
    minLength: 3,
    maxLength: 40,
    description: 'A coupon of the organization, by id or code, applied from the first invoice',
  })
  coupon?: string;

  @IntegerField({
    optional: true,
    min: 0,
    max: 10000,
    description:
      'Acting for a connected account (`Khoums-Account`) only: basis points of each invoice moved to the platform when it is paid',
  })
  applicationFeeBps?: number;
}

export class CreateSubscriptionDto extends SubscriptionOptionsDto {
  @UuidField({ description: 'A customer of the organization' }) customerId!: string;
  @UuidField({ description: 'An active price of an active product' }) priceId!: string;
}

export class CreateSubscriptionByExternalUserDto extends SubscriptionOptionsDto {
  @ExternalIdField({
    description: "The merchant's user ID; the customer is created if needed",
    example: 'user_42',
  })
  externalUserId!: string;

  @UuidField({ description: 'An active price of an active product' }) priceId!: string;

  @PhoneField({ optional: true, description: "The customer's 8-digit number; replaces the stored one" })
  phone?: string;
}

export class CancelSubscriptionDto {
  @BooleanField({
    optional: true,
    description: 'true: pending_cancellation until the current period ends; default: cancelled now',
  })
  atPeriodEnd?: boolean;
}

export class ListSubscriptionsQuery extends PaginationQuery {
  @EnumField(SUBSCRIPTION_STATUSES, { optional: true }) status?: SubscriptionStatus;
}

export class SubscriptionIdParams {
  @UuidField() id!: string;
}

export class ExternalUserIdParams {
  @ExternalIdField() externalUserId!: string;
}

export const CHANGE_AT = ['now', 'period_end'] as const;

/** `POST /subscriptions/:id/change` (docs/billing.md "Changing plan"): at least one of priceId, quantity. */
export class ChangeSubscriptionDto {
  @UuidField({
    optional: true,
    description: 'An active price of an active product of the organization (another product’s is allowed)',
  })
  priceId?: string;

  @IntegerField({ optional: true, min: 1, max: 10000, description: 'Units billed each period' })
  quantity?: number;

  @BooleanField({
    optional: true,
    description:
      'Default true: with at "now", the difference over the rest of the period is invoiced (positive) or credited to the customer (negative)',
  })
  prorate?: boolean;

  @EnumField(CHANGE_AT, {
    optional: true,
    description: 'Default "now"; "period_end": the next period bills the change (pendingChange until then)',
  })
  at?: (typeof CHANGE_AT)[number];
}

export class ApplyDiscountDto {
  @StringField({ minLength: 3, maxLength: 40, description: 'A coupon of the organization, by id or code' })
  coupon!: string;
}
