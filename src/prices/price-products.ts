import { Injectable } from '@nestjs/common';
import type { Sql } from '../database/sql';

/**
 * What prices read of products, which sit above them: a price is created for, and used with, an
 * active product only. The products module registers it when it starts (docs/architecture.md,
 * "When a lower module must let a higher one take part"), so prices' statements check the product
 * in the same statement without prices importing products.
 */
export interface ProductRowsOfPrices {
  /** SQL after FROM or JOIN: the products, as `alias` (id, organization_id, environment_id, active). */
  productRows(alias: string): Sql;
}

/** Where the products module registers `ProductRowsOfPrices`. */
@Injectable()
export class PriceProducts {
  private registered?: ProductRowsOfPrices;

  register(products: ProductRowsOfPrices): void {
    if (this.registered) throw new Error('the products of prices are registered twice');
    this.registered = products;
  }

  productRows(alias: string): Sql {
    if (!this.registered)
      throw new Error('no products registered for prices: the products module registers them when it starts');
    return this.registered.productRows(alias);
  }
}
