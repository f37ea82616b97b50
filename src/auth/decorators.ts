import { applyDecorators, SetMetadata } from '@nestjs/common';
import { CrossOrigin } from '../common/http/cors';
import { ApiErrors } from '../common/http/openapi-errors';
import { OrganizationError } from '../organizations/organizations.errors';
import { AuthError } from './auth.errors';

export const AUTH_METADATA = 'khoums:auth';
export const ASKS_FOR_MONEY_METADATA = 'khoums:asks-for-money';

/** The 403 codes a secret-only route may answer a publishable key with. */
export type PublishableRefusal = AuthError.UnauthorizedAccess | AuthError.CheckoutNeedsSecretKey;

export type AuthRule =
  { kind: 'public' } | { kind: 'any-key' } | { kind: 'secret-key'; publishable: PublishableRefusal };

/** Secret keys only; a publishable key gets 403 (`Unauthorized access` unless told otherwise). */
export const SecretKey = (publishable: PublishableRefusal = AuthError.UnauthorizedAccess) =>
  SetMetadata(AUTH_METADATA, { kind: 'secret-key', publishable } satisfies AuthRule);

/**
 * Either a secret or a publishable key (payment request look-up, payment methods, pay). These are
 * the routes a merchant's web page calls, so they also answer browsers of any origin (CORS).
 */
export const AnyKey = () =>
  applyDecorators(SetMetadata(AUTH_METADATA, { kind: 'any-key' } satisfies AuthRule), CrossOrigin());

/** No API key (health, the hosted page and its public routes, the dashboard's own session). */
export const Public = () => SetMetadata(AUTH_METADATA, { kind: 'public' } satisfies AuthRule);

/**
 * The route asks a customer for money (a payment request, a checkout session, pay, a
 * subscription): with a Production key of an organization that is not yet verified it answers
 * 403 `Organization is not verified for Production` (docs/going-live.md). Sandbox is never gated.
 */
export const AsksForMoney = () =>
  applyDecorators(
    SetMetadata(ASKS_FOR_MONEY_METADATA, true),
    ApiErrors(OrganizationError.NotVerifiedForProduction),
  );
