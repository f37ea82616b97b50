import { Module } from '@nestjs/common';
import { IdempotencyExpiryJob } from './idempotency-expiry.job';
import { IdempotencyRepository } from './idempotency.repository';
import { IdempotentRequests } from './idempotent-requests';
import { KeyedRequests } from './keyed-requests';

/**
 * Idempotency-Key on every POST of the API (`KeyedRequests`, which the application puts in the
 * scope of every request that carries the header) and on the hosted page's pay form.
 */
@Module({
  providers: [IdempotencyRepository, IdempotentRequests, IdempotencyExpiryJob, KeyedRequests],
  exports: [IdempotentRequests, IdempotencyRepository, KeyedRequests],
})
export class IdempotencyModule {}
