import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { PaymentError, paymentError } from './payments.errors';

/**
 * A simulated transfer with a Production key is 400, checked before any look-up.
 * A guard runs after the API-key guard and before validation and the handler, so the answer
 * does not depend on the id or body sent.
 */
@Injectable()
export class SandboxOnlyGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const tenant = context.switchToHttp().getRequest<FastifyRequest>().tenant;
    if (tenant?.environment !== 'sandbox') throw paymentError(PaymentError.SimulatedTransfersSandboxOnly);
    return true;
  }
}
