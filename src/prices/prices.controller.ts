import { Body, Controller, Get, Param } from '@nestjs/common';
import { ApiHeader, ApiTags } from '@nestjs/swagger';
import { Tenant } from '../auth/tenant';
import { ApiData, ARCHIVED } from '../common/http/openapi';
import { API, Patch, Post } from '../common/http/routes';
import { CreatePriceDto, PriceIdParams, UpdatePriceDto } from './dto/price.dto';
import { PriceJson } from './price';
import { PricesService } from './prices.service';
import { ApiErrors } from '../common/http/openapi-errors';
import { CommonError } from '../common/errors/common-errors';
import { PriceError } from './prices.errors';

/** Prices have no list route: a product's active prices come with the product. */
@ApiTags('Prices')
@ApiHeader({ name: 'Authorization', description: 'Secret API key (sk_…)', required: true })
@Controller(`${API}/prices`)
export class PricesController {
  constructor(private readonly service: PricesService) {}

  @Get(':id')
  @ApiErrors(PriceError.NotFound)
  @ApiData(PriceJson)
  async get(@Tenant() t: Tenant, @Param() p: PriceIdParams) {
    return { data: await this.service.get(t, p.id) };
  }

  @Post()
  @ApiErrors(PriceError.AmountNotPositive, CommonError.AmountTooLarge, PriceError.ProductNotFound)
  @ApiData(PriceJson)
  async create(@Tenant() t: Tenant, @Body() dto: CreatePriceDto) {
    return { data: await this.service.create(t, dto) };
  }

  @Patch(':id')
  @ApiErrors(PriceError.AmountNotPositive, CommonError.AmountTooLarge, PriceError.NotFound)
  @ApiData(PriceJson)
  async update(@Tenant() t: Tenant, @Param() p: PriceIdParams, @Body() dto: UpdatePriceDto) {
    return { data: await this.service.update(t, p.id, dto) };
  }

  @Patch(':id/archive')
  @ApiErrors(PriceError.NotFound)
  @ApiData(PriceJson, ARCHIVED)
  async archive(@Tenant() t: Tenant, @Param() p: PriceIdParams) {
    return { data: await this.service.archive(t, p.id), success: true };
  }
}
