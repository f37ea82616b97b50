import { ApiProperty } from '@nestjs/swagger';
import { raw } from '../database/sql';

export const COUPON_DURATIONS = ['once', 'repeating', 'forever'] as const;
export type CouponDuration = (typeof COUPON_DURATIONS)[number];

/** A coupon of an organization (docs/billing.md "Coupons"). */
export interface Coupon {
  id: string;
  organizationId: string;
  code: string;
  percentOff: number | null;
  amountOff: number | null;
  duration: CouponDuration;
  durationInPeriods: number | null;
  maxRedemptions: number | null;
  timesRedeemed: number;
  expiresAt: Date | null;
  archived: boolean;
  createdAt: Date;
}

/** The columns of a coupon under the alias `k`, named as Coupon's properties. */
export const COUPON_COLUMNS = raw(
  `k.id, k.organization_id AS "organizationId", k.code, k.percent_off AS "percentOff", k.amount_off AS "amountOff",
   k.duration, k.duration_in_periods AS "durationInPeriods", k.max_redemptions AS "maxRedemptions",
   k.times_redeemed AS "timesRedeemed", k.expires_at AS "expiresAt", k.archived, k.created_at AS "createdAt"`,
);

/** After how many discounted periods a coupon's discount ends (null: never). */
export function periodsOf(c: Pick<Coupon, 'duration' | 'durationInPeriods'>): number | null {
  return c.duration === 'once' ? 1 : c.duration === 'repeating' ? c.durationInPeriods : null;
}

/**
 * What a coupon takes off a subtotal (whole MRU): a percentage rounded half up, or a fixed amount,
 * never more than the subtotal.
 */
export function discountOf(
  c: { percentOff: number | null; amountOff: number | null },
  subtotal: number,
): number {
  const off = c.percentOff !== null ? Math.floor((subtotal * c.percentOff * 2 + 100) / 200) : c.amountOff!;
  return Math.min(off, subtotal);
}

export class CouponJson {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ example: 'RAMADAN25', description: 'Unique in the organization: 3–40 of A-Z 0-9 - _' })
  code!: string;
  @ApiProperty({ type: 'integer', nullable: true, minimum: 1, maximum: 100 }) percentOff!: number | null;
  @ApiProperty({ type: 'integer', nullable: true, description: 'Whole MRU off each discounted invoice' })
  amountOff!: number | null;
  @ApiProperty({ enum: COUPON_DURATIONS }) duration!: CouponDuration;
  @ApiProperty({ type: 'integer', nullable: true, description: 'With repeating: how many periods' })
  durationInPeriods!: number | null;
  @ApiProperty({ type: 'integer', nullable: true }) maxRedemptions!: number | null;
  @ApiProperty({ type: 'integer' }) timesRedeemed!: number;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) expiresAt!: string | null;
  @ApiProperty() archived!: boolean;
  @ApiProperty({ format: 'uuid' }) organizationId!: string;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
}

export function toCouponJson(c: Coupon): CouponJson {
  return {
    id: c.id,
    code: c.code,
    percentOff: c.percentOff,
    amountOff: c.amountOff,
    duration: c.duration,
    durationInPeriods: c.durationInPeriods,
    maxRedemptions: c.maxRedemptions,
    timesRedeemed: c.timesRedeemed,
    expiresAt: c.expiresAt?.toISOString() ?? null,
    archived: c.archived,
    organizationId: c.organizationId,
    createdAt: c.createdAt.toISOString(),
  };
}
