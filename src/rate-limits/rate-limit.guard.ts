import { CanActivate, ExecutionContext, Injectable, Logger } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import { Clock } from '../common/clock';
import { CommonError, commonError } from '../common/errors/common-errors';
import { AppConfig } from '../config/config';
import { NO_RATE_LIMIT } from './decorators';
import { Decision, TokenBuckets } from './token-buckets';

/** How much a client may exceed its rate for a moment: bursts up to twice the rate. */
export const BURST_FACTOR = 2;

/** What identifies an API key in the log: its prefix and first four characters (`sk_test_AbCd`), never more. */
export function keyPrefixOf(req: FastifyRequest): string {
  const header = req.headers.authorization?.trim() ?? '';
  return (header.startsWith('Bearer ') ? header.slice(7).trim() : header).slice(0, 12);
}

/**
 * Rate limits (docs/api.md "Rate limits"): RATE_LIMIT_PER_KEY requests per second per API key, and
 * RATE_LIMIT_PER_IP per client IP on the routes that take no key, each with bursts up to twice
 * the rate (0 turns one off). Token buckets in this instance's memory: N instances allow N times
 * the figure. Over the limit: 429 `Too many requests` with Retry-After. Runs after the API-key
 * guard (registered after it), so it knows whether the request was made with a key, and which.
 */
@Injectable()
export class RateLimitGuard implements CanActivate {
  private readonly logger = new Logger('RateLimits');
  readonly perKey: TokenBuckets | null;
  readonly perIp: TokenBuckets | null;

  constructor(
    config: AppConfig,
    clock: Clock,
    private readonly reflector: Reflector,
  ) {
    const now = () => clock.now();
    const buckets = (rate: number) => (rate > 0 ? new TokenBuckets(rate, rate * BURST_FACTOR, now) : null);
    this.perKey = buckets(config.RATE_LIMIT_PER_KEY);
    this.perIp = buckets(config.RATE_LIMIT_PER_IP);
  }

  canActivate(context: ExecutionContext): boolean {
    const req = context.switchToHttp().getRequest<FastifyRequest>();
    if (req.tenant) {
      if (this.perKey) this.admit(this.perKey.take(req.tenant.keyId), () => ({ key: keyPrefixOf(req) }));
      return true;
    }
    if (
      this.perIp &&
      !this.reflector.getAllAndOverride<boolean>(NO_RATE_LIMIT, [context.getHandler(), context.getClass()])
    ) {
      this.admit(this.perIp.take(req.ip), () => ({ ip: req.ip }));
    }
    return true;
  }

  private admit(decision: Decision, who: () => Record<string, string>): void {
    if (decision.allowed) return;
    if (decision.report !== undefined)
      this.logger.warn({ ...who(), refused: decision.report }, 'rate limit exceeded');
    throw commonError(CommonError.TooManyRequests).retryAfter(decision.retryAfterSeconds);
  }
}
