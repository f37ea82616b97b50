import { domainErrors } from '../common/errors/app-error';
import { Messages } from '../common/errors/messages';

export enum WebhookError {
  EndpointNotFound = 'webhook_endpoint_not_found',
  DeliveryNotFound = 'webhook_delivery_not_found',
  UrlMustBePublic = 'webhook_url_must_be_public',
  UrlMustBePublicInProduction = 'webhook_url_must_be_public_in_production',
  TooManyEndpoints = 'too_many_webhook_endpoints',
  EndpointDoesNotReceive = 'webhook_endpoint_does_not_receive',
}

export const webhookError = domainErrors<WebhookError>({
  [WebhookError.EndpointNotFound]: [404, Messages.webhookEndpointNotFound],
  [WebhookError.DeliveryNotFound]: [404, Messages.webhookDeliveryNotFound],
  [WebhookError.UrlMustBePublic]: [400, Messages.webhookUrlMustBePublic],
  [WebhookError.UrlMustBePublicInProduction]: [400, Messages.webhookUrlMustBePublicInProduction],
  [WebhookError.TooManyEndpoints]: [400, Messages.tooManyWebhookEndpoints],
  [WebhookError.EndpointDoesNotReceive]: [400, Messages.webhookEndpointDoesNotReceive],
});
