import { Injectable } from '@nestjs/common';
import type { Page } from '../common/pagination';
import { Db } from '../database/db';
import { cursorColumn, KeysetPage, keysetClauses, keysetPage, KeysetQuery } from '../database/keyset';
import { pageRows } from '../database/paging';
import { and, join, Sql, sql } from '../database/sql';
import { Product, PRODUCT_COLUMNS } from './product';

/** Products: environment-scoped, and only active ones are ever found (archived is gone for good). */
@Injectable()
export class ProductsRepository {
  constructor(private readonly db: Db) {}

  async insert(p: Product): Promise<void> {
    await this.db.exec(sql`
      INSERT INTO products (id, organization_id, environment_id, name, description, active, created_at, updated_at)
      VALUES (${p.id}, ${p.organizationId}, ${p.environmentId}, ${p.name}, ${p.description}, true, ${p.createdAt}, ${p.updatedAt})`);
  }

  active(environmentId: string, id: string): Promise<Product | undefined> {
    return this.db.one<Product>(sql`
      SELECT ${PRODUCT_COLUMNS} FROM products p WHERE p.id = ${id} AND p.environment_id = ${environmentId} AND p.active`);
  }

  /** Changes an active product (`active: false` archives it). */
  update(
    environmentId: string,
    id: string,
    changes: { name?: string; description?: string | null; active?: false },
  ): Promise<Product | undefined> {
    const set: Sql[] = [sql`updated_at = now()`];
    if (changes.name !== undefined) set.push(sql`name = ${changes.name}`);
    if (changes.description !== undefined) set.push(sql`description = ${changes.description}`);
    if (changes.active === false) set.push(sql`active = false`);
    return this.db.one<Product>(sql`
      UPDATE products p SET ${join(set)}
       WHERE p.id = ${id} AND p.environment_id = ${environmentId} AND p.active
      RETURNING ${PRODUCT_COLUMNS}`);
  }

  /** Active products of the environment, newest first. */
  list(environmentId: string, filter: { id?: string }, page: Page) {
    const where = [sql`p.environment_id = ${environmentId}`, sql`p.active`];
    if (filter.id !== undefined) where.push(sql`p.id = ${filter.id}`);
    return pageRows<Product>(
      this.db,
      {
        select: PRODUCT_COLUMNS,
        from: sql`FROM products p WHERE ${and(where)}`,
        orderBy: sql`p.created_at DESC, p.id DESC`,
      },
      page,
    );
  }

  /** A keyset page of the environment's active products, newest first (the dashboard's list, on products_list_idx). */
  async search(environmentId: string, page: KeysetQuery): Promise<KeysetPage<Product>> {
    const k = keysetClauses('p', page);
    const rows = await this.db.many<Product & { cursor: string }>(sql`
      SELECT ${PRODUCT_COLUMNS}, ${cursorColumn('p')} FROM products p
       WHERE ${and([sql`p.environment_id = ${environmentId}`, sql`p.active`, ...k.where])}
       ORDER BY ${k.orderBy} LIMIT ${k.limit}`);
    return keysetPage(rows, page);
  }
}
