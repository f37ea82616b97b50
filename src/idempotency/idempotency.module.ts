import { Module } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { IdempotencyExpiryJob } from './idempotency-expiry.job';
import { IdempotencyInterceptor } from './idempotency.interceptor';
import { IdempotencyRepository } from './idempotency.repository';
import { IdempotentRequests } from './idempotent-requests';

/** Idempotency-Key on every POST of the API (the interceptor) and on the hosted page's pay form. */
@Module({
  providers: [
    IdempotencyRepository,
    IdempotentRequests,
    IdempotencyExpiryJob,
    { provide: APP_INTERCEPTOR, useClass: IdempotencyInterceptor },
  ],
  exports: [IdempotentRequests, IdempotencyRepository],
})
export class IdempotencyModule {}
