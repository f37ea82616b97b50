import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import { assertMayAskForMoney } from '../organizations/account';
import { ApiKeysService } from '../organizations/api-keys.service';
import { ConnectedAccountsService } from '../organizations/connected-accounts.service';
import { AuthError, authError } from './auth.errors';
import { ASKS_FOR_MONEY_METADATA, AUTH_METADATA, AuthRule } from './decorators';

/** The header with which a platform's key acts for one of its connected accounts (docs/platforms.md). */
export const ACCOUNT_HEADER = 'khoums-account';

export const SECRET_BY_DEFAULT: AuthRule = { kind: 'secret-key', publishable: AuthError.UnauthorizedAccess };

/**
 * The API key is the bare key (or `Bearer <key>`) in `Authorization` (docs/api.md "Keys and
 * environments"). A route without a decorator is secret-only, so forgetting one never opens a route.
 * With `Khoums-Account`, a platform's key acts for one of its connected accounts.
 */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly keys: ApiKeysService,
    private readonly accounts: ConnectedAccountsService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const rule =
      this.reflector.getAllAndOverride<AuthRule | undefined>(AUTH_METADATA, [
        context.getHandler(),
        context.getClass(),
      ]) ?? SECRET_BY_DEFAULT;
    if (rule.kind === 'public') return true;

    const req = context.switchToHttp().getRequest<FastifyRequest>();
    const header = req.headers.authorization?.trim();
    if (!header) throw authError(AuthError.ApiKeyRequired);
    const key = header.startsWith('Bearer ') ? header.slice(7).trim() : header;

    const keyTenant = await this.keys.authenticate(key);
    if (!keyTenant) throw authError(AuthError.InvalidApiKey);
    if (rule.kind === 'secret-key' && keyTenant.keyKind !== 'secret') throw authError(rule.publishable);
    // Acting for a connected account: every route runs as that organization's key of the same
    // environment and kind (one more indexed statement, only with the header).
    const account = req.headers[ACCOUNT_HEADER];
    const tenant =
      account === undefined
        ? keyTenant
        : await this.accounts.actFor(keyTenant, Array.isArray(account) ? account.join(',') : account.trim());
    if (this.reflector.get<boolean | undefined>(ASKS_FOR_MONEY_METADATA, context.getHandler()))
      assertMayAskForMoney(tenant);
    req.tenant = tenant;
    return true;
  }
}
