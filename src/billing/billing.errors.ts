import { domainErrors } from '../common/errors/app-error';
import { Messages } from '../common/errors/messages';

export enum BillingError {
  RunsSandboxOnly = 'billing_runs_sandbox_only',
}

export const billingError = domainErrors<BillingError>({
  [BillingError.RunsSandboxOnly]: [400, Messages.billingRunsSandboxOnly],
});
