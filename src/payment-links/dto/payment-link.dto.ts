import type { Language } from '../../common/i18n/languages';
import { PaginationQuery } from '../../common/pagination';
import {
  BooleanField,
  DateTimeField,
  EnumField,
  IntegerField,
  PredicateField,
  StringField,
  UuidField,
} from '../../common/validation/fields';
import { PAYMENT_LINK_LANGUAGES } from '../payment-link';

/** The limits of a link's texts, shared by the API and the dashboard's forms. */
export const LINK_LIMITS = { name: 120, description: 500, successMessage: 280 } as const;

export class CreatePaymentLinkDto {
  @StringField({ minLength: 1, maxLength: LINK_LIMITS.name, example: 'Thiéboudienne pour 4' })
  name!: string;

  @StringField({ optional: true, nullable: true, maxLength: LINK_LIMITS.description })
  description?: string | null;

  @IntegerField({
    optional: true,
    description: 'Whole MRU, 1 to 100000000; absent: the customer types the amount',
    example: 1500,
  })
  amount?: number;

  @IntegerField({
    optional: true,
    min: 1,
    max: 100000000,
    description: 'Without `amount`: the least the customer may pay (default 1)',
  })
  minAmount?: number;

  @IntegerField({
    optional: true,
    min: 1,
    max: 100000000,
    description: 'Without `amount`: the most the customer may pay (default 1000000)',
  })
  maxAmount?: number;

  @IntegerField({ optional: true, min: 1, description: 'At most this many payments (default: no limit)' })
  maxPayments?: number;

  @DateTimeField({ optional: true, description: 'After this, the page answers 410 (a future date-time)' })
  expiresAt?: string;

  @StringField({
    optional: true,
    nullable: true,
    maxLength: LINK_LIMITS.successMessage,
    description: 'Shown to the customer after paying',
  })
  successMessage?: string | null;

  @EnumField(PAYMENT_LINK_LANGUAGES, { optional: true, description: 'The share text language (default fr)' })
  language?: Language;
}

export class UpdatePaymentLinkDto {
  @StringField({ optional: true, minLength: 1, maxLength: LINK_LIMITS.name }) name?: string;

  @StringField({
    optional: true,
    nullable: true,
    maxLength: LINK_LIMITS.description,
    description: 'null removes it',
  })
  description?: string | null;

  @BooleanField({ optional: true, description: 'false deactivates the link (its page answers 410)' })
  active?: boolean;

  @IntegerField({ optional: true, nullable: true, min: 1, description: 'null: no limit' })
  maxPayments?: number | null;

  @DateTimeField({ optional: true, nullable: true, description: 'A future date-time; null: never expires' })
  expiresAt?: string | null;

  @StringField({
    optional: true,
    nullable: true,
    maxLength: LINK_LIMITS.successMessage,
    description: 'null removes it',
  })
  successMessage?: string | null;
}

export class ListPaymentLinksQuery extends PaginationQuery {
  @PredicateField(
    'true or false',
    (v) => v === 'true' || v === 'false',
    { enum: ['true', 'false'] },
    {
      optional: true,
      description: 'Only active (true) or inactive (false) links',
    },
  )
  active?: 'true' | 'false';
}

export class PaymentLinkIdParams {
  @UuidField() id!: string;
}
