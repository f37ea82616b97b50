import { Module } from '@nestjs/common';
import { IdempotencyExpiryJob } from './idempotency-expiry.job';
import { IdempotencyRepository } from './idempotency.repository';
import { IdempotencyKeyRecords } from './idempotency-key-records';
import { IdempotencyKeyRunner } from './idempotency-key-runner';

/**
 * Idempotency-Key on every POST of the API (`IdempotencyKeyRunner`, which the application puts in the
 * scope of every request that carries the header) and on the hosted page's pay form.
 */
@Module({
  providers: [IdempotencyRepository, IdempotencyKeyRecords, IdempotencyExpiryJob, IdempotencyKeyRunner],
  exports: [IdempotencyKeyRecords, IdempotencyRepository, IdempotencyKeyRunner],
})
export class IdempotencyModule {}
