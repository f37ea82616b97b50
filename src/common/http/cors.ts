import { RouteConfig } from '@nestjs/platform-fastify';
import type { FastifyInstance } from 'fastify';

/**
 * Cross-origin access for the routes a merchant's web page calls with a publishable key (look-up,
 * payment methods, pay), so the client library works in a browser. Any origin: the key travels in
 * a header, never in a cookie, and publishable keys are made to be seen. Every other route sends
 * no CORS header, so a browser refuses to let another site read it.
 */
export const CrossOrigin = () => RouteConfig({ crossOrigin: true });

const ALLOW_HEADERS = 'Authorization, Content-Type, Idempotency-Key, X-Request-Id';
const EXPOSE_HEADERS = 'X-Request-Id, Idempotent-Replayed, Retry-After';

/**
 * Answers the preflight (OPTIONS) of every route marked `CrossOrigin()` and adds the CORS headers
 * to its answers, errors included. Register before the routes are (before `app.init()`).
 */
export function registerCors(fastify: FastifyInstance): void {
  const preflighted = new Set<string>();
  fastify.addHook('onRoute', (route) => {
    const config = route.config as { crossOrigin?: boolean } | undefined;
    if (!config?.crossOrigin || preflighted.has(route.url)) return;
    preflighted.add(route.url);
    fastify.route({
      method: 'OPTIONS',
      url: route.url,
      handler: (_req, reply) => {
        void reply
          .code(204)
          .header('access-control-allow-origin', '*')
          .header('access-control-allow-methods', 'GET, POST')
          .header('access-control-allow-headers', ALLOW_HEADERS)
          .header('access-control-max-age', '600')
          .send();
      },
    });
  });
  fastify.addHook('onRequest', (req, reply, done) => {
    const config = req.routeOptions.config as { crossOrigin?: boolean } | undefined;
    if (config?.crossOrigin && req.method !== 'OPTIONS') {
      void reply
        .header('access-control-allow-origin', '*')
        .header('access-control-expose-headers', EXPOSE_HEADERS);
    }
    done();
  });
}
