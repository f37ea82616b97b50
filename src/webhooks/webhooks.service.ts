import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { DataSource, Repository } from 'typeorm';
import type { Tenant } from '../auth/tenant';
import { badRequest, notFound } from '../common/errors/app-error';
import { Messages } from '../common/errors/messages';
import { envelope, ListEnvelope, pageOf } from '../common/pagination';
import { AppConfig } from '../config/config';
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
  WebhookAttempt,
  WebhookAttemptJson,
  WebhookDelivery,
  WebhookDeliveryJson,
  WebhookEndpoint,
  WebhookEndpointJson,
} from './webhook.entities';

/** NOTIFY channel the fan-out trigger uses; the workers LISTEN on it. */
export const DELIVERIES_CHANNEL = 'khoums_webhook_deliveries';

const ROTATION_OVERLAP_MS = 24 * 3600 * 1000;

@Injectable()
export class WebhooksService {
  constructor(
    private readonly ds: DataSource,
    private readonly config: AppConfig,
    @InjectRepository(WebhookEndpoint) private readonly endpoints: Repository<WebhookEndpoint>,
    @InjectRepository(WebhookDelivery) private readonly deliveries: Repository<WebhookDelivery>,
    @InjectRepository(WebhookAttempt) private readonly attempts: Repository<WebhookAttempt>,
  ) {}

  async create(tenant: Tenant, dto: CreateWebhookEndpointDto): Promise<WebhookEndpointJson> {
    this.assertReachable(tenant, dto.url);
    const now = new Date();
    const secret = generateSecret();
    const endpoint = Object.assign(new WebhookEndpoint(), {
      id: randomUUID(),
      organizationId: tenant.organizationId,
      environmentId: tenant.environmentId,
      url: dto.url,
      events: dto.events ? unique(dto.events) : [...DEFAULT_EVENT_KINDS],
      enabled: dto.enabled ?? true,
      secret,
      previousSecret: null,
      previousSecretExpiresAt: null,
      disabledReason: null,
      createdAt: now,
      updatedAt: now,
    } satisfies WebhookEndpoint);
    await this.endpoints.insert(endpoint);
    return toEndpointJson(endpoint, secret);
  }

  /** Newest first. */
  async list(tenant: Tenant, q: { page?: number; limit?: number }): Promise<ListEnvelope<WebhookEndpointJson>> {
    const page = pageOf(q);
    const [rows, total] = await this.endpoints.findAndCount({
      where: { environmentId: tenant.environmentId },
      order: { createdAt: 'DESC', id: 'DESC' },
      skip: page.offset,
      take: page.limit,
    });
    return envelope(rows.map((e) => toEndpointJson(e)), total, page);
  }

  async get(tenant: Tenant, id: string): Promise<WebhookEndpoint> {
    const endpoint = await this.endpoints.findOneBy({ id, environmentId: tenant.environmentId });
    if (!endpoint) throw notFound(Messages.webhookEndpointNotFound);
    return endpoint;
  }

  async update(tenant: Tenant, id: string, dto: UpdateWebhookEndpointDto): Promise<WebhookEndpointJson> {
    const endpoint = await this.get(tenant, id);
    if (dto.url !== undefined) this.assertReachable(tenant, dto.url);
    const changes: Partial<WebhookEndpoint> = { updatedAt: new Date() };
    if (dto.url !== undefined) changes.url = dto.url;
    if (dto.events !== undefined) changes.events = unique(dto.events);
    if (dto.enabled !== undefined) {
      changes.enabled = dto.enabled;
      changes.disabledReason = dto.enabled ? null : 'Disabled through the API';
    }
    await this.endpoints.update({ id: endpoint.id, environmentId: tenant.environmentId }, changes);
    // Re-enabling resumes the deliveries that waited: wake the workers.
    if (dto.enabled) await this.ds.query(`SELECT pg_notify($1, '')`, [DELIVERIES_CHANNEL]);
    return toEndpointJson(Object.assign(endpoint, changes));
  }

  async remove(tenant: Tenant, id: string): Promise<WebhookEndpointJson> {
    const endpoint = await this.get(tenant, id);
    await this.endpoints.delete({ id: endpoint.id, environmentId: tenant.environmentId });
    return toEndpointJson(endpoint);
  }

  /** A new secret; the old one keeps signing (as a second `v1,` entry) for 24 h. */
  async rotateSecret(tenant: Tenant, id: string): Promise<WebhookEndpointJson> {
    const secret = generateSecret();
    const rows: unknown = await this.ds.query(
      `UPDATE webhook_endpoints
          SET previous_secret = secret, previous_secret_expires_at = now() + $3 * interval '1 millisecond',
              secret = $4, updated_at = now()
        WHERE id = $1 AND environment_id = $2
        RETURNING id`,
      [id, tenant.environmentId, ROTATION_OVERLAP_MS, secret],
    );
    if (flattenRows(rows).length === 0) throw notFound(Messages.webhookEndpointNotFound);
    return toEndpointJson(await this.get(tenant, id), secret);
  }

  /**
   * An event addressed to this endpoint only, delivered through the same outbox, trigger and
   * worker as real ones. Its data is a sample with `test: true` and a `test_` transactionId.
   */
  async sendTestEvent(tenant: Tenant, id: string, dto: SendTestEventDto): Promise<WebhookDeliveryJson> {
    const endpoint = await this.get(tenant, id);
    const kind = dto.event ?? (endpoint.events.includes('payment-request-created') ? 'payment-request-created' : endpoint.events[0]);
    if (!endpoint.events.includes(kind)) throw badRequest(Messages.webhookEndpointDoesNotReceive(kind));
    const eventId = randomUUID();
    const now = new Date();
    return this.ds.transaction(async (m) => {
      await m.query(
        `INSERT INTO events (id, organization_id, environment_id, kind, data, created_at, endpoint_id)
         VALUES ($1, $2, $3, $4, $5, $6, $7)`,
        [eventId, tenant.organizationId, tenant.environmentId, kind, JSON.stringify(sampleData(kind, tenant, now)), now, endpoint.id],
      );
      const delivery = await m.getRepository(WebhookDelivery).findOneByOrFail({ eventId, endpointId: endpoint.id });
      return toDeliveryJson(delivery);
    });
  }

  /** Newest first. */
  async listDeliveries(tenant: Tenant, q: ListWebhookDeliveriesQuery): Promise<ListEnvelope<WebhookDeliveryJson>> {
    const page = pageOf(q);
    const [rows, total] = await this.deliveries.findAndCount({
      where: {
        environmentId: tenant.environmentId,
        ...(q.endpointId ? { endpointId: q.endpointId } : {}),
        ...(q.event ? { event: q.event } : {}),
        ...(q.status ? { status: q.status } : {}),
      },
      order: { createdAt: 'DESC', id: 'DESC' },
      skip: page.offset,
      take: page.limit,
    });
    return envelope(rows.map(toDeliveryJson), total, page);
  }

  async getDelivery(tenant: Tenant, id: string): Promise<WebhookDelivery> {
    const delivery = await this.deliveries.findOneBy({ id, environmentId: tenant.environmentId });
    if (!delivery) throw notFound(Messages.webhookDeliveryNotFound);
    return delivery;
  }

  /** Every attempt of a delivery, oldest first. */
  async listAttempts(tenant: Tenant, id: string): Promise<WebhookAttemptJson[]> {
    const delivery = await this.getDelivery(tenant, id);
    const rows = await this.attempts.find({ where: { deliveryId: delivery.id }, order: { createdAt: 'ASC', id: 'ASC' } });
    return rows.map(toAttemptJson);
  }

  /**
   * Replay: the delivery is due now and gets the whole retry schedule again. Same body and
   * `webhook-id` (the event's), so a receiver that already processed it can tell.
   */
  async retryDelivery(tenant: Tenant, id: string): Promise<WebhookDeliveryJson> {
    const rows = await this.ds.query(
      `UPDATE webhook_deliveries
          SET status = 'pending', next_attempt_at = now(), retry_index = 0, updated_at = now()
        WHERE id = $1 AND environment_id = $2
        RETURNING id`,
      [id, tenant.environmentId],
    );
    if (flattenRows(rows).length === 0) throw notFound(Messages.webhookDeliveryNotFound);
    await this.ds.query(`SELECT pg_notify($1, '')`, [DELIVERIES_CHANNEL]);
    return toDeliveryJson(await this.getDelivery(tenant, id));
  }

  private assertReachable(tenant: Tenant, url: string): void {
    if (tenant.environment === 'production' && !this.config.WEBHOOK_ALLOW_PRIVATE_URLS && !isPublicUrl(url)) {
      throw badRequest(Messages.webhookUrlMustBePublic);
    }
  }
}

function unique<T>(values: T[]): T[] {
  return [...new Set(values)];
}

/** TypeORM returns `[rows, count]` for UPDATE ... RETURNING on PostgreSQL. */
function flattenRows(result: unknown): unknown[] {
  if (Array.isArray(result) && result.length === 2 && Array.isArray(result[0]) && typeof result[1] === 'number') return result[0];
  return Array.isArray(result) ? result : [];
}

function sampleData(kind: EventKind, tenant: Tenant, now: Date): Record<string, unknown> {
  const transactionId = `test_${randomUUID().slice(0, 8)}`;
  const iso = now.toISOString();
  const request = {
    id: randomUUID(), transactionId, amount: 1500, phoneNumber: '22123456', status: 'pending', paidAt: null,
    invoiceId: null, environmentId: tenant.environmentId, createdAt: iso, updatedAt: iso,
  };
  const base = { test: true, transactionId };
  if (kind.startsWith('payment-request')) return { ...request, ...base };
  if (kind.startsWith('payment')) {
    return {
      ...base, id: randomUUID(), paymentRequestId: request.id, amount: 1500, configurationId: randomUUID(),
      phoneNumber: '22123456', status: 'completed', referenceId: null, failureReason: null, completedAt: iso,
      environmentId: tenant.environmentId, createdAt: iso, updatedAt: iso, request,
    };
  }
  return { ...base, id: randomUUID(), environmentId: tenant.environmentId, createdAt: iso };
}
