import fastifyFormbody from '@fastify/formbody';
import { NestFactory } from '@nestjs/core';
import { LogController } from 'fastify';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import type { Type } from '@nestjs/common';
import type { IncomingMessage } from 'node:http';
import type { DestinationStream } from 'pino';
import { AppModule } from './app.module';
import { formParser, registerJsonParser } from './common/http/body-parsers';
import { registerCors } from './common/http/cors';
import { registerFavicon } from './common/http/favicon';
import { registerUploads } from './common/http/uploads';
import { idempotencyScope } from './common/http/idempotency-scope';
import { answerClientError, answerFrameworkError } from './common/http/error.filter';
import { loggableUrl } from './common/http/loggable-url';
import { requestId } from './common/http/request-id';
import { createLogger, NestPinoLogger } from './common/logging/logger';
import { Metrics, UNMATCHED_ROUTE } from './common/metrics/metrics';
import { IdempotencyKeyRunner } from './idempotency/idempotency-key-runner';
import { documentIdempotencyKey, IDEMPOTENCY_KEY_ERRORS } from './idempotency/openapi';
import { documentErrors } from './common/http/openapi-errors';
import { apiKeyErrors, documentAccountHeader } from './auth/openapi';
import type { AppConfig } from './config/config';

/** The probes' paths (src/health/). */
const HEALTH_PATHS = new Set(['/health', '/health/', '/health/ready', '/health/ready/']);

export interface AppOptions {
  config: AppConfig;
  databaseUrl: string;
  /** Where logs go (stdout by default); tests capture them. */
  logStream?: DestinationStream;
  /** More modules (tests). */
  modules?: Type[];
}

/**
 * The configured application, shared by `main.ts`, the tests and the benchmark.
 *
 * NestJS runs on Fastify rather than Express: on this 2-core machine a bare Express 5 route
 * served about 3,400 req/s where Fastify served 15,800 (bare node:http: 16,500), and the
 * service's throughput target is set against a bare node:http ceiling.
 */
export async function createApp(options: AppOptions): Promise<NestFastifyApplication> {
  const logger = createLogger(options.config.LOG_LEVEL, options.logStream, options.config.LOG_FORMAT);
  const adapter = new FastifyAdapter({
    loggerInstance: logger,
    logController: new LogController({ disableRequestLogging: true, requestIdLogLabel: 'requestId' }),
    genReqId: (req: IncomingMessage) => requestId(req),
    bodyLimit: 100 * 1024,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 1000 },
    return503OnClosing: true,
    frameworkErrors: answerFrameworkError,
    clientErrorHandler: answerClientError,
    trustProxy: options.config.TRUST_PROXY,
  });
  const app = await NestFactory.create<NestFastifyApplication>(AppModule.forRoot(options), adapter, {
    logger: new NestPinoLogger(logger),
    bodyParser: false,
  });

  const fastify = app.getHttpAdapter().getInstance();
  registerJsonParser(fastify);
  registerCors(fastify);
  registerFavicon(fastify);
  await app.register(fastifyFormbody, { bodyLimit: 100 * 1024, parser: formParser });
  // Every response names its request, and no browser sniffs a body into another type than it says
  // (an error's text, a redirect's, a probe's JSON): set once here rather than on each kind of answer.
  // The go-live application's documents (docs/going-live.md); any other multipart body is 415.
  await registerUploads(app, ['/dashboard/go-live']);
  fastify.addHook('onRequest', (req, reply, done) => {
    void reply.header('x-request-id', req.id).header('x-content-type-options', 'nosniff');
    done();
  });
  // A request with an Idempotency-Key runs its POST once per key (src/idempotency/idempotency-key-runner.ts).
  fastify.addHook('preHandler', idempotencyScope(app.get(IdempotencyKeyRunner)));
  // One line per request, written after the response; never headers (so never an API key). Health
  // probes (every few seconds from a load balancer) are logged at debug, not to drown the rest.
  // Counted by route template (an unmatched path under one label: never raw ids), when metrics are
  // served (METRICS_TOKEN): otherwise nobody reads them.
  const metrics = options.config.METRICS_TOKEN ? app.get(Metrics) : undefined;
  fastify.addHook('onResponse', (req, reply, done) => {
    if (metrics) {
      const route = req.routeOptions.url ?? UNMATCHED_ROUTE;
      metrics.httpRequests.inc({ method: req.method, route, status: reply.statusCode });
      metrics.httpDuration.observe({ method: req.method, route }, reply.elapsedTime / 1000);
    }
    const level = HEALTH_PATHS.has(req.url.split('?')[0]) ? 'debug' : 'info';
    req.log[level](
      {
        method: req.method,
        url: loggableUrl(req.url),
        statusCode: reply.statusCode,
        ms: Math.round(reply.elapsedTime),
      },
      'request',
    );
    done();
  });

  // Built on its first request: the CLI's application (`src/cli/main.ts`) never serves it.
  SwaggerModule.setup('api/docs', app, () => apiDocument(app), {
    jsonDocumentUrl: 'api/docs-json',
  });
  return app;
}

/** The OpenAPI document of the application's routes (with the routes of its extra modules). */
function apiDocument(app: NestFastifyApplication): OpenAPIObject {
  const document = SwaggerModule.createDocument(
    app,
    new DocumentBuilder()
      .setTitle('Khoums API')
      .setDescription(
        'Payment requests, bank-app payments, hosted checkout sessions and signed webhooks, in a Sandbox and a ' +
          'Production environment. Send the API key (sk_… or pk_…) as the `Authorization` header.',
      )
      .setVersion('1')
      .addApiKey({ type: 'apiKey', in: 'header', name: 'Authorization' }, 'apiKey')
      .build(),
  );
  documentErrors(app, document, (route, method) => [
    ...apiKeyErrors(route),
    ...(method === 'get' ? [] : IDEMPOTENCY_KEY_ERRORS),
  ]);
  return documentAccountHeader(documentIdempotencyKey(document));
}
