import { Body, Controller, Get, Param, Query } from '@nestjs/common';
import { ApiHeader, ApiTags } from '@nestjs/swagger';
import { Tenant } from '../auth/tenant';
import { ApiData, ApiList } from '../common/http/openapi';
import { API, Patch, Post } from '../common/http/routes';
import { CustomerJson } from './customer';
import { CustomersService } from './customers.service';
import {
  CreateCustomerDto,
  CustomerIdParams,
  ListCustomersQuery,
  UpdateCustomerDto,
} from './dto/customer.dto';
import { TestClockError } from '../test-clocks/test-clocks.errors';
import { ApiErrors } from '../common/http/openapi-errors';
import { CommonError } from '../common/errors/common-errors';
import { CustomerError } from './customers.errors';

/** Customers have no get-by-id and no delete route; the list filters by id or externalUserId. */
@ApiTags('Customers')
@ApiHeader({ name: 'Authorization', description: 'Secret API key (sk_…)', required: true })
@Controller(`${API}/customers`)
export class CustomersController {
  constructor(private readonly service: CustomersService) {}

  @Get()
  @ApiList(CustomerJson)
  list(@Tenant() t: Tenant, @Query() q: ListCustomersQuery) {
    return this.service.list(t, q);
  }

  @Post()
  @ApiErrors(
    CommonError.InvalidPhoneNumber,
    CustomerError.ExternalUserIdTaken,
    TestClockError.SandboxOnly,
    TestClockError.NotFound,
  )
  @ApiData(CustomerJson)
  async create(@Tenant() t: Tenant, @Body() dto: CreateCustomerDto) {
    return { data: await this.service.create(t, dto) };
  }

  @Patch(':id')
  @ApiErrors(CommonError.InvalidPhoneNumber, CustomerError.ExternalUserIdTaken, CustomerError.NotFound)
  @ApiData(CustomerJson)
  async update(@Tenant() t: Tenant, @Param() p: CustomerIdParams, @Body() dto: UpdateCustomerDto) {
    return { data: await this.service.update(t, p.id, dto) };
  }
}
