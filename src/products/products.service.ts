import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { Tenant } from '../auth/tenant';
import type { EnvironmentScope } from '../organizations/tenant';
import { envelope, ListEnvelope, pageOf } from '../common/pagination';
import type { KeysetPage, KeysetQuery } from '../database/keyset';
import { PricesService } from '../prices/prices.service';
import type { CreateProductDto, ListProductsQuery, UpdateProductDto } from './dto/product.dto';
import { Product, ProductJson, ProductWithPricesJson, toProductJson } from './product';
import { ProductError, productError } from './products.errors';
import { ProductsRepository } from './products.repository';

@Injectable()
export class ProductsService {
  constructor(
    private readonly repo: ProductsRepository,
    private readonly prices: PricesService,
  ) {}

  /** In the key's environment. */
  async create(tenant: EnvironmentScope, dto: CreateProductDto): Promise<ProductJson> {
    const now = new Date();
    const product: Product = {
      id: randomUUID(),
      organizationId: tenant.organizationId,
      environmentId: tenant.environmentId,
      name: dto.name,
      description: dto.description ?? null,
      active: true,
      createdAt: now,
      updatedAt: now,
    };
    await this.repo.insert(product);
    return toProductJson(product);
  }

  /** An active product of the environment, with its active prices. */
  async get(tenant: Tenant, id: string): Promise<ProductWithPricesJson> {
    const product = await this.repo.active(tenant.environmentId, id);
    if (!product) throw productError(ProductError.NotFound);
    return (await this.withPrices([product]))[0];
  }

  /** An active product of the environment, or undefined. */
  findActive(environmentId: string, id: string): Promise<Product | undefined> {
    return this.repo.active(environmentId, id);
  }

  /** A keyset page of the environment's active products, newest first. */
  search(environmentId: string, page: KeysetQuery): Promise<KeysetPage<Product>> {
    return this.repo.search(environmentId, page);
  }

  /** Active products of the environment, newest first, each with its active prices: three statements for any page. */
  async list(tenant: Tenant, q: ListProductsQuery): Promise<ListEnvelope<ProductWithPricesJson>> {
    const page = pageOf(q);
    const { rows, total } = await this.repo.list(tenant.environmentId, q, page);
    return envelope(await this.withPrices(rows), total, page);
  }

  /** An archived product cannot be updated or restored: 404 like any product that is gone. */
  async update(tenant: EnvironmentScope, id: string, dto: UpdateProductDto): Promise<ProductJson> {
    const updated = await this.repo.update(tenant.environmentId, id, {
      name: dto.name,
      description: dto.description,
      active: dto.active === false ? false : undefined,
    });
    if (!updated) throw productError(ProductError.NotFound);
    return toProductJson(updated);
  }

  /** Hidden from lists and look-ups for good; its prices and existing subscriptions are unchanged. */
  archive(tenant: EnvironmentScope, id: string): Promise<ProductJson> {
    return this.update(tenant, id, { active: false });
  }

  private async withPrices(products: Product[]): Promise<ProductWithPricesJson[]> {
    const prices = await this.prices.activeOf(products.map((p) => p.id));
    return products.map((p) => ({ ...toProductJson(p), prices: prices.get(p.id)! }));
  }
}
