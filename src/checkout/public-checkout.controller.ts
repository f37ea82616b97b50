import { Body, Controller, Get, Param, Query, Req } from '@nestjs/common';
import { ApiExtraModels, ApiHeader, ApiOkResponse, ApiTags, getSchemaPath } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { Public } from '../auth/decorators';
import { CommonError } from '../common/errors/common-errors';
import { rawBodyOf } from '../common/http/body-parsers';
import { IDEMPOTENCY_HEADER } from '../common/http/idempotency-scope';
import { ApiErrors } from '../common/http/openapi-errors';
import { API, Post } from '../common/http/routes';
import { IdempotencyError, idempotencyError } from '../idempotency/idempotency.errors';
import { validIdempotencyKey } from '../idempotency/request-key';
import { OrganizationError } from '../organizations/organizations.errors';
import { PaymentRequestError } from '../payment-requests/payment-requests.errors';
import { PaymentError } from '../payments/payments.errors';
import { CheckoutError } from './checkout.errors';
import { CheckoutSessionIdParams } from './dto/checkout-session.dto';
import {
  PaymentStatusQuery,
  PublicPayDto,
  PublicPayJson,
  PublicPaymentStatusJson,
  PublicSessionViewJson,
  PublicSimulateTransferDto,
  SwitchMethodDto,
} from './public-checkout';
import { PublicCheckoutService } from './public-checkout.service';

/** A 200 whose body is `model` itself (these answers carry `data` and their own top-level fields). */
const ApiAnswer =
  (model: new () => object) => (target: object, key: string, descriptor: PropertyDescriptor) => {
    ApiExtraModels(model)(target, key, descriptor);
    ApiOkResponse({ schema: { $ref: getSchemaPath(model) } })(target, key, descriptor);
  };

/**
 * The request's Idempotency-Key, checked as on every POST (400 when empty, over-long or not
 * printable). Pay records it in the session's namespace; switch-method and simulate-transfer are
 * idempotent by themselves (the same choice again, a payment already settled is `skipped`), so a
 * valid key needs no record there.
 */
function idempotencyHeaderOf(req: FastifyRequest): string | undefined {
  const header = req.headers[IDEMPOTENCY_HEADER];
  if (header !== undefined && !validIdempotencyKey(header))
    throw idempotencyError(IdempotencyError.InvalidKey);
  return header;
}

/**
 * The public checkout, without a key (the session's id is the capability, as for the hosted page):
 * the view the hosted page polls, and the JSON routes of a merchant's own checkout screen
 * (docs/checkout.md "Build your own checkout screen"). Rate-limited per address like every keyless route.
 */
@ApiTags('Checkout sessions')
@Public()
@Controller(`${API}/checkout-session/public`)
export class PublicCheckoutController {
  constructor(private readonly service: PublicCheckoutService) {}

  @Get(':id')
  @ApiErrors(CheckoutError.NotFound)
  @ApiAnswer(PublicSessionViewJson)
  view(@Param() p: CheckoutSessionIdParams) {
    return this.service.view(p.id);
  }

  @Get(':id/payment-status')
  @ApiErrors(CheckoutError.NotFound, PaymentError.NotFound)
  @ApiAnswer(PublicPaymentStatusJson)
  paymentStatus(@Param() p: CheckoutSessionIdParams, @Query() q: PaymentStatusQuery) {
    return this.service.paymentStatus(p.id, q.paymentId);
  }

  @Post(':id/pay')
  @ApiErrors(
    CheckoutError.NotFound,
    CheckoutError.NotOpen,
    CheckoutError.PhoneNumberRequired,
    CommonError.InvalidPhoneNumber,
    PaymentError.MethodNotFound,
    PaymentError.PassCodeRequired,
    PaymentRequestError.AlreadyPaid,
    PaymentRequestError.Void,
    PaymentError.TooManyAttempts,
    PaymentError.InProgress,
    PaymentError.BankFailure,
    OrganizationError.NotVerifiedForProduction,
    IdempotencyError.InvalidKey,
    IdempotencyError.KeyReused,
  )
  @ApiHeader({
    name: 'Idempotency-Key',
    required: false,
    description:
      "A retry with the same key gets the first attempt's payment (keys live in the session's namespace)",
  })
  @ApiAnswer(PublicPayJson)
  pay(@Param() p: CheckoutSessionIdParams, @Body() dto: PublicPayDto, @Req() req: FastifyRequest) {
    const header = idempotencyHeaderOf(req);
    const key =
      header === undefined
        ? undefined
        : { idempotencyKey: header, keyedRequest: { method: 'POST', path: req.url, body: rawBodyOf(req) } };
    return this.service.pay(p.id, dto, key);
  }

  @Post(':id/switch-method')
  @ApiErrors(
    CheckoutError.NotFound,
    CheckoutError.NotOpen,
    PaymentError.MethodNotFound,
    PaymentError.InProgress,
    IdempotencyError.InvalidKey,
  )
  @ApiAnswer(PublicSessionViewJson)
  switchMethod(
    @Param() p: CheckoutSessionIdParams,
    @Body() dto: SwitchMethodDto,
    @Req() req: FastifyRequest,
  ) {
    idempotencyHeaderOf(req);
    return this.service.switchMethod(p.id, dto.configurationId);
  }

  @Post(':id/simulate-transfer')
  @ApiErrors(
    CheckoutError.NotFound,
    CheckoutError.NotOpen,
    PaymentError.SimulatedTransfersSandboxOnly,
    PaymentError.NotFound,
    PaymentError.NotPending,
    IdempotencyError.InvalidKey,
  )
  @ApiAnswer(PublicPaymentStatusJson)
  simulateTransfer(
    @Param() p: CheckoutSessionIdParams,
    @Body() dto: PublicSimulateTransferDto,
    @Req() req: FastifyRequest,
  ) {
    idempotencyHeaderOf(req);
    return this.service.simulateTransfer(p.id, dto.paymentId);
  }
}
