import { Body, Controller, Get, Param, Query } from '@nestjs/common';
import { ApiHeader, ApiTags } from '@nestjs/swagger';
import { AsksForMoney, SecretKey } from '../auth/decorators';
import { Tenant } from '../auth/tenant';
import { CommonError } from '../common/errors/common-errors';
import { ApiData, ApiList } from '../common/http/openapi';
import { ApiErrors } from '../common/http/openapi-errors';
import { API, Patch, Post } from '../common/http/routes';
import {
  CreatePaymentLinkDto,
  ListPaymentLinksQuery,
  PaymentLinkIdParams,
  UpdatePaymentLinkDto,
} from './dto/payment-link.dto';
import { PaymentLinkJson } from './payment-link';
import { PaymentLinkError } from './payment-links.errors';
import { PaymentLinksService } from './payment-links.service';

/** Payment links (docs/payment-links.md): the merchant's side; customers pay on /l/<code>. No delete. */
@ApiTags('Payment links')
@ApiHeader({ name: 'Authorization', description: 'Secret API key (sk_…)', required: true })
@SecretKey()
@Controller(`${API}/payment-links`)
export class PaymentLinksController {
  constructor(private readonly service: PaymentLinksService) {}

  @Post()
  @ApiErrors(
    CommonError.AmountNotPositive,
    CommonError.AmountTooLarge,
    PaymentLinkError.AmountLimitsWithAmount,
    PaymentLinkError.MinAboveMax,
    PaymentLinkError.ExpiresAtPast,
  )
  @AsksForMoney()
  @ApiData(PaymentLinkJson)
  async create(@Tenant() t: Tenant, @Body() dto: CreatePaymentLinkDto) {
    return { data: await this.service.create(t, dto) };
  }

  @Get()
  @ApiList(PaymentLinkJson)
  list(@Tenant() t: Tenant, @Query() q: ListPaymentLinksQuery) {
    return this.service.list(t, q);
  }

  @Get(':id')
  @ApiErrors(PaymentLinkError.NotFound)
  @ApiData(PaymentLinkJson)
  async get(@Tenant() t: Tenant, @Param() p: PaymentLinkIdParams) {
    return { data: await this.service.get(t, p.id) };
  }

  @Patch(':id')
  @ApiErrors(PaymentLinkError.NotFound, PaymentLinkError.ExpiresAtPast)
  @ApiData(PaymentLinkJson)
  async update(@Tenant() t: Tenant, @Param() p: PaymentLinkIdParams, @Body() dto: UpdatePaymentLinkDto) {
    return { data: await this.service.update(t, p.id, dto) };
  }
}
