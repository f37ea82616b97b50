import { Body, Controller, Get, Param, Query } from '@nestjs/common';
import { ApiHeader, ApiTags } from '@nestjs/swagger';
import { SecretKey } from '../auth/decorators';
import { Tenant } from '../auth/tenant';
import { PaginationQuery } from '../common/pagination';
import { ApiData, ApiDataArray, ApiList } from '../common/http/openapi';
import { API, Delete, Patch, Post } from '../common/http/routes';
import {
  CreateWebhookEndpointDto,
  ListWebhookDeliveriesQuery,
  SendTestEventDto,
  UpdateWebhookEndpointDto,
  WebhookIdParams,
} from './dto/webhook.dto';
import {
  toDeliveryJson,
  toEndpointJson,
  WebhookAttemptJson,
  WebhookDeliveryJson,
  WebhookEndpointJson,
} from './webhook';
import { WebhooksService } from './webhooks.service';
import { ApiErrors } from '../common/http/openapi-errors';
import { OrganizationError } from '../organizations/organizations.errors';
import { WebhookError } from './webhooks.errors';

@ApiTags('Webhook endpoints')
@ApiHeader({ name: 'Authorization', description: 'Secret API key (sk_…)', required: true })
@Controller(`${API}/webhook-endpoints`)
export class WebhookEndpointsController {
  constructor(private readonly service: WebhooksService) {}

  @Post()
  @ApiErrors(
    WebhookError.UrlMustBePublic,
    WebhookError.UrlMustBePublicInProduction,
    WebhookError.TooManyEndpoints,
    OrganizationError.OnlyPlatforms,
  )
  @SecretKey()
  @ApiData(WebhookEndpointJson)
  async create(@Tenant() t: Tenant, @Body() dto: CreateWebhookEndpointDto) {
    return { data: await this.service.create(t, dto) };
  }

  @Get()
  @SecretKey()
  @ApiList(WebhookEndpointJson)
  list(@Tenant() t: Tenant, @Query() q: PaginationQuery) {
    return this.service.list(t, q);
  }

  @Get(':id')
  @ApiErrors(WebhookError.EndpointNotFound)
  @SecretKey()
  @ApiData(WebhookEndpointJson)
  async get(@Tenant() t: Tenant, @Param() p: WebhookIdParams) {
    return { data: toEndpointJson(await this.service.get(t, p.id)) };
  }

  @Patch(':id')
  @ApiErrors(
    WebhookError.UrlMustBePublic,
    WebhookError.UrlMustBePublicInProduction,
    WebhookError.EndpointNotFound,
  )
  @SecretKey()
  @ApiData(WebhookEndpointJson)
  async update(@Tenant() t: Tenant, @Param() p: WebhookIdParams, @Body() dto: UpdateWebhookEndpointDto) {
    return { data: await this.service.update(t, p.id, dto) };
  }

  @Delete(':id')
  @ApiErrors(WebhookError.EndpointNotFound)
  @SecretKey()
  @ApiData(WebhookEndpointJson)
  async remove(@Tenant() t: Tenant, @Param() p: WebhookIdParams) {
    return { data: await this.service.remove(t, p.id) };
  }

  @Post(':id/rotate-secret')
  @ApiErrors(WebhookError.EndpointNotFound)
  @SecretKey()
  @ApiData(WebhookEndpointJson)
  async rotate(@Tenant() t: Tenant, @Param() p: WebhookIdParams) {
    return { data: await this.service.rotateSecret(t, p.id) };
  }

  @Post(':id/test')
  @ApiErrors(WebhookError.EndpointNotFound, WebhookError.EndpointDoesNotReceive)
  @SecretKey()
  @ApiData(WebhookDeliveryJson)
  async test(@Tenant() t: Tenant, @Param() p: WebhookIdParams, @Body() dto: SendTestEventDto) {
    return { data: await this.service.sendTestEvent(t, p.id, dto) };
  }
}

@ApiTags('Webhook deliveries')
@ApiHeader({ name: 'Authorization', description: 'Secret API key (sk_…)', required: true })
@Controller(`${API}/webhook-deliveries`)
export class WebhookDeliveriesController {
  constructor(private readonly service: WebhooksService) {}

  @Get()
  @SecretKey()
  @ApiList(WebhookDeliveryJson)
  list(@Tenant() t: Tenant, @Query() q: ListWebhookDeliveriesQuery) {
    return this.service.listDeliveries(t, q);
  }

  @Get(':id')
  @ApiErrors(WebhookError.DeliveryNotFound)
  @SecretKey()
  @ApiData(WebhookDeliveryJson)
  async get(@Tenant() t: Tenant, @Param() p: WebhookIdParams) {
    return { data: toDeliveryJson(await this.service.getDelivery(t, p.id)) };
  }

  /** The log: every attempt with its status code, duration, error and the first 1 KB of the response. */
  @Get(':id/attempts')
  @ApiErrors(WebhookError.DeliveryNotFound)
  @SecretKey()
  @ApiDataArray(WebhookAttemptJson)
  async attempts(@Tenant() t: Tenant, @Param() p: WebhookIdParams) {
    return { data: await this.service.listAttempts(t, p.id) };
  }

  @Post(':id/retry')
  @ApiErrors(WebhookError.DeliveryNotFound, WebhookError.UrlMustBePublic)
  @SecretKey()
  @ApiData(WebhookDeliveryJson)
  async retry(@Tenant() t: Tenant, @Param() p: WebhookIdParams) {
    return { data: await this.service.retryDelivery(t, p.id) };
  }
}
