import { domainErrors } from '../common/errors/app-error';
import { Messages } from '../common/errors/messages';

export enum PayoutError {
  InsufficientBalance = 'insufficient_available_balance',
  OnHold = 'payouts_on_hold',
  NotFound = 'payout_not_found',
  RunsSandboxOnly = 'payout_runs_sandbox_only',
}

export const payoutError = domainErrors<PayoutError>({
  [PayoutError.InsufficientBalance]: [400, Messages.insufficientAvailableBalance],
  [PayoutError.OnHold]: [409, Messages.payoutsOnHold],
  [PayoutError.NotFound]: [404, Messages.payoutNotFound],
  [PayoutError.RunsSandboxOnly]: [400, Messages.payoutRunsSandboxOnly],
});
