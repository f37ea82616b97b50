/**
 * Khoums' TypeScript client library: payment requests, hosted checkout, in-app payment, billing
 * and webhooks. No runtime dependency: the platform's fetch, AbortController and Web Crypto.
 */
export { Khoums, webhooks } from './client';
export type {
  CheckoutSessions,
  Customers,
  Invoices,
  PaymentLinks,
  PaymentMethods,
  PaymentRequests,
  Payments,
  Prices,
  Products,
  Sandbox,
  Subscriptions,
  TestClocks,
  WebhookDeliveries,
  WebhookEndpoints,
  WaitForPaymentOptions,
} from './client';
export { isAppException, PaymentWaitError, WebhookSignatureError } from './errors';
export type { AppException, AppExceptionCode, PaymentWaitFailure, ValidationErrorBody } from './errors';
export type { ListPromise } from './pagination';
export type { ClientOptions, RequestOptions } from './transport';
export { newIdempotencyKey } from './transport';
export type * from './types';
export { constructEvent, verifyWebhook, verifyWebhookSignature } from './webhooks';
export type { EventKind, RawBody, VerifyOptions, WebhookEvent, WebhookHeaders } from './webhooks';

import { Khoums } from './client';
export default Khoums;
