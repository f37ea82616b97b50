import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { EventKind } from './event-kinds';

export type DeliveryStatus = 'pending' | 'succeeded' | 'failed';
export const DELIVERY_STATUSES = ['pending', 'succeeded', 'failed'] as const;

@Entity('webhook_endpoints')
export class WebhookEndpoint {
  @PrimaryColumn('uuid') id!: string;
  @Column('uuid', { name: 'organization_id' }) organizationId!: string;
  @Column('uuid', { name: 'environment_id' }) environmentId!: string;
  @Column('text') url!: string;
  @Column('text', { array: true }) events!: EventKind[];
  @Column('boolean') enabled!: boolean;
  /** Signs deliveries. Never logged; returned only by create and rotate. */
  @Column('text', { select: false }) secret!: string;
  @Column('text', { name: 'previous_secret', nullable: true, select: false }) previousSecret!: string | null;
  @Column('timestamptz', { name: 'previous_secret_expires_at', nullable: true }) previousSecretExpiresAt!: Date | null;
  @Column('text', { name: 'disabled_reason', nullable: true }) disabledReason!: string | null;
  @Column('timestamptz', { name: 'created_at' }) createdAt!: Date;
  @Column('timestamptz', { name: 'updated_at' }) updatedAt!: Date;
}

@Entity('webhook_deliveries')
export class WebhookDelivery {
  @PrimaryColumn('uuid') id!: string;
  @Column('uuid', { name: 'event_id' }) eventId!: string;
  @Column('uuid', { name: 'endpoint_id' }) endpointId!: string;
  @Column('uuid', { name: 'environment_id' }) environmentId!: string;
  @Column('text') event!: EventKind;
  @Column('text') status!: DeliveryStatus;
  @Column('integer') attempts!: number;
  @Column('integer', { name: 'retry_index' }) retryIndex!: number;
  @Column('timestamptz', { name: 'next_attempt_at', nullable: true }) nextAttemptAt!: Date | null;
  @Column('integer', { name: 'last_status_code', nullable: true }) lastStatusCode!: number | null;
  @Column('text', { name: 'last_error', nullable: true }) lastError!: string | null;
  @Column('text', { name: 'last_response_snippet', nullable: true }) lastResponseSnippet!: string | null;
  @Column('timestamptz', { name: 'created_at' }) createdAt!: Date;
  @Column('timestamptz', { name: 'updated_at' }) updatedAt!: Date;
}

@Entity('webhook_attempts')
export class WebhookAttempt {
  @PrimaryColumn('uuid') id!: string;
  @Column('uuid', { name: 'delivery_id' }) deliveryId!: string;
  @Column('integer', { name: 'status_code', nullable: true }) statusCode!: number | null;
  @Column('integer', { name: 'duration_ms' }) durationMs!: number;
  @Column('text', { nullable: true }) error!: string | null;
  @Column('text', { name: 'response_snippet', nullable: true }) responseSnippet!: string | null;
  @Column('timestamptz', { name: 'created_at' }) createdAt!: Date;
}

/** CONTRACT.md "Webhook endpoint"; `secret` only where the caller passes it (create, rotate). */
export interface WebhookEndpointJson {
  id: string;
  url: string;
  events: EventKind[];
  enabled: boolean;
  environmentId: string;
  createdAt: string;
  secret?: string;
}

export function toEndpointJson(e: WebhookEndpoint, secret?: string): WebhookEndpointJson {
  return {
    id: e.id,
    url: e.url,
    events: e.events,
    enabled: e.enabled,
    environmentId: e.environmentId,
    createdAt: e.createdAt.toISOString(),
    ...(secret === undefined ? {} : { secret }),
  };
}

/** CONTRACT.md "Webhook delivery". */
export interface WebhookDeliveryJson {
  id: string;
  eventId: string;
  endpointId: string;
  event: EventKind;
  status: DeliveryStatus;
  attempts: number;
  lastStatusCode: number | null;
  lastError: string | null;
  lastResponseSnippet: string | null;
  nextAttemptAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export function toDeliveryJson(d: WebhookDelivery): WebhookDeliveryJson {
  return {
    id: d.id,
    eventId: d.eventId,
    endpointId: d.endpointId,
    event: d.event,
    status: d.status,
    attempts: d.attempts,
    lastStatusCode: d.lastStatusCode,
    lastError: d.lastError,
    lastResponseSnippet: d.lastResponseSnippet,
    nextAttemptAt: d.nextAttemptAt?.toISOString() ?? null,
    createdAt: d.createdAt.toISOString(),
    updatedAt: d.updatedAt.toISOString(),
  };
}

export interface WebhookAttemptJson {
  id: string;
  statusCode: number | null;
  durationMs: number;
  error: string | null;
  responseSnippet: string | null;
  createdAt: string;
}

export function toAttemptJson(a: WebhookAttempt): WebhookAttemptJson {
  return {
    id: a.id,
    statusCode: a.statusCode,
    durationMs: a.durationMs,
    error: a.error,
    responseSnippet: a.responseSnippet,
    createdAt: a.createdAt.toISOString(),
  };
}
