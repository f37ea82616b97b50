import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Expose, Transform } from 'class-transformer';
import { StringField, UuidField } from '../common/validation/fields';
import { PaymentRequestJson } from '../payment-requests/payment-request';
import { PAYMENT_METHOD_TYPES, type PaymentMethodType } from '../payments/banks/bank';
import {
  GimtelInstructionsJson,
  PAYMENT_STATUSES,
  PaymentJson,
  PaymentMethodJson,
  type PaymentStatus,
} from '../payments/payment';
import {
  CHECKOUT_SESSION_STATUSES,
  CheckoutPaymentStatusJson,
  PublicCheckoutSessionJson,
  type CheckoutSessionStatus,
} from './checkout-session';

/*
 * The public checkout JSON API (docs/checkout.md "Build your own checkout screen"): the shapes of
 * GET /checkout-session/public/:id and its pay, switch-method, payment-status and
 * simulate-transfer routes, the ones Moosyl's generated clients read (docs/moosyl.md).
 */

/**
 * A payer's phone number as the keyless routes show it (docs/checkout.md "Build your own checkout
 * screen"): its last two digits, `••••••22`. The session's id is the only capability they ask
 * for, and a link gets forwarded; secret-key routes show the number whole.
 */
export function publicPhone(phone: string): string {
  return `${'•'.repeat(Math.max(phone.length - 2, 0))}${phone.slice(-2)}`;
}

const PUBLIC_PHONE = 'The phone number masked to its last two digits (`••••••22`)';

/** The session's payment request as the public view shows it: the phone number masked. */
export class PublicPaymentRequestViewJson extends PaymentRequestJson {
  @ApiProperty({ type: String, nullable: true, description: PUBLIC_PHONE }) declare phoneNumber:
    string | null;
}

/** A payment as the public pay answers it: the phone number masked. */
export class PublicPaymentJson extends PaymentJson {
  @ApiProperty({ description: PUBLIC_PHONE }) declare phoneNumber: string;
}

/** The public view's `data`: the hosted page's fields and the rest of the checkout session record. */
export class PublicCheckoutSessionRecordJson extends PublicCheckoutSessionJson {
  @ApiProperty({ format: 'uuid' }) paymentRequestId!: string;
  @ApiProperty({ type: String, format: 'uri', nullable: true }) successUrl!: string | null;
  @ApiProperty({ type: String, format: 'uri', nullable: true }) cancelUrl!: string | null;
  @ApiProperty({ format: 'uuid' }) environmentId!: string;
  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: 'The payment method chosen' })
  selectedConfigurationId!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) completedAt!: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
  @ApiProperty({ format: 'date-time' }) updatedAt!: string;
}

/** The merchant as a checkout screen shows it. */
export class CheckoutOrganizationJson {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ description: 'The public support phone the merchant set ("" when none)' })
  phoneNumber!: string;
  @ApiProperty({ type: String, nullable: true }) website!: string | null;
}

/** The newest payment of the session's payment request. */
export class LatestPaymentJson {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ type: 'integer' }) amount!: number;
  @ApiProperty({ enum: PAYMENT_STATUSES }) status!: PaymentStatus;
  @ApiProperty({ type: String, nullable: true }) referenceId!: string | null;
  @ApiProperty({ description: PUBLIC_PHONE }) phoneNumber!: string;
  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'Transfer payments: until when the transfer is awaited; null for the other methods',
  })
  claimExpiresAt!: string | null;
}

export class CheckoutEnvironmentJson {
  @ApiProperty({ enum: ['sandbox', 'production'] }) type!: 'sandbox' | 'production';
}

/** GET /checkout-session/public/:id (and switch-method's answer). */
export class PublicSessionViewJson {
  @ApiProperty({ type: PublicCheckoutSessionRecordJson }) data!: PublicCheckoutSessionRecordJson;
  @ApiProperty({ type: CheckoutOrganizationJson }) organization!: CheckoutOrganizationJson;
  @ApiProperty({ type: PublicPaymentRequestViewJson }) paymentRequest!: PublicPaymentRequestViewJson;
  @ApiProperty({ type: [PaymentMethodJson], description: "The environment's payment methods" })
  configurations!: PaymentMethodJson[];
  @ApiPropertyOptional({ type: LatestPaymentJson, description: 'Absent before any payment' })
  latestPayment?: LatestPaymentJson;
  @ApiProperty({ type: CheckoutEnvironmentJson }) environment!: CheckoutEnvironmentJson;
}

/** GET /checkout-session/public/:id/payment-status (and the public simulate-transfer's answer). */
export class PublicPaymentStatusJson {
  @ApiProperty({ type: CheckoutPaymentStatusJson }) data!: CheckoutPaymentStatusJson;
  @ApiProperty({
    enum: [...new Set([...PAYMENT_STATUSES, ...CHECKOUT_SESSION_STATUSES])],
    description:
      "The payment's status (without paymentId the newest payment's); with no payment, pending while the session is open, else the session's status",
  })
  status!: PaymentStatus | CheckoutSessionStatus;
  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: "The payment's claim (transfer payments); null for the other methods",
  })
  claimExpiresAt!: string | null;
  @ApiProperty({ type: String, nullable: true, description: "The session's successUrl once it is completed" })
  successUrl!: string | null;
}

/** POST /checkout-session/public/:id/pay. */
export class PublicPayJson {
  @ApiProperty({ type: PublicPaymentJson }) data!: PublicPaymentJson;
  @ApiProperty({ enum: PAYMENT_STATUSES }) status!: PaymentStatus;
  @ApiProperty({ format: 'uuid' }) paymentId!: string;
  @ApiProperty({ type: String, nullable: true }) referenceId!: string | null;
  @ApiProperty({ enum: PAYMENT_METHOD_TYPES, description: "The payment method's type" })
  provider!: PaymentMethodType;
  @ApiProperty({ type: String, nullable: true, description: "The session's successUrl once it is completed" })
  successUrl!: string | null;
  @ApiProperty({
    type: GimtelInstructionsJson,
    nullable: true,
    description: 'Transfer methods: what the customer must send, where and until when; null for the others',
  })
  instructions!: GimtelInstructionsJson | null;
}

/** `configurationId`, with `paymentMethodId` accepted as its alias (the client libraries' name). */
const ConfigurationIdField = () => (target: object, property: string) => {
  Expose()(target, property);
  Transform(
    ({ obj }: { obj: { configurationId?: unknown; paymentMethodId?: unknown } }) =>
      obj.configurationId ?? obj.paymentMethodId,
  )(target, property);
  UuidField({ description: 'The payment method id (alias: paymentMethodId)' })(target, property);
};

export class PublicPayDto {
  @ConfigurationIdField() configurationId!: string;
  @UuidField({ optional: true, description: 'Alias of configurationId' }) paymentMethodId?: string;
  @StringField({
    optional: true,
    nullable: true,
    maxLength: 32,
    description: "The customer's 8-digit number at the bank app (else the payment request's)",
  })
  phoneNumber?: string | null;
  @StringField({ optional: true, maxLength: 32, description: 'Bankily only: the pass code. Never stored.' })
  passCode?: string;
}

export class SwitchMethodDto {
  @ConfigurationIdField() configurationId!: string;
  @UuidField({ optional: true, description: 'Alias of configurationId' }) paymentMethodId?: string;
}

export class PublicSimulateTransferDto {
  @UuidField({ description: 'A payment of this session' }) paymentId!: string;
}

export class PaymentStatusQuery {
  @StringField({ optional: true, maxLength: 100, description: 'A payment of this session (else the newest)' })
  paymentId?: string;
}
