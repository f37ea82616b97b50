import { Body, Controller, Get, Param, Query } from '@nestjs/common';
import { ApiHeader, ApiTags } from '@nestjs/swagger';
import { SecretKey } from '../auth/decorators';
import { Tenant } from '../auth/tenant';
import { ApiData, ApiList } from '../common/http/openapi';
import { ApiErrors } from '../common/http/openapi-errors';
import { API, Post } from '../common/http/routes';
import { PaymentRequestError } from '../payment-requests/payment-requests.errors';
import { PaymentError } from '../payments/payments.errors';
import {
  AssignTransferDto,
  ListTransfersQuery,
  SandboxTransferDto,
  TransferIdParams,
} from './dto/transfer.dto';
import { TransferJson } from './transfer';
import { TransferError } from './transfers.errors';
import { TransfersService } from './transfers.service';

/** The transfers received on the key's environment's wallet (docs/transfers.md "The transfers API"). */
@ApiTags('Transfers')
@ApiHeader({ name: 'Authorization', description: 'Secret API key (sk_…)', required: true })
@Controller(`${API}/transfers`)
export class TransfersController {
  constructor(private readonly service: TransfersService) {}

  @Get()
  @SecretKey()
  @ApiList(TransferJson)
  list(@Tenant() t: Tenant, @Query() q: ListTransfersQuery) {
    return this.service.list(t, q);
  }

  @Get(':id')
  @SecretKey()
  @ApiErrors(TransferError.NotFound)
  @ApiData(TransferJson)
  async get(@Tenant() t: Tenant, @Param() p: TransferIdParams) {
    return { data: await this.service.get(t, p.id) };
  }

  @Post(':id/assign')
  @SecretKey()
  @ApiErrors(
    TransferError.NotFound,
    TransferError.NotUnmatched,
    TransferError.AmountMismatch,
    PaymentRequestError.NotFound,
    PaymentRequestError.AlreadyPaid,
    PaymentRequestError.Void,
    PaymentRequestError.LinkRequestVoid,
    PaymentError.InProgress,
  )
  @ApiData(TransferJson)
  async assign(@Tenant() t: Tenant, @Param() p: TransferIdParams, @Body() dto: AssignTransferDto) {
    return { data: await this.service.assign(t, p.id, dto.paymentRequestId) };
  }

  @Post(':id/return')
  @SecretKey()
  @ApiErrors(TransferError.NotFound, TransferError.NotUnmatched)
  @ApiData(TransferJson)
  async return(@Tenant() t: Tenant, @Param() p: TransferIdParams) {
    return { data: await this.service.return(t, p.id) };
  }
}

/** Sandbox: inject an incoming transfer (docs/transfers.md "Sandbox"). */
@ApiTags('Transfers')
@ApiHeader({ name: 'Authorization', description: 'Secret API key (sk_…)', required: true })
@Controller(`${API}/sandbox/transfers`)
export class SandboxTransfersController {
  constructor(private readonly service: TransfersService) {}

  @Post()
  @SecretKey()
  @ApiErrors(PaymentError.SimulatedTransfersSandboxOnly)
  @ApiData(TransferJson)
  async inject(@Tenant() t: Tenant, @Body() dto: SandboxTransferDto) {
    return { data: await this.service.injectSandbox(t, dto) };
  }
}
