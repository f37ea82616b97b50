import { ApiKey, Environment, Organization, User } from '../organizations/entities';
import { PaymentRequest } from '../payment-requests/payment-request.entity';
import { WebhookAttempt, WebhookDelivery, WebhookEndpoint } from '../webhooks/webhook.entities';

export const entities = [Organization, Environment, User, ApiKey, PaymentRequest, WebhookEndpoint, WebhookDelivery, WebhookAttempt];
