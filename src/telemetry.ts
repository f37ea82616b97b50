import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { ATTR_SERVICE_NAME } from '@opentelemetry/semantic-conventions';

/** Paths not worth a trace: the load balancer's probes and Prometheus's scrapes. */
const UNTRACED = /^\/(health|metrics)(\/|\?|$)/;

/**
 * OpenTelemetry traces (docs/architecture.md, "Metrics and traces"): HTTP requests (served and
 * sent), PostgreSQL statements, and the bank calls and webhook deliveries their services trace,
 * exported over OTLP/HTTP (JSON) to `endpoint`. Without an endpoint nothing is started and the
 * API's tracer stays a no-op. It must run before `pg` and `http` are first required (their
 * instrumentation patches them as they load): main.ts imports this file first.
 */
export function startTelemetry(endpoint: string | undefined): NodeTracerProvider | undefined {
  if (!endpoint) return undefined;
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ [ATTR_SERVICE_NAME]: process.env.OTEL_SERVICE_NAME ?? 'khoums' }),
    spanProcessors: [
      new BatchSpanProcessor(new OTLPTraceExporter({ url: `${endpoint.replace(/\/+$/, '')}/v1/traces` })),
    ],
  });
  // Sets the W3C trace-context propagator and the async-local context, which carries a request's
  // span through its awaits.
  provider.register();
  registerInstrumentations({
    tracerProvider: provider,
    instrumentations: [
      new HttpInstrumentation({ ignoreIncomingRequestHook: (req) => UNTRACED.test(req.url ?? '') }),
      new PgInstrumentation(),
    ],
  });
  return provider;
}

/** The process's tracing, started on import when OTEL_EXPORTER_OTLP_ENDPOINT is set. */
export const telemetry = startTelemetry(process.env.OTEL_EXPORTER_OTLP_ENDPOINT || undefined);
