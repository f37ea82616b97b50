import { CheckoutSession } from '../checkout/checkout-session.entity';
import { ApiKey, Environment, Organization, User } from '../organizations/entities';
import { PaymentRequest } from '../payment-requests/payment-request.entity';

export const entities = [Organization, Environment, User, ApiKey, PaymentRequest, CheckoutSession];
