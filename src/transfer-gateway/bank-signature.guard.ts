import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { rawBodyOf } from '../common/http/body-parsers';
import { AppConfig } from '../config/config';
import { SIGNATURE_HEADER, verifyNotification } from '../payments/banks/notification-signature';
import { TransferGatewayError, transferGatewayError } from './transfer-gateway.errors';

/**
 * A bank gateway's notification passes only with a valid `x-khoums-signature` over its raw body
 * under BANK_NOTIFICATIONS_SECRET, within 5 minutes (401 `Invalid signature` otherwise, before the
 * body is validated: an unsigned caller learns nothing about what a valid body is). Neither the
 * secret nor the header is ever logged.
 */
@Injectable()
export class BankSignatureGuard implements CanActivate {
  constructor(private readonly config: AppConfig) {}

  canActivate(context: ExecutionContext): boolean {
    const req = context.switchToHttp().getRequest<FastifyRequest>();
    const header = req.headers[SIGNATURE_HEADER];
    const secret = this.config.BANK_NOTIFICATIONS_SECRET;
    if (
      !secret ||
      typeof header !== 'string' ||
      !verifyNotification(secret, header, rawBodyOf(req), Math.floor(Date.now() / 1000))
    )
      throw transferGatewayError(TransferGatewayError.InvalidSignature);
    return true;
  }
}
