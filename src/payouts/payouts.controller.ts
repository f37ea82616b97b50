import { ReadsReplica } from '../database/reads-replica';
import { Body, Controller, Get, Param, Query, UseGuards } from '@nestjs/common';
import { ApiHeader, ApiTags } from '@nestjs/swagger';
import { AsksForMoney, SecretKey } from '../auth/decorators';
import { Tenant } from '../auth/tenant';
import { CommonError } from '../common/errors/common-errors';
import { ApiCsv, WantsCsv } from '../common/http/csv';
import { ApiData, ApiList } from '../common/http/openapi';
import { ApiErrors } from '../common/http/openapi-errors';
import { API, Patch, Post } from '../common/http/routes';
import { CreatePayoutDto, ListPayoutsQuery, PayoutIdParams, UpdatePayoutScheduleDto } from './dto/payout.dto';
import { PayoutJson } from './payout';
import { PayoutRun, PayoutRunJson } from './payout-run';
import { PayoutScheduleJson } from './payout-schedule';
import { PayoutError } from './payouts.errors';
import { PayoutsService } from './payouts.service';
import { SandboxPayoutsGuard } from './sandbox-payouts.guard';

@ApiTags('Payouts')
@ApiHeader({ name: 'Authorization', description: 'Secret API key (sk_…)', required: true })
@Controller(`${API}/payouts`)
export class PayoutsController {
  constructor(private readonly service: PayoutsService) {}

  /** A payout now, of `amount` or of the whole available balance, to the approved payout account. */
  @Post()
  @ApiErrors(
    CommonError.AmountNotPositive,
    CommonError.AmountTooLarge,
    PayoutError.InsufficientBalance,
    PayoutError.OnHold,
  )
  @SecretKey()
  @AsksForMoney()
  @ApiData(PayoutJson)
  async create(@Tenant() t: Tenant, @Body() dto: CreatePayoutDto) {
    return { data: await this.service.create(t, dto) };
  }

  @ReadsReplica('csv')
  @Get()
  @SecretKey()
  @ApiList(PayoutJson)
  @ApiCsv()
  list(@Tenant() t: Tenant, @Query() q: ListPayoutsQuery, @WantsCsv() csv: boolean) {
    return csv ? this.service.csv(t, q) : this.service.list(t, q);
  }

  @Get(':id')
  @ApiErrors(PayoutError.NotFound)
  @SecretKey()
  @ApiData(PayoutJson)
  async get(@Tenant() t: Tenant, @Param() p: PayoutIdParams) {
    return { data: await this.service.get(t, p.id) };
  }
}

@ApiTags('Payouts')
@ApiHeader({ name: 'Authorization', description: 'Secret API key (sk_…)', required: true })
@Controller(`${API}/payout-schedule`)
export class PayoutScheduleController {
  constructor(private readonly service: PayoutsService) {}

  @Get()
  @SecretKey()
  @ApiData(PayoutScheduleJson)
  async get(@Tenant() t: Tenant) {
    return { data: await this.service.schedule(t) };
  }

  @Patch()
  @ApiErrors(CommonError.AmountNotPositive, CommonError.AmountTooLarge)
  @SecretKey()
  @ApiData(PayoutScheduleJson)
  async update(@Tenant() t: Tenant, @Body() dto: UpdatePayoutScheduleDto) {
    return { data: await this.service.updateSchedule(t, dto) };
  }
}

@ApiTags('Payouts')
@ApiHeader({ name: 'Authorization', description: 'Sandbox secret API key (sk_test_…)', required: true })
@Controller(`${API}/sandbox/payouts`)
export class SandboxPayoutsController {
  constructor(private readonly payouts: PayoutRun) {}

  /** Runs the payout job now for the key's Sandbox environment, whatever the hour and its day. */
  @Post('run')
  @ApiErrors(PayoutError.RunsSandboxOnly)
  @SecretKey()
  @UseGuards(SandboxPayoutsGuard)
  @ApiData(PayoutRunJson)
  async run(@Tenant() t: Tenant) {
    return { data: await this.payouts.run({ environmentId: t.environmentId }) };
  }
}
