import { Column, Entity, PrimaryColumn } from 'typeorm';

export const CHECKOUT_SESSION_STATUSES = ['open', 'completed', 'expired', 'cancelled'] as const;
export type CheckoutSessionStatus = (typeof CHECKOUT_SESSION_STATUSES)[number];

@Entity('checkout_sessions')
export class CheckoutSession {
  @PrimaryColumn('uuid') id!: string;
  @Column('uuid', { name: 'payment_request_id' }) paymentRequestId!: string;
  @Column('uuid', { name: 'environment_id' }) environmentId!: string;
  @Column('text') status!: CheckoutSessionStatus;
  @Column('text', { name: 'success_url', nullable: true }) successUrl!: string | null;
  @Column('text', { name: 'cancel_url', nullable: true }) cancelUrl!: string | null;
  @Column('timestamptz', { name: 'expires_at' }) expiresAt!: Date;
  @Column('uuid', { name: 'selected_configuration_id', nullable: true }) selectedConfigurationId!:
    string | null;
  @Column('timestamptz', { name: 'completed_at', nullable: true }) completedAt!: Date | null;
  @Column('timestamptz', { name: 'created_at' }) createdAt!: Date;
  @Column('timestamptz', { name: 'updated_at' }) updatedAt!: Date;
}

/** The columns of a session, named as the entity's properties, for plain SQL under the alias `s`. */
export const SESSION_COLUMNS = `s.id, s.payment_request_id AS "paymentRequestId", s.environment_id AS "environmentId",
  s.status, s.success_url AS "successUrl", s.cancel_url AS "cancelUrl", s.expires_at AS "expiresAt",
  s.selected_configuration_id AS "selectedConfigurationId", s.completed_at AS "completedAt",
  s.created_at AS "createdAt", s.updated_at AS "updatedAt"`;

/** The checkout session record of SPEC.md and CONTRACT.md, as the API and webhook events show it. */
export interface CheckoutSessionJson {
  id: string;
  paymentRequestId: string;
  status: CheckoutSessionStatus;
  successUrl: string | null;
  cancelUrl: string | null;
  expiresAt: string;
  environmentId: string;
  selectedConfigurationId: string | null;
  completedAt: string | null;
  createdAt: string;
  updatedAt: string;
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
