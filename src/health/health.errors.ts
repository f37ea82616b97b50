import { domainErrors } from '../common/errors/app-error';
import { Messages } from '../common/errors/messages';

export enum HealthError {
  InvalidMetricsToken = 'invalid_metrics_token',
}

export const healthError = domainErrors<HealthError>({
  [HealthError.InvalidMetricsToken]: [401, Messages.invalidMetricsToken],
});
