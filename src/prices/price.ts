import { ApiProperty } from '@nestjs/swagger';
import { raw } from '../database/sql';

export const PRICE_INTERVALS = ['weekly', 'monthly', 'yearly'] as const;
export type PriceInterval = (typeof PRICE_INTERVALS)[number];

/** A price of a product: the amount billed every interval. */
export interface Price {
  id: string;
  organizationId: string;
  productId: string;
  amount: number;
  interval: PriceInterval;
  active: boolean;
  createdAt: Date;
  updatedAt: Date;
}

/** The columns of a price under the alias `pr`, named as Price's properties. */
export const PRICE_COLUMNS = raw(
  `pr.id, pr.organization_id AS "organizationId", pr.product_id AS "productId", pr.amount, pr.interval,
   pr.active, pr.created_at AS "createdAt", pr.updated_at AS "updatedAt"`,
);

/** The price record, as the API shows it. */
export class PriceJson {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ format: 'uuid' }) productId!: string;
  @ApiProperty({ type: 'integer', description: 'Whole MRU, billed every interval' }) amount!: number;
  @ApiProperty({ enum: PRICE_INTERVALS }) interval!: PriceInterval;
  @ApiProperty({ description: '`false` once archived or replaced' }) active!: boolean;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
}

export function toPriceJson(p: Price): PriceJson {
  return {
    id: p.id,
    productId: p.productId,
    amount: p.amount,
    interval: p.interval,
    active: p.active,
    createdAt: p.createdAt.toISOString(),
  };
}
