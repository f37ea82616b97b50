import { Injectable } from '@nestjs/common';
import { randomBytes, randomUUID } from 'node:crypto';
import type { Tenant } from '../auth/tenant';
import { envelope, ListEnvelope, pageOf } from '../common/pagination';
import { parseDateTime } from '../common/validation/rules';
import { Coupon, CouponJson, toCouponJson } from './coupon';
import { CouponError, couponError } from './coupons.errors';
import { CouponsRepository } from './coupons.repository';
import type { CreateCouponDto, ListCouponsQuery } from './dto/coupon.dto';

/** A generated code: 10 characters of A-Z 0-9 (36^10 ≈ 3.7 × 10^15, so a clash is retried, not expected). */
function generatedCode(): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
  return [...randomBytes(10)].map((b) => alphabet[b % 36]).join('');
}

/** Coupons (docs/billing.md "Coupons"): organization-scoped, applied to subscriptions by id or code. */
@Injectable()
export class CouponsService {
  constructor(private readonly repo: CouponsRepository) {}

  async create(tenant: Tenant, dto: CreateCouponDto): Promise<CouponJson> {
    if ((dto.percentOff === undefined) === (dto.amountOff === undefined))
      throw couponError(CouponError.OneKindOfDiscount);
    if ((dto.duration === 'repeating') !== (dto.durationInPeriods !== undefined))
      throw couponError(CouponError.DurationInPeriods);
    const now = new Date();
    for (let attempt = 0; ; attempt++) {
      const coupon: Coupon = {
        id: randomUUID(),
        organizationId: tenant.organizationId,
        code: dto.code ?? generatedCode(),
        percentOff: dto.percentOff ?? null,
        amountOff: dto.amountOff ?? null,
        duration: dto.duration,
        durationInPeriods: dto.durationInPeriods ?? null,
        maxRedemptions: dto.maxRedemptions ?? null,
        timesRedeemed: 0,
        expiresAt: dto.expiresAt === undefined ? null : parseDateTime(dto.expiresAt)!,
        archived: false,
        createdAt: now,
      };
      const created = await this.repo.insert(coupon, now);
      if (created) return toCouponJson(created);
      if (dto.code !== undefined || attempt >= 3) throw couponError(CouponError.CodeTaken);
    }
  }

  async get(tenant: Tenant, id: string): Promise<CouponJson> {
    const c = await this.repo.byId(tenant.organizationId, id);
    if (!c) throw couponError(CouponError.NotFound);
    return toCouponJson(c);
  }

  async list(tenant: Tenant, q: ListCouponsQuery): Promise<ListEnvelope<CouponJson>> {
    const page = pageOf(q);
    const { rows, total } = await this.repo.list(tenant.organizationId, page);
    return envelope(rows.map(toCouponJson), total, page);
  }

  async archive(tenant: Tenant, id: string): Promise<CouponJson> {
    const c = await this.repo.archive(tenant.organizationId, id, new Date());
    if (!c) throw couponError(CouponError.NotFound);
    return toCouponJson(c);
  }

  /** Redeems the coupon (id or code) once, or 400 `Coupon is not valid`: unknown, archived, expired or exhausted. */
  async redeem(tenant: Pick<Tenant, 'organizationId'>, idOrCode: string): Promise<Coupon> {
    const c = await this.repo.redeem(tenant.organizationId, idOrCode, new Date());
    if (!c) throw couponError(CouponError.NotValid);
    return c;
  }
}
