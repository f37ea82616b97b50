import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { EnvironmentScope } from '../organizations/tenant';
import { envelope, ListEnvelope, pageOf } from '../common/pagination';
import { AppConfig } from '../config/config';
import type { KeysetPage, KeysetQuery } from '../database/keyset';
import { ConnectedAccountsService } from '../organizations/connected-accounts.service';
import { isPublicUrl } from './address-policy';
import type {
  CreateWebhookEndpointDto,
  ListWebhookDeliveriesQuery,
  SendTestEventDto,
  UpdateWebhookEndpointDto,
} from './dto/webhook.dto';
import { DEFAULT_EVENT_KINDS, EventKind } from './event-kinds';
import { generateSecret } from './signing';
import {
  toAttemptJson,
  toDeliveryJson,
  toEndpointJson,
  WebhookAttemptJson,
  WebhookDelivery,
  WebhookDeliveryJson,
  WebhookEndpoint,
  WebhookEndpointJson,
} from './webhook';
import { WebhookError, webhookError } from './webhooks.errors';
import { DeliveryLogItem, DeliverySearch, WebhooksRepository } from './webhooks.repository';

const ROTATION_OVERLAP_MS = 24 * 3600 * 1000;
/** Each endpoint may hold WEBHOOK_ENDPOINT_CONCURRENCY delivery slots; this bounds one environment's share. */
export const MAX_ENDPOINTS_PER_ENVIRONMENT = 16;

@Injectable()
export class WebhooksService {
  constructor(
    private readonly repo: WebhooksRepository,
    private readonly config: AppConfig,
    private readonly accounts: ConnectedAccountsService,
  ) {}

  async create(tenant: EnvironmentScope, dto: CreateWebhookEndpointDto): Promise<WebhookEndpointJson> {
    this.assertReachable(tenant, dto.url);
    if (dto.connected) await this.accounts.assertPlatform(tenant);
    const now = new Date();
    const secret = generateSecret();
    const endpoint: WebhookEndpoint = {
      id: randomUUID(),
      organizationId: tenant.organizationId,
      environmentId: tenant.environmentId,
      url: dto.url,
      events: dto.events ? unique(dto.events) : [...DEFAULT_EVENT_KINDS],
      enabled: dto.enabled ?? true,
      connected: dto.connected ?? false,
      disabledReason: null,
      createdAt: now,
      updatedAt: now,
    };
    if (!(await this.repo.insertEndpoint(endpoint, secret, MAX_ENDPOINTS_PER_ENVIRONMENT)))
      throw webhookError(WebhookError.TooManyEndpoints);
    return toEndpointJson(endpoint, secret);
  }

  /** Newest first. */
  async list(
    tenant: EnvironmentScope,
    q: { page?: number; limit?: number },
  ): Promise<ListEnvelope<WebhookEndpointJson>> {
    const page = pageOf(q);
    const { items, total } = await this.repo.endpoints(tenant.environmentId, page);
    return envelope(
      items.map((e) => toEndpointJson(e)),
      total,
      page,
    );
  }

  async get(tenant: EnvironmentScope, id: string): Promise<WebhookEndpoint> {
    const endpoint = await this.repo.endpoint(tenant.environmentId, id);
    if (!endpoint) throw webhookError(WebhookError.EndpointNotFound);
    return endpoint;
  }

  async update(
    tenant: EnvironmentScope,
    id: string,
    dto: UpdateWebhookEndpointDto,
  ): Promise<WebhookEndpointJson> {
    if (dto.url !== undefined && !this.reachable(dto.url)) {
      await this.get(tenant, id); // an unknown endpoint is 404 whatever the input
      this.assertReachable(tenant, dto.url);
    }
    const updated = await this.repo.updateEndpoint(tenant.environmentId, id, {
      url: dto.url,
      events: dto.events && unique(dto.events),
      enabled: dto.enabled,
      disabledReason: dto.enabled === undefined ? undefined : dto.enabled ? null : 'Disabled through the API',
    });
    if (!updated) throw webhookError(WebhookError.EndpointNotFound);
    // Re-enabling resumes the deliveries that waited: wake the workers.
    if (dto.enabled) await this.repo.notifyWorkers();
    return toEndpointJson(updated);
  }

  async remove(tenant: EnvironmentScope, id: string): Promise<WebhookEndpointJson> {
    const removed = await this.repo.deleteEndpoint(tenant.environmentId, id);
    if (!removed) throw webhookError(WebhookError.EndpointNotFound);
    return toEndpointJson(removed);
  }

  /** A new secret; the old one keeps signing (as a second `v1,` entry) for 24 h. */
  async rotateSecret(tenant: EnvironmentScope, id: string): Promise<WebhookEndpointJson> {
    const secret = generateSecret();
    const endpoint = await this.repo.rotateSecret(tenant.environmentId, id, secret, ROTATION_OVERLAP_MS);
    if (!endpoint) throw webhookError(WebhookError.EndpointNotFound);
    return toEndpointJson(endpoint, secret);
  }

  /**
   * An event addressed to this endpoint only, delivered through the same outbox, trigger and
   * worker as real ones. Its data is a sample with `test: true` and a `test_` transactionId.
   */
  async sendTestEvent(
    tenant: EnvironmentScope,
    id: string,
    dto: SendTestEventDto,
  ): Promise<WebhookDeliveryJson> {
    const endpoint = await this.get(tenant, id);
    const kind =
      dto.event ??
      (endpoint.events.includes('payment-request-created') ? 'payment-request-created' : endpoint.events[0]);
    if (!endpoint.events.includes(kind)) throw webhookError(WebhookError.EndpointDoesNotReceive, kind);
    const now = new Date();
    const delivery = await this.repo.insertEventFor(endpoint.id, {
      id: randomUUID(),
      organizationId: tenant.organizationId,
      environmentId: tenant.environmentId,
      kind,
      data: sampleData(kind, tenant, now),
      createdAt: now,
    });
    return toDeliveryJson(delivery);
  }

  /** Newest first. */
  async listDeliveries(
    tenant: EnvironmentScope,
    q: ListWebhookDeliveriesQuery,
  ): Promise<ListEnvelope<WebhookDeliveryJson>> {
    const page = pageOf(q);
    const { items, total } = await this.repo.deliveries(tenant.environmentId, q, page);
    return envelope(items.map(toDeliveryJson), total, page);
  }

  async getDelivery(tenant: EnvironmentScope, id: string): Promise<WebhookDelivery> {
    const delivery = await this.repo.delivery(tenant.environmentId, id);
    if (!delivery) throw webhookError(WebhookError.DeliveryNotFound);
    return delivery;
  }

  /** The environment's endpoints, newest first (the delivery log's filter). */
  allEndpoints(environmentId: string): Promise<WebhookEndpoint[]> {
    return this.repo.allEndpoints(environmentId);
  }

  /** A keyset page of the environment's delivery log, newest first, each with its endpoint's URL. */
  searchDeliveries(
    environmentId: string,
    filter: DeliverySearch,
    page: KeysetQuery,
  ): Promise<KeysetPage<DeliveryLogItem>> {
    return this.repo.searchDeliveries(environmentId, filter, page);
  }

  /** The deliveries of the events about one object of the environment (a payment request), newest first. */
  deliveriesConcerning(environmentId: string, subjectId: string): Promise<DeliveryLogItem[]> {
    return this.repo.deliveriesConcerning(environmentId, subjectId);
  }

  /** A delivery of the environment with its endpoint's URL and its event's body, or undefined. */
  deliveryWithEvent(
    environmentId: string,
    id: string,
  ): Promise<(DeliveryLogItem & { eventData: unknown; eventCreatedAt: Date }) | undefined> {
    return this.repo.deliveryWithEvent(environmentId, id);
  }

  /** Deliveries still to make, in every environment (the outbox's backlog, for the metrics). */
  countPendingDeliveries(): Promise<number> {
    return this.repo.countPendingDeliveries();
  }

  /** Every attempt of a delivery, oldest first. */
  async listAttempts(tenant: EnvironmentScope, id: string): Promise<WebhookAttemptJson[]> {
    const delivery = await this.getDelivery(tenant, id);
    return (await this.repo.attempts(delivery.id)).map(toAttemptJson);
  }

  /**
   * Replay: the delivery is due now and gets the whole retry schedule again. Same body and
   * `webhook-id` (the event's), so a receiver that already processed it can tell. An event past
   * EVENT_RETENTION_DAYS is not found, whether or not it is pruned yet.
   */
  async retryDelivery(tenant: EnvironmentScope, id: string): Promise<WebhookDeliveryJson> {
    const delivery = await this.repo.replay(tenant.environmentId, id, this.config.EVENT_RETENTION_DAYS);
    if (!delivery) throw webhookError(WebhookError.DeliveryNotFound);
    await this.repo.notifyWorkers();
    return toDeliveryJson(delivery);
  }

  private assertReachable(tenant: EnvironmentScope, url: string): void {
    if (this.reachable(url)) return;
    throw webhookError(
      tenant.environment === 'production'
        ? WebhookError.UrlMustBePublicInProduction
        : WebhookError.UrlMustBePublic,
    );
  }

  /**
   * Endpoints of both environments must be public addresses unless the operator allows private
   * ones: otherwise any sign-up could make the service call its own network.
   */
  private reachable(url: string): boolean {
    return this.config.WEBHOOK_ALLOW_PRIVATE_URLS || isPublicUrl(url);
  }
}

function unique<T>(values: T[]): T[] {
  return [...new Set(values)];
}

function sampleData(kind: EventKind, tenant: EnvironmentScope, now: Date): Record<string, unknown> {
  const transactionId = `test_${randomUUID().slice(0, 8)}`;
  const iso = now.toISOString();
  const request = {
    id: randomUUID(),
    transactionId,
    amount: 1500,
    phoneNumber: '22123456',
    status: 'pending',
    paidAt: null,
    invoiceId: null,
    environmentId: tenant.environmentId,
    createdAt: iso,
    updatedAt: iso,
  };
  const base = { test: true, transactionId };
  if (kind.startsWith('payment-request')) return { ...request, ...base };
  if (kind.startsWith('payment')) {
    return {
      ...base,
      id: randomUUID(),
      paymentRequestId: request.id,
      amount: 1500,
      configurationId: randomUUID(),
      phoneNumber: '22123456',
      status: 'completed',
      referenceId: null,
      failureReason: null,
      completedAt: iso,
      refundedAmount: 0,
      environmentId: tenant.environmentId,
      createdAt: iso,
      updatedAt: iso,
      request,
    };
  }
  return { ...base, id: randomUUID(), environmentId: tenant.environmentId, createdAt: iso };
}
