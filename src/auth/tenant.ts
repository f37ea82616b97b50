import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type { Tenant as TenantOfKey } from '../organizations/tenant';

export type Tenant = TenantOfKey;

declare module 'fastify' {
  interface FastifyRequest {
    tenant?: TenantOfKey;
  }
}

/** The tenant the API-key guard authenticated. */
export const Tenant = createParamDecorator((_: unknown, ctx: ExecutionContext): Tenant => {
  const tenant = ctx.switchToHttp().getRequest<FastifyRequest>().tenant;
  if (!tenant) throw new Error('@Tenant() used on a route without an API key guard decorator');
  return tenant;
});
