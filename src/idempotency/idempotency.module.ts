import { Module } from '@nestjs/common';
import { ExpireIdempotencyKeysJob } from './expire-idempotency-keys.job';
import { IdempotencyRepository } from './idempotency.repository';
import { IdempotencyKeyRecords } from './idempotency-key-records';
import { IdempotencyKeyRunner } from './idempotency-key-runner';

/**
 * Idempotency-Key on every POST of the API (`IdempotencyKeyRunner`, which the application puts in the
 * scope of every request that carries the header) and on the hosted page's pay form.
 */
@Module({
  providers: [IdempotencyRepository, IdempotencyKeyRecords, ExpireIdempotencyKeysJob, IdempotencyKeyRunner],
  exports: [IdempotencyKeyRecords, IdempotencyRepository, IdempotencyKeyRunner],
})
export class IdempotencyModule {}
