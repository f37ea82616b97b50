import type { FastifyInstance } from 'fastify';

/**
 * The pages' icon (the hosted checkout's and the dashboard's layouts link it): a "K" on the
 * dashboard's indigo, as SVG, which browsers take whatever the path's extension. Served at the
 * path browsers ask for on their own, so no page load ends in a 404.
 */
export const FAVICON_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">' +
  '<rect width="32" height="32" rx="7" fill="#312e81"/>' +
  '<path d="M9 6h4.5v8.2L20.6 6h5.4l-7.6 8.7L26.5 26h-5.6l-5.6-7.9-1.8 2V26H9z" fill="#fff"/>' +
  '</svg>';

export function registerFavicon(fastify: FastifyInstance): void {
  fastify.get('/favicon.ico', (_req, reply) => {
    void reply.type('image/svg+xml').header('cache-control', 'public, max-age=86400').send(FAVICON_SVG);
  });
}
