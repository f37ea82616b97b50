import { ReadsReplica } from '../database/reads-replica';
import { ApiCsv, WantsCsv } from '../common/http/csv';
import { Body, Controller, Get, Param, Query, UseGuards } from '@nestjs/common';
import { ApiExtraModels, ApiHeader, ApiTags, getSchemaPath } from '@nestjs/swagger';
import { AnyKey, AsksForMoney, SecretKey } from '../auth/decorators';
import { Tenant } from '../auth/tenant';
import { ApiData, ApiDataArray, ApiList } from '../common/http/openapi';
import { API, Patch, Post, Put } from '../common/http/routes';
import { IdempotencyKey, RecordsIdempotencyKey } from '../idempotency/decorators';
import type { RequestKey } from '../idempotency/request-key';
import { PaymentRequestJson } from '../payment-requests/payment-request';
import { TransactionIdParams } from '../payment-requests/dto/payment-request.dto';
import {
  GimtelConfigurationDto,
  ListPaymentsQuery,
  PayDto,
  PaymentIdParams,
  PaymentMethodIdParams,
  PaymentMethodsQuery,
  SimulateTransferDto,
} from './dto/payment.dto';
import { PaymentMethodsService } from './payment-methods.service';
import {
  GimtelInstructionsJson,
  PAYMENT_STATUSES,
  PaymentJson,
  PaymentMethodDetailJson,
  PaymentMethodJson,
  PaymentStatusJson,
  toPaymentMethodDetailJson,
  toPaymentMethodJson,
  TRANSFER_OUTCOMES,
} from './payment';
import { PayService } from './pay.service';
import { PaymentsService } from './payments.service';
import { BankingApiResponseJson, ReconciliationService } from './reconciliation.service';
import { SandboxOnlyGuard } from './sandbox-only.guard';
import { ApiErrors } from '../common/http/openapi-errors';
import { CommonError } from '../common/errors/common-errors';
import { PaymentRequestError } from '../payment-requests/payment-requests.errors';
import { PaymentError } from './payments.errors';

/** POST /payment's top-level fields beside `data` (Moosyl's generated clients read them). */
const PAY_TOP_LEVEL = {
  id: { type: 'string', format: 'uuid', description: "data's id" },
  status: { type: 'string', enum: PAYMENT_STATUSES, description: "data's status" },
  referenceId: { type: 'string', nullable: true, description: "data's referenceId" },
  metadata: { type: 'object', nullable: true, description: 'Always null' },
  instructions: {
    nullable: true,
    allOf: [{ $ref: getSchemaPath(GimtelInstructionsJson) }],
    description: 'Transfer methods: what the customer must send, where and until when; null for the others',
  },
};

const TRANSFER_OUTCOME = {
  outcome: {
    type: 'string',
    enum: TRANSFER_OUTCOMES,
    description:
      'matched: this call completed the payment; unmatched: it failed it; skipped: it already had that status',
  },
};

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
    PaymentRequestError.LinkRequestVoid,
    PaymentError.TooManyAttempts,
    PaymentError.InProgress,
    PaymentError.BankFailure,
  )
  @AnyKey()
  @AsksForMoney()
  @ApiExtraModels(GimtelInstructionsJson)
  @ApiData(PaymentJson, PAY_TOP_LEVEL)
  @RecordsIdempotencyKey()
  async pay(@Tenant() t: Tenant, @Body() dto: PayDto, @IdempotencyKey() key: RequestKey | undefined) {
    const { payment: data, instructions } = await this.payService.payWithInstructions(t, dto, undefined, key);
    // Beside SPEC's `data`, the top-level fields Moosyl's generated clients read (copies of data's).
    return {
      data,
      id: data.id,
      status: data.status,
      referenceId: data.referenceId,
      metadata: null,
      instructions,
    };
  }

  @ReadsReplica('csv')
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

  @Get(':id/status')
  @ApiErrors(PaymentError.NotFound)
  @SecretKey()
  @ApiData(PaymentStatusJson, {
    id: { type: 'string', format: 'uuid' },
    status: { type: 'string', enum: PAYMENT_STATUSES },
    referenceId: { type: 'string', nullable: true },
    claimExpiresAt: { type: 'string', format: 'date-time', nullable: true },
  })
  async status(@Tenant() t: Tenant, @Param() p: PaymentIdParams) {
    const data = await this.service.status(t, p.id);
    return { data, ...data };
  }

  @Post(':id/simulate-transfer')
  @ApiErrors(PaymentError.SimulatedTransfersSandboxOnly, PaymentError.NotFound, PaymentError.NotPending)
  @SecretKey()
  @UseGuards(SandboxOnlyGuard)
  @ApiData(PaymentJson, TRANSFER_OUTCOME)
  async simulateTransfer(@Tenant() t: Tenant, @Param() p: PaymentIdParams, @Body() dto: SimulateTransferDto) {
    const { payment, outcome } = await this.service.simulateTransfer(t, p.id, dto.outcome);
    return { data: payment, outcome };
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

  @Get('configuration/:id')
  @ApiErrors(PaymentError.MethodNotFound)
  @AnyKey()
  @ApiData(PaymentMethodDetailJson)
  async oneConfiguration(@Tenant() t: Tenant, @Param() p: PaymentMethodIdParams) {
    return { data: toPaymentMethodDetailJson(await this.methods.findEnabled(t.environmentId, p.id), t) };
  }

  @Put('configuration/gimtel')
  @ApiErrors(
    PaymentError.InvalidReceivingBank,
    CommonError.InvalidPhoneNumber,
    PaymentError.TransfersNeedVerification,
  )
  @SecretKey()
  @ApiData(PaymentMethodJson)
  async configureGimtel(@Tenant() t: Tenant, @Body() dto: GimtelConfigurationDto) {
    return { data: toPaymentMethodJson(await this.methods.configureGimtel(t, dto), t) };
  }

  @Get('payment-methods')
  @AnyKey()
  @ApiDataArray(PaymentMethodJson)
  paymentMethods(@Tenant() t: Tenant, @Query() _q: PaymentMethodsQuery) {
    return this.list(t);
  }

  private async list(t: Tenant) {
    return { data: (await this.methods.listEnabled(t.environmentId)).map((m) => toPaymentMethodJson(m, t)) };
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
  @ApiExtraModels(BankingApiResponseJson)
  @ApiData(PaymentRequestJson, {
    bankingApiResponses: {
      type: 'array',
      description: 'One item per pending payment this call asked its bank about',
      items: { $ref: getSchemaPath(BankingApiResponseJson) },
    },
  })
  refresh(@Tenant() t: Tenant, @Param() p: TransactionIdParams) {
    return this.service.refreshStatus(t, p.transactionId);
  }
}
