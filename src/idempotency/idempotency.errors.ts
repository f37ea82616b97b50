import { domainErrors } from '../common/errors/app-error';
import { Messages } from '../common/errors/messages';

export enum IdempotencyError {
  InvalidKey = 'idempotency_key_invalid',
  KeyReused = 'idempotency_key_reused',
  InProgress = 'idempotency_key_in_progress',
}

export const idempotencyError = domainErrors<IdempotencyError>({
  [IdempotencyError.InvalidKey]: [400, Messages.idempotencyKeyInvalid],
  [IdempotencyError.KeyReused]: [400, Messages.idempotencyKeyReused],
  [IdempotencyError.InProgress]: [409, Messages.idempotencyKeyInProgress],
});
