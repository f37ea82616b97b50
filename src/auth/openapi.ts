import type { OpenAPIObject } from '@nestjs/swagger';
import type { RouteHandler } from '../common/http/openapi-errors';
import { OrganizationError } from '../organizations/organizations.errors';
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
      return [AuthError.ApiKeyRequired, AuthError.InvalidApiKey, OrganizationError.AccountNotConnected];
    case 'secret-key':
      return [
        AuthError.ApiKeyRequired,
        AuthError.InvalidApiKey,
        rule.publishable,
        OrganizationError.AccountNotConnected,
      ];
  }
}

/**
 * Documents the optional `Khoums-Account` header on every operation that takes an API key (those
 * that answer 401), as the key guard honours it on each of them (docs/platforms.md).
 */
export function documentAccountHeader(document: OpenAPIObject): OpenAPIObject {
  for (const [path, item] of Object.entries(document.paths)) {
    if (!path.startsWith('/api/v1/')) continue;
    for (const op of [item.get, item.post, item.patch, item.put, item.delete]) {
      if (!op?.responses?.['401']) continue;
      op.parameters = [
        ...(op.parameters ?? []),
        {
          name: 'Khoums-Account',
          in: 'header',
          required: false,
          description:
            "A platform's key only: the id of one of its connected accounts; the request runs as that " +
            "account's key of the same environment and kind.",
          schema: { type: 'string', format: 'uuid' },
        },
      ];
    }
  }
  return document;
}
