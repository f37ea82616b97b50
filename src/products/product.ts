import { ApiProperty } from '@nestjs/swagger';
import { raw } from '../database/sql';
import { PriceJson } from '../prices/price';

/** A product: environment-scoped, archived for good once `active` is false. */
export interface Product {
  id: string;
  organizationId: string;
  environmentId: string;
  name: string;
  description: string | null;
  active: boolean;
  createdAt: Date;
  updatedAt: Date;
}

/** The columns of a product under the alias `p`, named as Product's properties. */
export const PRODUCT_COLUMNS = raw(
  `p.id, p.organization_id AS "organizationId", p.environment_id AS "environmentId", p.name, p.description,
   p.active, p.created_at AS "createdAt", p.updated_at AS "updatedAt"`,
);

/** The product record, as creating, updating and archiving return it. */
export class ProductJson {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ type: String, nullable: true }) description!: string | null;
  @ApiProperty({ description: '`false` once archived' }) active!: boolean;
  @ApiProperty({ format: 'uuid' }) organizationId!: string;
  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: 'Environment it was created in' })
  environmentId!: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
}

/** A product as the list and the look-up show it: with its active prices. */
export class ProductWithPricesJson extends ProductJson {
  @ApiProperty({ type: [PriceJson], description: 'Active prices only' }) prices!: PriceJson[];
}

export function toProductJson(p: Product): ProductJson {
  return {
    id: p.id,
    name: p.name,
    description: p.description,
    active: p.active,
    organizationId: p.organizationId,
    environmentId: p.environmentId,
    createdAt: p.createdAt.toISOString(),
  };
}
