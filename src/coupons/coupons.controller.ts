import { Body, Controller, Get, Param, Query } from '@nestjs/common';
import { ApiHeader, ApiTags } from '@nestjs/swagger';
import { Tenant } from '../auth/tenant';
import { ApiData, ApiList } from '../common/http/openapi';
import { ApiErrors } from '../common/http/openapi-errors';
import { API, Post } from '../common/http/routes';
import { CouponJson } from './coupon';
import { CouponError } from './coupons.errors';
import { CouponsService } from './coupons.service';
import { CouponIdParams, CreateCouponDto, ListCouponsQuery } from './dto/coupon.dto';

/** Coupons (docs/api.md "Coupons"): organization-scoped; applied to subscriptions by id or code. */
@ApiTags('Coupons')
@ApiHeader({ name: 'Authorization', description: 'Secret API key (sk_…)', required: true })
@Controller(`${API}/coupons`)
export class CouponsController {
  constructor(private readonly service: CouponsService) {}

  @Get()
  @ApiList(CouponJson)
  list(@Tenant() t: Tenant, @Query() q: ListCouponsQuery) {
    return this.service.list(t, q);
  }

  @Post()
  @ApiErrors(CouponError.OneKindOfDiscount, CouponError.DurationInPeriods, CouponError.CodeTaken)
  @ApiData(CouponJson)
  async create(@Tenant() t: Tenant, @Body() dto: CreateCouponDto) {
    return { data: await this.service.create(t, dto) };
  }

  @Get(':id')
  @ApiErrors(CouponError.NotFound)
  @ApiData(CouponJson)
  async get(@Tenant() t: Tenant, @Param() p: CouponIdParams) {
    return { data: await this.service.get(t, p.id) };
  }

  @Post(':id/archive')
  @ApiErrors(CouponError.NotFound)
  @ApiData(CouponJson)
  async archive(@Tenant() t: Tenant, @Param() p: CouponIdParams) {
    return { data: await this.service.archive(t, p.id) };
  }
}
