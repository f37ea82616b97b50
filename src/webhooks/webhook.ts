import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { EVENT_KINDS, type EventKind } from './event-kinds';

export const DELIVERY_STATUSES = ['pending', 'succeeded', 'failed'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** An endpoint as the code handles it. Its secrets are read only by the delivery worker. */
export interface WebhookEndpoint {
  id: string;
  organizationId: string;
  environmentId: string;
  url: string;
  events: EventKind[];
  enabled: boolean;
  /** A platform's endpoint that receives its connected accounts' events (docs/platforms.md). */
  connected: boolean;
  disabledReason: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface WebhookDelivery {
  id: string;
  eventId: string;
  endpointId: string;
  environmentId: string;
  event: EventKind;
  status: DeliveryStatus;
  attempts: number;
  retryIndex: number;
  nextAttemptAt: Date | null;
  lastStatusCode: number | null;
  lastError: string | null;
  lastResponseSnippet: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface WebhookAttempt {
  id: string;
  deliveryId: string;
  statusCode: number | null;
  durationMs: number;
  error: string | null;
  responseSnippet: string | null;
  createdAt: Date;
}

/** A webhook endpoint, as the API shows it; `secret` only where the caller passes it (create, rotate). */
export class WebhookEndpointJson {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ format: 'uri' }) url!: string;
  @ApiProperty({ enum: EVENT_KINDS, isArray: true }) events!: EventKind[];
  @ApiProperty() enabled!: boolean;
  @ApiProperty({
    description: "A platform's endpoint that also receives the events of its connected accounts",
  })
  connected!: boolean;
  @ApiProperty({ format: 'uuid' }) environmentId!: string;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
  @ApiPropertyOptional({
    description: 'The signing secret (`whsec_…`): only in the answers of create and rotate-secret',
  })
  secret?: string;
}

export function toEndpointJson(e: WebhookEndpoint, secret?: string): WebhookEndpointJson {
  return {
    id: e.id,
    url: e.url,
    events: e.events,
    enabled: e.enabled,
    connected: e.connected,
    environmentId: e.environmentId,
    createdAt: e.createdAt.toISOString(),
    ...(secret === undefined ? {} : { secret }),
  };
}

/** A webhook delivery, as the API shows it. */
export class WebhookDeliveryJson {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ format: 'uuid', description: 'The event id: `webhook-id` of every attempt' })
  eventId!: string;
  @ApiProperty({ format: 'uuid' }) endpointId!: string;
  @ApiProperty({ enum: EVENT_KINDS }) event!: EventKind;
  @ApiProperty({ enum: DELIVERY_STATUSES }) status!: DeliveryStatus;
  @ApiProperty({ type: 'integer' }) attempts!: number;
  @ApiProperty({ type: 'integer', nullable: true }) lastStatusCode!: number | null;
  @ApiProperty({ type: String, nullable: true }) lastError!: string | null;
  @ApiProperty({ type: String, nullable: true }) lastResponseSnippet!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) nextAttemptAt!: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
  @ApiProperty({ format: 'date-time' }) updatedAt!: string;
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

/** One try of a delivery, as the delivery log shows it. */
export class WebhookAttemptJson {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ type: 'integer', nullable: true }) statusCode!: number | null;
  @ApiProperty({ type: 'integer' }) durationMs!: number;
  @ApiProperty({ type: String, nullable: true }) error!: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'The first 1 KB of the answer' })
  responseSnippet!: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt!: string;
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
