import { Injectable } from '@nestjs/common';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/** The route label of a request that matched no route: never the raw path (unbounded, may hold ids). */
export const UNMATCHED_ROUTE = 'unmatched';

/**
 * The Prometheus metrics of one instance (docs/architecture.md, "Metrics and traces"), served by `GET
 * /metrics`. One registry per application, so two apps in one process (the tests) count apart.
 * Modules count their events on these; values only known when scraped (the pool, the outbox)
 * are read then, by the collectors registered with `onScrape`.
 */
@Injectable()
export class Metrics {
  readonly registry = new Registry();
  private readonly scrapeHooks: (() => Promise<void> | void)[] = [];

  readonly httpRequests = new Counter({
    name: 'khoums_http_requests_total',
    help: 'HTTP requests answered, by method, route template and status',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [this.registry],
  });
  readonly httpDuration = new Histogram({
    name: 'khoums_http_request_duration_seconds',
    help: 'Time to answer an HTTP request',
    labelNames: ['method', 'route'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });
  readonly payments = new Counter({
    name: 'khoums_payments_total',
    help: 'Payments opened (pending) and settled (completed, failed), by bank app and environment',
    labelNames: ['method', 'status', 'environment'] as const,
    registers: [this.registry],
  });
  readonly bankCallDuration = new Histogram({
    name: 'khoums_bank_call_duration_seconds',
    help: 'Calls to the banks (charge, status), by bank app and outcome',
    labelNames: ['method', 'operation', 'outcome'] as const,
    buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [this.registry],
  });
  readonly webhookDeliveries = new Counter({
    name: 'khoums_webhook_deliveries_total',
    help: 'Webhook delivery attempts, by outcome (delivered, failed)',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });
  readonly webhookLag = new Histogram({
    name: 'khoums_webhook_delivery_lag_seconds',
    help: 'From an event being recorded to an attempt to deliver it',
    buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 5, 30, 300, 3600, 86_400],
    registers: [this.registry],
  });
  readonly outboxPending = new Gauge({
    name: 'khoums_outbox_pending',
    help: 'Webhook deliveries not yet delivered nor given up',
    registers: [this.registry],
  });
  readonly billingInvoices = new Counter({
    name: 'khoums_billing_invoices_created_total',
    help: 'Invoices created by the billing run',
    registers: [this.registry],
  });
  readonly payouts = new Counter({
    name: 'khoums_payouts_total',
    help: 'Payouts, by status',
    labelNames: ['status'] as const,
    registers: [this.registry],
  });
  readonly refunds = new Counter({
    name: 'khoums_refunds_total',
    help: 'Refunds, by status',
    labelNames: ['status'] as const,
    registers: [this.registry],
  });
  readonly transfersReceived = new Counter({
    name: 'khoums_transfers_received_total',
    help: 'Incoming transfers received from the bank gateways, by outcome (matched, unmatched, duplicate: already stored) and source (notification, poll)',
    labelNames: ['outcome', 'source'] as const,
    registers: [this.registry],
  });
  readonly transferMatchDelay = new Histogram({
    name: 'khoums_transfer_to_payment_seconds',
    help: "From an incoming transfer's arrival at the bank (its receivedAt) to the completion of the payment it matched",
    buckets: [0.1, 0.25, 0.5, 1, 2.5, 5, 15, 30, 60, 300, 900],
    registers: [this.registry],
  });
  readonly dbPool = new Gauge({
    name: 'khoums_db_pool_connections',
    help: 'Connections of the PostgreSQL pool, by state (active, idle, waiting: requests waiting for one)',
    labelNames: ['state'] as const,
    registers: [this.registry],
  });

  readonly dbReplicaLag = new Gauge({
    name: 'khoums_db_replica_lag_seconds',
    help: 'How far the read replica (DATABASE_READ_URL) is behind the leader; absent while it does not answer',
    registers: [this.registry],
  });

  constructor() {
    collectDefaultMetrics({ register: this.registry });
  }

  /** Reads a value when the metrics are scraped. */
  onScrape(hook: () => Promise<void> | void): void {
    this.scrapeHooks.push(hook);
  }

  /** The Prometheus text exposition. */
  async render(): Promise<{ contentType: string; body: string }> {
    await Promise.all(this.scrapeHooks.map(async (hook) => hook()));
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }
}
