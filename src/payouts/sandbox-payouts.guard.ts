import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { PayoutError, payoutError } from './payouts.errors';

/** A payout run with a Production key is 400, whatever else the request holds. */
@Injectable()
export class SandboxPayoutsGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const tenant = context.switchToHttp().getRequest<FastifyRequest>().tenant;
    if (tenant?.environment !== 'sandbox') throw payoutError(PayoutError.RunsSandboxOnly);
    return true;
  }
}
