import { PaginationQuery } from '../../common/pagination';
import { BooleanField, StringField, UuidField } from '../../common/validation/fields';

export class CreateProductDto {
  @StringField({ minLength: 1, maxLength: 200, example: 'Abonnement Premium' }) name!: string;

  @StringField({ optional: true, nullable: true, maxLength: 2000 }) description?: string | null;
}

export class UpdateProductDto {
  @StringField({ optional: true, minLength: 1, maxLength: 200 }) name?: string;

  @StringField({ optional: true, nullable: true, maxLength: 2000, description: 'null removes it' })
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
