import { CheckoutSession } from '../checkout/checkout-session.entity';
import { ApiKey, Environment, Organization, User } from '../organizations/entities';
import { PaymentRequest } from '../payment-requests/payment-request.entity';
import { Payment, PaymentMethod } from '../payments/payment.entity';
import { WebhookAttempt, WebhookDelivery, WebhookEndpoint } from '../webhooks/webhook.entities';

export const entities = [
  Organization, Environment, User, ApiKey, PaymentRequest, PaymentMethod, Payment, WebhookEndpoint, WebhookDelivery, WebhookAttempt,
  CheckoutSession,
];
