import type { RouteHandler } from '../common/http/openapi-errors';
import { SECRET_BY_DEFAULT } from './api-key.guard';
import { AuthError } from './auth.errors';
import { AUTH_METADATA, AuthRule } from './decorators';

/** The refusals of the API-key guard on a route (none on a public one), as the guard decides them. */
export function apiKeyErrors({ controller, handler }: RouteHandler): string[] {
  const rule =
    (Reflect.getMetadata(AUTH_METADATA, handler) as AuthRule | undefined) ??
    (Reflect.getMetadata(AUTH_METADATA, controller) as AuthRule | undefined) ??
    SECRET_BY_DEFAULT;
  switch (rule.kind) {
    case 'public':
      return [];
    case 'any-key':
      return [AuthError.ApiKeyRequired, AuthError.InvalidApiKey];
    case 'secret-key':
      return [AuthError.ApiKeyRequired, AuthError.InvalidApiKey, rule.publishable];
  }
}
