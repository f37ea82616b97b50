import { ApiCsv, WantsCsv } from '../common/http/csv';
import { Body, Controller, Get, Param, Query, UseGuards } from '@nestjs/common';
import { ApiHeader, ApiTags } from '@nestjs/swagger';
import { AnyKey, AsksForMoney, SecretKey } from '../auth/decorators';
import { Tenant } from '../auth/tenant';
import { ApiData, ApiDataArray, ApiList } from '../common/http/openapi';
import { API, Patch, Post } from '../common/http/routes';
import { IdempotencyKey, RecordsIdempotencyKey } from '../idempotency/decorators';
import type { RequestKey } from '../idempotency/request-key';
import { PaymentRequestJson } from '../payment-requests/payment-request';
import { TransactionIdParams } from '../payment-requests/dto/payment-request.dto';
import {
  ListPaymentsQuery,
  PayDto,
  PaymentIdParams,
  PaymentMethodsQuery,
  SimulateTransferDto,
} from './dto/payment.dto';
import { PaymentMethodsService } from './payment-methods.service';
import { PaymentJson, PaymentMethodJson, toPaymentMethodJson } from './payment';
import { PayService } from './pay.service';
import { PaymentsService } from './payments.service';
import { ReconciliationService } from './reconciliation.service';
import { SandboxOnlyGuard } from './sandbox-only.guard';
import { ApiErrors } from '../common/http/openapi-errors';
import { CommonError } from '../common/errors/common-errors';
import { PaymentRequestError } from '../payment-requests/payment-requests.errors';
import { PaymentError } from './payments.errors';

@ApiTags('Payments')
@ApiHeader({ name: 'Authorization', description: 'API key (sk_… or pk_…)', required: true })
@Controller(`${API}/payment`)
export class PaymentsController {
  constructor(
    private readonly service: PaymentsService,
    private readonly payService: PayService,
  ) {}

  @Post()
  @ApiErrors(
    CommonError.InvalidPhoneNumber,
    PaymentError.MethodNotFound,
    PaymentError.PassCodeRequired,
    PaymentRequestError.NotFound,
    PaymentRequestError.AlreadyPaid,
    PaymentRequestError.Void,
    PaymentError.TooManyAttempts,
    PaymentError.InProgress,
    PaymentError.BankFailure,
  )
  @AnyKey()
  @AsksForMoney()
  @ApiData(PaymentJson)
  @RecordsIdempotencyKey()
  async pay(@Tenant() t: Tenant, @Body() dto: PayDto, @IdempotencyKey() key: RequestKey | undefined) {
    return { data: await this.payService.pay(t, dto, undefined, key) };
  }

  @Get()
  @SecretKey()
  @ApiList(PaymentJson)
  @ApiCsv()
  list(@Tenant() t: Tenant, @Query() q: ListPaymentsQuery, @WantsCsv() csv: boolean) {
    return csv ? this.service.csv(t, q) : this.service.list(t, q);
  }

  @Get(':id')
  @ApiErrors(PaymentError.NotFound)
  @SecretKey()
  @ApiData(PaymentJson)
  async get(@Tenant() t: Tenant, @Param() p: PaymentIdParams) {
    return { data: await this.service.get(t, p.id) };
  }

  @Post(':id/simulate-transfer')
  @ApiErrors(PaymentError.SimulatedTransfersSandboxOnly, PaymentError.NotFound, PaymentError.NotPending)
  @SecretKey()
  @UseGuards(SandboxOnlyGuard)
  @ApiData(PaymentJson)
  async simulateTransfer(@Tenant() t: Tenant, @Param() p: PaymentIdParams, @Body() dto: SimulateTransferDto) {
    return { data: await this.service.simulateTransfer(t, p.id, dto.outcome) };
  }
}

@ApiTags('Payments')
@ApiHeader({ name: 'Authorization', description: 'API key (sk_… or pk_…)', required: true })
@Controller(API)
export class PaymentMethodsController {
  constructor(private readonly methods: PaymentMethodsService) {}

  @Get('configuration')
  @AnyKey()
  @ApiDataArray(PaymentMethodJson)
  configuration(@Tenant() t: Tenant, @Query() _q: PaymentMethodsQuery) {
    return this.list(t);
  }

  @Get('payment-methods')
  @AnyKey()
  @ApiDataArray(PaymentMethodJson)
  paymentMethods(@Tenant() t: Tenant, @Query() _q: PaymentMethodsQuery) {
    return this.list(t);
  }

  private async list(t: Tenant) {
    return { data: (await this.methods.listEnabled(t.environmentId)).map(toPaymentMethodJson) };
  }
}

@ApiTags('Payment requests')
@ApiHeader({ name: 'Authorization', description: 'API key (sk_…)', required: true })
@Controller(`${API}/payment-request`)
export class RefreshStatusController {
  constructor(private readonly service: ReconciliationService) {}

  @Patch(':transactionId/refresh-status')
  @ApiErrors(PaymentRequestError.NotFound)
  @SecretKey()
  @ApiData(PaymentRequestJson)
  async refresh(@Tenant() t: Tenant, @Param() p: TransactionIdParams) {
    return { data: await this.service.refreshStatus(t, p.transactionId) };
  }
}
