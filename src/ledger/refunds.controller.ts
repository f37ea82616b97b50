import { ReadsReplica } from '../database/reads-replica';
import { ApiCsv, WantsCsv } from '../common/http/csv';
import { Body, Controller, Get, Param, Query } from '@nestjs/common';
import { ApiHeader, ApiTags } from '@nestjs/swagger';
import { AsksForMoney, SecretKey } from '../auth/decorators';
import { Tenant } from '../auth/tenant';
import { ApiData, ApiList } from '../common/http/openapi';
import { CommonError } from '../common/errors/common-errors';
import { ApiErrors } from '../common/http/openapi-errors';
import { API, Post } from '../common/http/routes';
import { IdempotencyKey, RecordsIdempotencyKey } from '../idempotency/decorators';
import type { RequestKey } from '../idempotency/request-key';
import { CreateRefundDto, ListRefundsQuery, RefundIdParams } from './dto/refund.dto';
import { LedgerError } from './ledger.errors';
import { RefundJson } from './refund';
import { RefundsService } from './refunds.service';

@ApiTags('Refunds')
@ApiHeader({ name: 'Authorization', description: 'Secret API key (sk_…)', required: true })
@Controller(`${API}/refunds`)
export class RefundsController {
  constructor(private readonly service: RefundsService) {}

  @Post()
  @ApiErrors(
    CommonError.AmountNotPositive,
    LedgerError.PaymentNotFound,
    LedgerError.PaymentNotCompleted,
    LedgerError.AmountExceedsLeft,
  )
  @SecretKey()
  @AsksForMoney()
  @ApiData(RefundJson)
  @RecordsIdempotencyKey()
  async create(
    @Tenant() t: Tenant,
    @Body() dto: CreateRefundDto,
    @IdempotencyKey() key: RequestKey | undefined,
  ) {
    return { data: await this.service.create(t, dto, key) };
  }

  @ReadsReplica('csv')
  @Get()
  @SecretKey()
  @ApiList(RefundJson)
  @ApiCsv()
  list(@Tenant() t: Tenant, @Query() q: ListRefundsQuery, @WantsCsv() csv: boolean) {
    return csv ? this.service.csv(t, q) : this.service.list(t, q);
  }

  @Get(':id')
  @ApiErrors(LedgerError.RefundNotFound)
  @SecretKey()
  @ApiData(RefundJson)
  async get(@Tenant() t: Tenant, @Param() p: RefundIdParams) {
    return { data: await this.service.get(t, p.id) };
  }
}
