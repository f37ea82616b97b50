import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { BillingError, billingError } from './billing.errors';

/** A billing run with a Production key is 400, whatever else the request holds. */
@Injectable()
export class SandboxBillingGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const tenant = context.switchToHttp().getRequest<FastifyRequest>().tenant;
    if (tenant?.environment !== 'sandbox') throw billingError(BillingError.RunsSandboxOnly);
    return true;
  }
}
