import { Transform } from 'class-transformer';
import {
  ExternalIdField,
  IntegerField,
  PhoneField,
  UrlField,
  UuidField,
} from '../../common/validation/fields';

/**
 * A redirect URL as it is stored: percent-encoded (an Arabic path, query or fragment) with the host
 * in ASCII, so that it can always be sent as a Location header; an encoded URL stays as it is. What
 * does not parse is left for the URL rule to refuse (422); the length limit holds for the result.
 */
export function normalizedUrl(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  try {
    return new URL(value).href;
  } catch {
    return value;
  }
}

export class CreateCheckoutSessionDto {
  @UuidField({
    optional: true,
    description: 'An existing payment request; the other payment fields are then ignored',
  })
  paymentRequestId?: string;

  @ExternalIdField({
    optional: true,
    description: "The merchant's own order ID; an existing one reuses its payment request",
    example: 'order_1042',
  })
  transactionId?: string;

  @IntegerField({
    optional: true,
    description: 'Whole MRU; required when transactionId is new',
    example: 1500,
  })
  amount?: number;

  @PhoneField({ optional: true, description: "The customer's 8-digit number, prefilled on the page" })
  phoneNumber?: string;

  @UrlField({
    optional: true,
    description: 'Where the customer is sent after paying (session_id and transactionId appended)',
  })
  @Transform(({ value }) => normalizedUrl(value))
  successUrl?: string;

  @UrlField({ optional: true, description: 'Where the customer is sent after cancelling' })
  @Transform(({ value }) => normalizedUrl(value))
  cancelUrl?: string;

  @IntegerField({
    optional: true,
    min: 5,
    max: 1440,
    description: 'Minutes until the session expires (default 30)',
    example: 30,
  })
  expiresInMinutes?: number;

  @IntegerField({
    optional: true,
    min: 0,
    max: 100000000,
    description:
      "Acting for a connected account (`Khoums-Account`) only: whole MRU, 0 to the amount, moved to the platform when paid; set on the session's payment request",
  })
  applicationFee?: number;
}

export class CheckoutSessionIdParams {
  @UuidField() id!: string;
}
