import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { RateLimitGuard } from './rate-limit.guard';

/**
 * Request rate limits. Its guard is global and must run after the API-key guard: Nest applies
 * global guards in the order their modules are scanned, the application module's own (the
 * API-key guard) first, then its imports' (test/rate-limits/rate-limits.e2e-spec.ts holds it to that).
 */
@Module({
  providers: [{ provide: APP_GUARD, useClass: RateLimitGuard }],
})
export class RateLimitsModule {}
