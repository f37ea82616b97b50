import { Body, Controller, Get, Param } from '@nestjs/common';
import { ApiHeader, ApiTags } from '@nestjs/swagger';
import { AuthError } from '../auth/auth.errors';
import { AsksForMoney, SecretKey } from '../auth/decorators';
import { Tenant } from '../auth/tenant';
import { ApiData } from '../common/http/openapi';
import { API, Post } from '../common/http/routes';
import { CheckoutSessionJson } from './checkout-session';
import { CheckoutSessionsService } from './checkout-sessions.service';
import { CheckoutSessionIdParams, CreateCheckoutSessionDto } from './dto/checkout-session.dto';
import { ApiErrors } from '../common/http/openapi-errors';
import { CommonError } from '../common/errors/common-errors';
import { PaymentRequestError } from '../payment-requests/payment-requests.errors';
import { PaymentError } from '../payments/payments.errors';
import { CheckoutError } from './checkout.errors';

const CHECKOUT_URL = {
  checkoutUrl: { type: 'string', format: 'uri', description: 'The hosted payment page' },
};

@ApiTags('Checkout sessions')
@Controller(`${API}/checkout-session`)
export class CheckoutSessionsController {
  constructor(private readonly service: CheckoutSessionsService) {}

  @Post()
  @ApiErrors(
    CheckoutError.EitherPaymentRequestOrTransaction,
    CheckoutError.AmountRequiredForNewTransaction,
    PaymentRequestError.ApplicationFeeNeedsAccount,
    PaymentRequestError.ApplicationFeeExceedsAmount,
    CommonError.AmountNotPositive,
    CommonError.AmountTooLarge,
    CommonError.InvalidPhoneNumber,
    PaymentRequestError.NotFound,
    PaymentRequestError.AlreadyPaid,
    PaymentRequestError.Void,
    PaymentRequestError.LinkRequestVoid,
  )
  @SecretKey(AuthError.CheckoutNeedsSecretKey)
  @AsksForMoney()
  @ApiData(CheckoutSessionJson, CHECKOUT_URL)
  @ApiHeader({ name: 'Authorization', description: 'Secret API key (sk_…)', required: true })
  async create(@Tenant() t: Tenant, @Body() dto: CreateCheckoutSessionDto) {
    const data = await this.service.create(t, dto);
    return { data, checkoutUrl: this.service.checkoutUrl(data.id) };
  }

  @Get(':id')
  @ApiErrors(CheckoutError.NotFound)
  @SecretKey()
  @ApiData(CheckoutSessionJson, CHECKOUT_URL)
  @ApiHeader({ name: 'Authorization', description: 'Secret API key (sk_…)', required: true })
  async get(@Tenant() t: Tenant, @Param() p: CheckoutSessionIdParams) {
    const data = await this.service.get(t, p.id);
    return { data, checkoutUrl: this.service.checkoutUrl(data.id) };
  }

  @Post(':id/expire')
  @ApiErrors(CheckoutError.NotFound, CheckoutError.NotOpen, PaymentError.InProgress)
  @SecretKey()
  @ApiData(CheckoutSessionJson)
  @ApiHeader({ name: 'Authorization', description: 'Secret API key (sk_…)', required: true })
  async expire(@Tenant() t: Tenant, @Param() p: CheckoutSessionIdParams) {
    return { data: await this.service.expire(t, p.id) };
  }
}
