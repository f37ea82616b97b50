import { raw } from '../database/sql';

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
