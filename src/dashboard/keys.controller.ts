import { Get, Param } from '@nestjs/common';
import { AppError } from '../common/errors/app-error';
import { Post } from '../common/http/routes';
import {
  API_KEY_NAME_MAX,
  ApiKeysService,
  isRollDelay,
  ROLL_DELAYS,
} from '../organizations/api-keys.service';
import { OrganizationError } from '../organizations/organizations.errors';
import type { ApiKeyInfo } from '../organizations/organizations.repository';
import { keyPrefix } from '../organizations/secrets';
import type { KeyKind } from '../organizations/tenant';
import { DashboardError, dashboardError } from './dashboard.errors';
import { DashboardRenderer } from './dashboard.renderer';
import { DashboardPages, idOr404 } from './dashboard-pages';
import { Dash, DashboardRequest } from './dashboard-request';
import { fill, formatTime } from './format';
import { parseChoice } from './forms';

const KINDS: readonly KeyKind[] = ['secret', 'publishable'];

/** API keys: list, create (the full key shown once), revoke and roll, in the session's environment. */
@DashboardPages('keys')
export class DashboardKeysController {
  constructor(
    private readonly renderer: DashboardRenderer,
    private readonly keys: ApiKeysService,
  ) {}

  @Get()
  async list(@Dash() d: DashboardRequest): Promise<void> {
    const { t } = d;
    const keys = await this.keys.list(d.scope);
    this.renderer.render(d, 'keys', t.keysTitle, {
      keys: keys.map((k) => this.row(d, k)),
      kinds: KINDS.map((k, i) => ({ value: k, label: t[`keyKind_${k}`], checked: i === 0 })),
      delays: ROLL_DELAYS.map((s) => ({ value: s, label: t[`rollDelay_${s}`], selected: s === 86_400 })),
    });
  }

  /** Answers with a page showing the new key; it is never shown again. */
  @Post()
  async create(@Dash() d: DashboardRequest): Promise<void> {
    const kind = d.field('type') === '' ? 'secret' : parseChoice(d.field('type'), KINDS);
    if (!kind) throw dashboardError(DashboardError.InvalidForm);
    const name = d.field('name').trim().slice(0, API_KEY_NAME_MAX) || null;
    const scope = d.scope;
    const issued = await this.keys.issue(
      scope.organizationId,
      { id: scope.environmentId, kind: scope.environment },
      kind,
      name,
    );
    this.renderer.render(d, 'key-created', d.t.newKeyTitle, { key: issued.key, name: name ?? d.t.unnamed });
  }

  /** The key answers 401 from its very next request. */
  @Post(':id/revoke')
  async revoke(@Dash() d: DashboardRequest, @Param('id') id: string): Promise<void> {
    const scope = d.scope;
    if (!(await this.keys.revoke(scope.organizationId, idOr404(id), scope.environmentId)))
      throw dashboardError(DashboardError.NotFound);
    d.page.redirect('/dashboard/keys?notice=keyRevoked');
  }

  /** A new key now; the old one works for the chosen delay (now, 1 h, 24 h, 7 days). */
  @Post(':id/roll')
  async roll(@Dash() d: DashboardRequest, @Param('id') id: string): Promise<void> {
    const { t } = d;
    const delay = Number(d.field('delay') || '0');
    if (!isRollDelay(delay)) throw dashboardError(DashboardError.InvalidForm);
    let rolled;
    try {
      rolled = await this.keys.roll(d.scope, idOr404(id), delay);
    } catch (err) {
      if (AppError.is(err, OrganizationError.ApiKeyNotFound)) throw dashboardError(DashboardError.NotFound);
      throw err;
    }
    const name = rolled.previous.name ?? t.unnamed;
    this.renderer.render(d, 'key-created', t.newKeyTitle, {
      key: rolled.issued.key,
      name,
      rolled:
        delay === 0
          ? fill(t.rolledKeyNow, { name })
          : fill(t.rolledKey, { name, date: formatTime(rolled.previousExpiresAt, d.lang) }),
    });
  }

  private row(d: DashboardRequest, k: ApiKeyInfo) {
    const { t } = d;
    const prefix = keyPrefix(k.kind, d.scope.environment);
    return {
      id: k.id,
      name: k.name ?? t.unnamed,
      kind: t[`keyKind_${k.kind}`],
      prefix,
      lastFour: k.display.slice(-4),
      created: formatTime(k.createdAt, d.lang),
      lastUsed: k.lastUsedAt ? formatTime(k.lastUsedAt, d.lang) : t.never,
      expires: k.expiresAt ? formatTime(k.expiresAt, d.lang) : t.never,
      expiring: k.expiresAt !== null,
      revokeAction: `/dashboard/keys/${k.id}/revoke`,
      rollAction: `/dashboard/keys/${k.id}/roll`,
    };
  }
}
