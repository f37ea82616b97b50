import { ReadsReplica } from '../database/reads-replica';
import { ApiCsv, WantsCsv } from '../common/http/csv';
import { Body, Controller, Get, Param, Query } from '@nestjs/common';
import { ApiHeader, ApiTags } from '@nestjs/swagger';
import { AnyKey, AsksForMoney, SecretKey } from '../auth/decorators';
import { Tenant } from '../auth/tenant';
import { ApiData, ApiList } from '../common/http/openapi';
import { API, Post } from '../common/http/routes';
import { IdempotencyKey, RecordsIdempotencyKey } from '../idempotency/decorators';
import type { RequestKey } from '../idempotency/request-key';
import {
  CreatePaymentRequestDto,
  ListPaymentRequestsQuery,
  PaymentRequestIdParams,
  TransactionIdParams,
} from './dto/payment-request.dto';
import {
  PaymentRequestJson,
  PublicPaymentRequestJson,
  toPaymentRequestJson,
  toPublicPaymentRequestJson,
} from './payment-request';
import { PaymentRequestsService } from './payment-requests.service';
import { ApiErrors } from '../common/http/openapi-errors';
import { CommonError } from '../common/errors/common-errors';
import { PaymentRequestError } from './payment-requests.errors';

@ApiTags('Payment requests')
@ApiHeader({ name: 'Authorization', description: 'API key (sk_… or pk_…)', required: true })
@Controller(`${API}/payment-request`)
export class PaymentRequestsController {
  constructor(private readonly service: PaymentRequestsService) {}

  @Post()
  @ApiErrors(
    CommonError.AmountNotPositive,
    CommonError.AmountTooLarge,
    CommonError.InvalidPhoneNumber,
    PaymentRequestError.TransactionIdTaken,
    PaymentRequestError.ApplicationFeeNeedsAccount,
    PaymentRequestError.ApplicationFeeExceedsAmount,
  )
  @SecretKey()
  @AsksForMoney()
  @ApiData(PaymentRequestJson)
  @RecordsIdempotencyKey()
  async create(
    @Tenant() t: Tenant,
    @Body() dto: CreatePaymentRequestDto,
    @IdempotencyKey() key: RequestKey | undefined,
  ) {
    return { data: await this.service.create(t, dto, key) };
  }

  @ReadsReplica('csv')
  @Get()
  @SecretKey()
  @ApiList(PaymentRequestJson)
  @ApiCsv()
  list(@Tenant() t: Tenant, @Query() q: ListPaymentRequestsQuery, @WantsCsv() csv: boolean) {
    return csv ? this.service.csv(t, q) : this.service.list(t, q);
  }

  @Get('by-transaction/:transactionId')
  @ApiErrors(PaymentRequestError.NotFound)
  @AnyKey()
  @ApiData([PaymentRequestJson, PublicPaymentRequestJson])
  async byTransaction(@Tenant() t: Tenant, @Param() p: TransactionIdParams) {
    const pr = await this.service.getByTransactionId(t, p.transactionId);
    return { data: t.keyKind === 'secret' ? toPaymentRequestJson(pr) : toPublicPaymentRequestJson(pr) };
  }

  @Get(':id')
  @ApiErrors(PaymentRequestError.NotFound)
  @SecretKey()
  @ApiData(PaymentRequestJson)
  async get(@Tenant() t: Tenant, @Param() p: PaymentRequestIdParams) {
    return { data: toPaymentRequestJson(await this.service.getById(t, p.id)) };
  }
}
