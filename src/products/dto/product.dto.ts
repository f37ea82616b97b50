import { PaginationQuery } from '../../common/pagination';
import { BooleanField, StringField, UuidField } from '../../common/validation/fields';

/** The limits of a product's texts, shared by the API and the dashboard's forms. */
export const PRODUCT_LIMITS = { name: 200, description: 2000 } as const;

export class CreateProductDto {
  @StringField({ minLength: 1, maxLength: PRODUCT_LIMITS.name, example: 'Abonnement Premium' })
  name!: string;

  @StringField({ optional: true, nullable: true, maxLength: PRODUCT_LIMITS.description })
  description?: string | null;
}

export class UpdateProductDto {
  @StringField({ optional: true, minLength: 1, maxLength: PRODUCT_LIMITS.name }) name?: string;

  @StringField({
    optional: true,
    nullable: true,
    maxLength: PRODUCT_LIMITS.description,
    description: 'null removes it',
  })
  description?: string | null;

  @BooleanField({
    optional: true,
    description: 'false archives the product (as PATCH /products/:id/archive)',
  })
  active?: boolean;
}

export class ListProductsQuery extends PaginationQuery {
  @UuidField({ optional: true }) id?: string;
}

export class ProductIdParams {
  @UuidField() id!: string;
}
