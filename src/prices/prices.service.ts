import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { Tenant } from '../auth/tenant';
import type { EnvironmentScope } from '../organizations/tenant';
import { assertAmount } from '../common/validation/rules';
import type { CreatePriceDto, UpdatePriceDto } from './dto/price.dto';
import { Price, PriceJson, toPriceJson } from './price';
import { PriceError, priceError } from './prices.errors';
import { PricesRepository } from './prices.repository';

const assertPriceAmount = (amount: number) =>
  assertAmount(amount, () => priceError(PriceError.AmountNotPositive));

@Injectable()
export class PricesService {
  constructor(private readonly repo: PricesRepository) {}

  /** A price for an active product of the key's environment (404 `Product not found` otherwise). */
  async create(tenant: EnvironmentScope, dto: CreatePriceDto): Promise<PriceJson> {
    assertPriceAmount(dto.amount);
    const now = new Date();
    const created = await this.repo.insert(
      {
        id: randomUUID(),
        organizationId: tenant.organizationId,
        productId: dto.productId,
        amount: dto.amount,
        interval: dto.interval,
        active: true,
        createdAt: now,
        updatedAt: now,
      },
      tenant.environmentId,
    );
    if (!created) throw priceError(PriceError.ProductNotFound);
    return toPriceJson(created);
  }

  async get(tenant: Tenant, id: string): Promise<PriceJson> {
    return toPriceJson(await this.priceOrNotFound(this.repo.active(tenant.organizationId, id)));
  }

  /**
   * Only with a key of the price's environment (404 otherwise; reading is organization-wide).
   * In place, existing subscriptions bill the new amount (and interval) from their next invoice;
   * with `replaceExisting`, this price is deactivated and a new one returned, and existing
   * subscriptions stay on this one.
   */
  async update(tenant: EnvironmentScope, id: string, dto: UpdatePriceDto): Promise<PriceJson> {
    if (dto.amount !== undefined) assertPriceAmount(dto.amount);
    const changes = { amount: dto.amount, interval: dto.interval };
    const price = dto.replaceExisting
      ? this.repo.replace(tenant.environmentId, id, { id: randomUUID(), ...changes, createdAt: new Date() })
      : this.repo.update(tenant.environmentId, id, changes);
    return toPriceJson(await this.priceOrNotFound(price));
  }

  /** Hidden from look-ups and the product's price list; subscriptions already on it keep billing. */
  async archive(tenant: EnvironmentScope, id: string): Promise<PriceJson> {
    return toPriceJson(await this.priceOrNotFound(this.repo.archive(tenant.environmentId, id)));
  }

  /** The price a new subscription may use: active, of an active product of the organization. */
  /** An active price of an active product, with the product's name (what an invoice line says). */
  async subscribable(
    tenant: Pick<Tenant, 'organizationId'>,
    id: string,
  ): Promise<Price & { productName: string }> {
    const p = await this.repo.subscribable(tenant.organizationId, id);
    if (!p) throw priceError(PriceError.NotFound);
    return p;
  }

  /** A price of the organization (404 when none), active or not, with its product's name and whether it can be subscribed to. */
  async withProduct(
    tenant: Pick<Tenant, 'organizationId'>,
    id: string,
  ): Promise<Price & { productName: string; subscribable: boolean }> {
    const p = await this.repo.withProduct(tenant.organizationId, id);
    if (!p) throw priceError(PriceError.NotFound);
    return p;
  }

  /** The active prices of each of these products. */
  async activeOf(productIds: string[]): Promise<Map<string, PriceJson[]>> {
    const byProduct = new Map<string, PriceJson[]>(productIds.map((id) => [id, []]));
    for (const p of await this.repo.activeOf(productIds)) byProduct.get(p.productId)!.push(toPriceJson(p));
    return byProduct;
  }

  /** The active prices of these products, by product then oldest first. */
  activePricesOf(productIds: string[]): Promise<Price[]> {
    return this.repo.activeOf(productIds);
  }

  /** An active price of an active product of the environment, or undefined. */
  findActive(environmentId: string, id: string): Promise<Price | undefined> {
    return this.repo.activeInEnvironment(environmentId, id);
  }

  private async priceOrNotFound(price: Promise<Price | undefined>): Promise<Price> {
    const p = await price;
    if (!p) throw priceError(PriceError.NotFound);
    return p;
  }
}
