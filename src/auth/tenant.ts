import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type { EnvironmentKind, KeyKind } from '../organizations/entities';

/** Who is asking: decided by the API key, available to every authenticated handler. */
export interface Tenant {
  organizationId: string;
  environmentId: string;
  environment: EnvironmentKind;
  keyKind: KeyKind;
  keyId: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    tenant?: Tenant;
  }
}

export const Tenant = createParamDecorator((_: unknown, ctx: ExecutionContext): Tenant => {
  const tenant = ctx.switchToHttp().getRequest<FastifyRequest>().tenant;
  if (!tenant) throw new Error('@Tenant() used on a route without an API key guard decorator');
  return tenant;
});
