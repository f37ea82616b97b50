import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { raw } from '../database/sql';
import type { VerificationStatus } from '../organizations/verification';
import type { EnvironmentKind } from '../organizations/tenant';
import { PAYMENT_STATUSES, type PaymentStatus } from '../payments/payment';

export const CHECKOUT_SESSION_STATUSES = ['open', 'completed', 'expired', 'cancelled'] as const;
export type CheckoutSessionStatus = (typeof CHECKOUT_SESSION_STATUSES)[number];

/** A checkout session as the code handles it (a `checkout_sessions` row, camelCased). */
export interface CheckoutSession {
  id: string;
  paymentRequestId: string;
  environmentId: string;
  status: CheckoutSessionStatus;
  successUrl: string | null;
  cancelUrl: string | null;
  expiresAt: Date;
  selectedConfigurationId: string | null;
  completedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

/** The columns of a session under the alias `s`, named as CheckoutSession's properties. */
export const SESSION_COLUMNS =
  raw(`s.id, s.payment_request_id AS "paymentRequestId", s.environment_id AS "environmentId",
  s.status, s.success_url AS "successUrl", s.cancel_url AS "cancelUrl", s.expires_at AS "expiresAt",
  s.selected_configuration_id AS "selectedConfigurationId", s.completed_at AS "completedAt",
  s.created_at AS "createdAt", s.updated_at AS "updatedAt"`);

/** A bank app enabled for the environment, as the hosted page offers it. */
export class PaymentMethodChoice {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() type!: string;
  @ApiProperty() name!: string;
  @ApiProperty() requiresPassCode!: boolean;
}

/** The checkout session record, as the API and webhook events show it. */
export class CheckoutSessionJson {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ format: 'uuid', description: 'The payment request it pays' }) paymentRequestId!: string;
  @ApiProperty({ enum: CHECKOUT_SESSION_STATUSES }) status!: CheckoutSessionStatus;
  @ApiProperty({ type: String, format: 'uri', nullable: true }) successUrl!: string | null;
  @ApiProperty({ type: String, format: 'uri', nullable: true }) cancelUrl!: string | null;
  @ApiProperty({ format: 'date-time' }) expiresAt!: string;
  @ApiProperty({ format: 'uuid' }) environmentId!: string;
  @ApiProperty({
    type: String,
    format: 'uuid',
    nullable: true,
    description: 'The payment method chosen on the page',
  })
  selectedConfigurationId!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) completedAt!: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
  @ApiProperty({ format: 'date-time' }) updatedAt!: string;
}

/** What the hosted page polls (the public view's `data` adds the rest of the session record): never keys. */
export class PublicCheckoutSessionJson {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ enum: CHECKOUT_SESSION_STATUSES }) status!: CheckoutSessionStatus;
  @ApiProperty({ type: 'integer', description: 'Whole MRU' }) amount!: number;
  @ApiProperty({ enum: ['MRU'] }) currency!: 'MRU';
  @ApiProperty() transactionId!: string;
  @ApiProperty() merchantName!: string;
  @ApiProperty({ description: 'true in Production' }) livemode!: boolean;
  @ApiProperty({ format: 'date-time' }) expiresAt!: string;
  @ApiProperty({ type: [PaymentMethodChoice], description: 'The bank apps the customer can choose from' })
  methods!: PaymentMethodChoice[];
}

export class CheckoutPaymentStatusJson {
  @ApiProperty({ enum: CHECKOUT_SESSION_STATUSES }) status!: CheckoutSessionStatus;
  @ApiProperty({ enum: PAYMENT_STATUSES, nullable: true, description: 'The latest payment, if any' })
  paymentStatus!: PaymentStatus | null;
  @ApiPropertyOptional({
    format: 'uri',
    description:
      'Where the page sends the customer now that the session is over, when the merchant gave a URL',
  })
  redirectUrl?: string;
}

export function toCheckoutSessionJson(s: CheckoutSession): CheckoutSessionJson {
  return {
    id: s.id,
    paymentRequestId: s.paymentRequestId,
    status: s.status,
    successUrl: s.successUrl,
    cancelUrl: s.cancelUrl,
    expiresAt: s.expiresAt.toISOString(),
    environmentId: s.environmentId,
    selectedConfigurationId: s.selectedConfigurationId,
    completedAt: s.completedAt?.toISOString() ?? null,
    createdAt: s.createdAt.toISOString(),
    updatedAt: s.updatedAt.toISOString(),
  };
}

/** What the hosted page needs to know about a session in order to pay it. */
export interface PayableSession {
  id: string;
  paymentRequestId: string;
  environmentId: string;
  environment: EnvironmentKind;
  organizationId: string;
  /** The merchant's: a Production page takes money only once it is verified. */
  verification: VerificationStatus;
  transactionId: string;
  amount: number;
}

/** An ISO 8601 UTC string with milliseconds, as JavaScript's toISOString() writes it. */
const iso = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * `toCheckoutSessionJson` in SQL, for events recorded by the statement that changes the session.
 * A test compares the two, so they cannot drift apart.
 */
export const sessionJsonSql = (s: string) =>
  raw(`jsonb_build_object(
  'id', ${s}.id, 'paymentRequestId', ${s}.payment_request_id, 'status', ${s}.status,
  'successUrl', ${s}.success_url, 'cancelUrl', ${s}.cancel_url, 'expiresAt', ${iso(`${s}.expires_at`)},
  'environmentId', ${s}.environment_id, 'selectedConfigurationId', ${s}.selected_configuration_id,
  'completedAt', ${iso(`${s}.completed_at`)}, 'createdAt', ${iso(`${s}.created_at`)}, 'updatedAt', ${iso(`${s}.updated_at`)})`);
