import {
  ExternalIdField,
  IntegerField,
  PhoneField,
  UrlField,
  UuidField,
} from '../../common/validation/fields';

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
  successUrl?: string;

  @UrlField({ optional: true, description: 'Where the customer is sent after cancelling' })
  cancelUrl?: string;

  @IntegerField({
    optional: true,
    min: 5,
    max: 1440,
    description: 'Minutes until the session expires (default 30)',
    example: 30,
  })
  expiresInMinutes?: number;
}

export class CheckoutSessionIdParams {
  @UuidField() id!: string;
}
