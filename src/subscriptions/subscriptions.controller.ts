import { Body, Controller, Get, Param, Query } from '@nestjs/common';
import { ApiHeader, ApiTags } from '@nestjs/swagger';
import { AsksForMoney } from '../auth/decorators';
import { Tenant } from '../auth/tenant';
import { ApiData, ApiList } from '../common/http/openapi';
import { API, Delete, Post } from '../common/http/routes';
import { CouponError } from '../coupons/coupons.errors';
import {
  ApplyDiscountDto,
  CancelSubscriptionDto,
  ChangeSubscriptionDto,
  CreateSubscriptionByExternalUserDto,
  CreateSubscriptionDto,
  ExternalUserIdParams,
  ListSubscriptionsQuery,
  SubscriptionIdParams,
} from './dto/subscription.dto';
import { SubscriptionJson } from './subscription';
import { SubscriptionsService } from './subscriptions.service';
import { ApiErrors } from '../common/http/openapi-errors';
import { CommonError } from '../common/errors/common-errors';
import { CustomerError } from '../customers/customers.errors';
import { PaymentRequestError } from '../payment-requests/payment-requests.errors';
import { PriceError } from '../prices/prices.errors';
import { SubscriptionError } from './subscriptions.errors';
import { TestClockError } from '../test-clocks/test-clocks.errors';

/** A change of an object on a test clock: its clock is another environment's (400), or advancing (409). */
const CLOCK_ERRORS = [TestClockError.OtherEnvironment, TestClockError.Advancing] as const;

/** The subscription routes (docs/api.md "Subscriptions and billing"); a subscription lives in the environment of the key that created it. */
@ApiTags('Subscriptions')
@ApiHeader({ name: 'Authorization', description: 'Secret API key (sk_…)', required: true })
@Controller(`${API}/subscriptions`)
export class SubscriptionsController {
  constructor(private readonly service: SubscriptionsService) {}

  @Get()
  @ApiList(SubscriptionJson)
  list(@Tenant() t: Tenant, @Query() q: ListSubscriptionsQuery) {
    return this.service.list(t, q);
  }

  @Post()
  @AsksForMoney()
  @ApiErrors(
    ...CLOCK_ERRORS,
    SubscriptionError.TrialNeedsPeriodOrEnd,
    SubscriptionError.StartTooFarInPast,
    SubscriptionError.TrialEndNotAfterStart,
    SubscriptionError.ExpiresAtNotAfterStart,
    SubscriptionError.TrialWithFirstPayment,
    SubscriptionError.PeriodAmountTooLarge,
    CouponError.NotValid,
    PaymentRequestError.ApplicationFeeNeedsAccount,
    CustomerError.NotFound,
    PriceError.NotFound,
  )
  @ApiData(SubscriptionJson)
  async create(@Tenant() t: Tenant, @Body() dto: CreateSubscriptionDto) {
    return { data: await this.service.create(t, dto) };
  }

  @Post('by-external-user')
  @AsksForMoney()
  @ApiErrors(
    ...CLOCK_ERRORS,
    SubscriptionError.TrialNeedsPeriodOrEnd,
    SubscriptionError.StartTooFarInPast,
    SubscriptionError.TrialEndNotAfterStart,
    SubscriptionError.ExpiresAtNotAfterStart,
    SubscriptionError.TrialWithFirstPayment,
    SubscriptionError.PeriodAmountTooLarge,
    CouponError.NotValid,
    PaymentRequestError.ApplicationFeeNeedsAccount,
    CommonError.InvalidPhoneNumber,
    PriceError.NotFound,
  )
  @ApiData(SubscriptionJson)
  async createByExternalUser(@Tenant() t: Tenant, @Body() dto: CreateSubscriptionByExternalUserDto) {
    return { data: await this.service.createByExternalUser(t, dto) };
  }

  @Get('by-external-user/:externalUserId')
  @ApiErrors(SubscriptionError.NotFound)
  @ApiData(SubscriptionJson)
  async getByExternalUser(@Tenant() t: Tenant, @Param() p: ExternalUserIdParams) {
    return { data: await this.service.getByExternalUser(t, p.externalUserId) };
  }

  @Get(':id')
  @ApiErrors(SubscriptionError.NotFound)
  @ApiData(SubscriptionJson)
  async get(@Tenant() t: Tenant, @Param() p: SubscriptionIdParams) {
    return { data: await this.service.get(t, p.id) };
  }

  @Post(':id/cancel')
  @ApiErrors(...CLOCK_ERRORS, SubscriptionError.NotFound)
  @ApiData(SubscriptionJson)
  async cancel(@Tenant() t: Tenant, @Param() p: SubscriptionIdParams, @Body() dto: CancelSubscriptionDto) {
    return { data: await this.service.cancel(t, p.id, dto.atPeriodEnd ?? false) };
  }

  @Post(':id/change')
  @AsksForMoney()
  @ApiErrors(
    ...CLOCK_ERRORS,
    SubscriptionError.NotFound,
    SubscriptionError.NothingToChange,
    SubscriptionError.NotActive,
    SubscriptionError.ProrationNeedsSameInterval,
    SubscriptionError.PriceNotActive,
    SubscriptionError.PeriodAmountTooLarge,
    PriceError.NotFound,
  )
  @ApiData(SubscriptionJson)
  async change(@Tenant() t: Tenant, @Param() p: SubscriptionIdParams, @Body() dto: ChangeSubscriptionDto) {
    return { data: await this.service.changePlan(t, p.id, dto) };
  }

  @Post(':id/discount')
  @ApiErrors(...CLOCK_ERRORS, SubscriptionError.NotFound, SubscriptionError.NotActive, CouponError.NotValid)
  @ApiData(SubscriptionJson)
  async applyDiscount(@Tenant() t: Tenant, @Param() p: SubscriptionIdParams, @Body() dto: ApplyDiscountDto) {
    return { data: await this.service.applyDiscount(t, p.id, dto.coupon) };
  }

  @Delete(':id/discount')
  @ApiErrors(...CLOCK_ERRORS, SubscriptionError.NotFound, SubscriptionError.NotActive)
  @ApiData(SubscriptionJson)
  async removeDiscount(@Tenant() t: Tenant, @Param() p: SubscriptionIdParams) {
    return { data: await this.service.removeDiscount(t, p.id) };
  }

  @Post(':id/pause')
  @ApiErrors(...CLOCK_ERRORS, SubscriptionError.NotFound, SubscriptionError.CannotBePaused)
  @ApiData(SubscriptionJson)
  async pause(@Tenant() t: Tenant, @Param() p: SubscriptionIdParams) {
    return { data: await this.service.pause(t, p.id) };
  }

  @Post(':id/resume')
  @ApiErrors(...CLOCK_ERRORS, SubscriptionError.NotFound, SubscriptionError.CannotBeResumed)
  @ApiData(SubscriptionJson)
  async resume(@Tenant() t: Tenant, @Param() p: SubscriptionIdParams) {
    return { data: await this.service.resume(t, p.id) };
  }
}
