import { Body, Controller, Get, Param, Query } from '@nestjs/common';
import { ApiHeader, ApiTags } from '@nestjs/swagger';
import { Tenant } from '../auth/tenant';
import { ApiData, ApiList, ARCHIVED } from '../common/http/openapi';
import { API, Patch, Post } from '../common/http/routes';
import { CreateProductDto, ListProductsQuery, ProductIdParams, UpdateProductDto } from './dto/product.dto';
import { ProductJson, ProductWithPricesJson } from './product';
import { ProductsService } from './products.service';
import { ApiErrors } from '../common/http/openapi-errors';
import { ProductError } from './products.errors';

@ApiTags('Products')
@ApiHeader({ name: 'Authorization', description: 'Secret API key (sk_…)', required: true })
@Controller(`${API}/products`)
export class ProductsController {
  constructor(private readonly service: ProductsService) {}

  @Get()
  @ApiList(ProductWithPricesJson)
  list(@Tenant() t: Tenant, @Query() q: ListProductsQuery) {
    return this.service.list(t, q);
  }

  @Get(':id')
  @ApiErrors(ProductError.NotFound)
  @ApiData(ProductWithPricesJson)
  async get(@Tenant() t: Tenant, @Param() p: ProductIdParams) {
    return { data: await this.service.get(t, p.id) };
  }

  @Post()
  @ApiData(ProductJson)
  async create(@Tenant() t: Tenant, @Body() dto: CreateProductDto) {
    return { data: await this.service.create(t, dto) };
  }

  @Patch(':id')
  @ApiErrors(ProductError.NotFound)
  @ApiData(ProductJson)
  async update(@Tenant() t: Tenant, @Param() p: ProductIdParams, @Body() dto: UpdateProductDto) {
    return { data: await this.service.update(t, p.id, dto) };
  }

  @Patch(':id/archive')
  @ApiErrors(ProductError.NotFound)
  @ApiData(ProductJson, ARCHIVED)
  async archive(@Tenant() t: Tenant, @Param() p: ProductIdParams) {
    return { data: await this.service.archive(t, p.id), success: true };
  }
}
