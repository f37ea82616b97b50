import type { EventKind } from './event-kinds';

export type DeliveryStatus = 'pending' | 'succeeded' | 'failed';
export const DELIVERY_STATUSES = ['pending', 'succeeded', 'failed'] as const;

/** An endpoint as the code handles it. Its secrets are read only by the delivery worker. */
export interface WebhookEndpoint {
  id: string;
  organizationId: string;
  environmentId: string;
  url: string;
  events: EventKind[];
  enabled: boolean;
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
