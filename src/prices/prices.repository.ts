import { Injectable } from '@nestjs/common';
import { Db } from '../database/db';
import { Sql, sql } from '../database/sql';
import { Price, PRICE_COLUMNS, PriceInterval } from './price';
import { PriceProducts } from './price-products';

/**
 * Prices: readable by any secret key of their organization, created and changed only with a key of
 * their product's environment (a Sandbox key never changes a Production price). Look-ups see
 * active prices only.
 */
@Injectable()
export class PricesRepository {
  constructor(
    private readonly db: Db,
    private readonly products: PriceProducts,
  ) {}

  /** The price `pr` is of a product of the environment: the condition of every change. */
  private ofEnvironment(environmentId: string): Sql {
    return sql`EXISTS (SELECT 1 FROM ${this.products.productRows('p')} WHERE p.id = pr.product_id AND p.environment_id = ${environmentId})`;
  }

  /** Inserts the price when its product is an active product of the environment; null otherwise. */
  async insert(price: Price, environmentId: string): Promise<Price | null> {
    const row = await this.db.one<Price>(sql`
      INSERT INTO prices AS pr (id, organization_id, product_id, amount, interval, created_at, updated_at)
      SELECT ${price.id}, p.organization_id, p.id, ${price.amount}, ${price.interval}, ${price.createdAt}, ${price.updatedAt}
        FROM ${this.products.productRows('p')}
       WHERE p.id = ${price.productId} AND p.environment_id = ${environmentId} AND p.active
      RETURNING ${PRICE_COLUMNS}`);
    return row ?? null;
  }

  /** An active price of the organization. */
  active(organizationId: string, id: string): Promise<Price | undefined> {
    return this.db.one<Price>(sql`
      SELECT ${PRICE_COLUMNS} FROM prices pr
       WHERE pr.id = ${id} AND pr.organization_id = ${organizationId} AND pr.active`);
  }

  /** A price of the organization, active or not, with its product's name and whether both are active. */
  withProduct(
    organizationId: string,
    id: string,
  ): Promise<(Price & { productName: string; subscribable: boolean }) | undefined> {
    return this.db.one(sql`
      SELECT ${PRICE_COLUMNS}, p.name AS "productName", pr.active AND p.active AS subscribable
        FROM prices pr JOIN ${this.products.productRows('p')} ON p.id = pr.product_id
       WHERE pr.id = ${id} AND pr.organization_id = ${organizationId}`);
  }

  /** An active price of the organization whose product is active too: what new subscriptions may use. */
  subscribable(organizationId: string, id: string): Promise<(Price & { productName: string }) | undefined> {
    return this.db.one<Price & { productName: string }>(sql`
      SELECT ${PRICE_COLUMNS}, p.name AS "productName" FROM prices pr JOIN ${this.products.productRows('p')} ON p.id = pr.product_id
       WHERE pr.id = ${id} AND pr.organization_id = ${organizationId} AND pr.active AND p.active`);
  }

  /** Changes an active price in place; existing subscriptions bill the new amount from their next invoice. */
  update(
    environmentId: string,
    id: string,
    changes: { amount?: number; interval?: PriceInterval },
  ): Promise<Price | undefined> {
    return this.db.one<Price>(sql`
      UPDATE prices pr
         SET amount = COALESCE(${changes.amount ?? null}::int, pr.amount),
             interval = COALESCE(${changes.interval ?? null}::text, pr.interval),
             updated_at = now()
       WHERE pr.id = ${id} AND ${this.ofEnvironment(environmentId)} AND pr.active
      RETURNING ${PRICE_COLUMNS}`);
  }

  /**
   * Replaces an active price, one statement: the old one is deactivated (existing subscriptions
   * keep it and its amount) and the new one, with the changes, is returned. Of concurrent
   * replacements of one price only the first finds it active.
   */
  replace(
    environmentId: string,
    id: string,
    replacement: { id: string; amount?: number; interval?: PriceInterval; createdAt: Date },
  ): Promise<Price | undefined> {
    return this.db.one<Price>(sql`
      WITH old AS (
        UPDATE prices pr SET active = false, replaced_by = ${replacement.id}, updated_at = ${replacement.createdAt}
         WHERE pr.id = ${id} AND ${this.ofEnvironment(environmentId)} AND pr.active
        RETURNING *
      )
      INSERT INTO prices AS pr (id, organization_id, product_id, amount, interval, created_at, updated_at)
      SELECT ${replacement.id}, old.organization_id, old.product_id,
             COALESCE(${replacement.amount ?? null}::int, old.amount), COALESCE(${replacement.interval ?? null}::text, old.interval),
             ${replacement.createdAt}, ${replacement.createdAt}
        FROM old
      RETURNING ${PRICE_COLUMNS}`);
  }

  archive(environmentId: string, id: string): Promise<Price | undefined> {
    return this.db.one<Price>(sql`
      UPDATE prices pr SET active = false, updated_at = now()
       WHERE pr.id = ${id} AND ${this.ofEnvironment(environmentId)} AND pr.active
      RETURNING ${PRICE_COLUMNS}`);
  }

  /** The active prices of these products, oldest first: one statement for a whole page of products. */
  activeOf(productIds: string[]): Promise<Price[]> {
    if (productIds.length === 0) return Promise.resolve([]);
    return this.db.many<Price>(sql`
      SELECT ${PRICE_COLUMNS} FROM prices pr
       WHERE pr.product_id = ANY(${productIds}::uuid[]) AND pr.active
       ORDER BY pr.product_id, pr.created_at, pr.id`);
  }

  /** An active price of an active product of the environment (the dashboard reaches prices through their product). */
  activeInEnvironment(environmentId: string, id: string): Promise<Price | undefined> {
    return this.db.one<Price>(sql`
      SELECT ${PRICE_COLUMNS} FROM prices pr JOIN ${this.products.productRows('p')} ON p.id = pr.product_id
       WHERE pr.id = ${id} AND pr.active AND p.environment_id = ${environmentId} AND p.active`);
  }
}
