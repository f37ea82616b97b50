import { Get } from '@nestjs/common';
import type { AdminTexts } from '../../common/i18n/admin-texts';
import { Post } from '../../common/http/routes';
import { fill } from '../../dashboard/format';
import type { GimtelApp } from '../../payments/payment-methods.defaults';
import type { Actor } from '../audit-log.repository';
import { OperatorActionsService } from '../operator-actions.service';
import { AdminPages } from './admin-pages';
import { Adm, AdminRequest } from './admin-request';
import { AdminRenderer } from './admin.renderer';

/** A member app's code as the payments' table takes it. */
const APP_CODE = /^[a-z][a-z0-9_]{1,39}$/;
const APP_NAME_MAX = 60;

/**
 * The apps list as an operator types it, one `code, name` a line (blank lines skipped): the apps
 * in order, or the first line that is wrong, in the console's language.
 */
export function parseAppsText(t: AdminTexts, text: string): { apps: GimtelApp[] } | { error: string } {
  const apps: GimtelApp[] = [];
  const lines = text.split(/\r?\n/);
  for (const [i, raw] of lines.entries()) {
    const line = raw.trim();
    if (line === '') continue;
    const comma = line.indexOf(',');
    const code = comma < 0 ? '' : line.slice(0, comma).trim();
    const name = comma < 0 ? '' : line.slice(comma + 1).trim();
    if (!APP_CODE.test(code) || name.length < 1 || name.length > APP_NAME_MAX)
      return { error: fill(t.gimtelAppsInvalidLine, { line: i + 1 }) };
    if (apps.some((a) => a.code === code))
      return { error: fill(t.gimtelAppsDuplicate, { line: i + 1, code }) };
    apps.push({ code, name });
  }
  return apps.length > 0 ? { apps } : { error: t.gimtelAppsEmpty };
}

const appsText = (apps: GimtelApp[]) => apps.map((a) => `${a.code}, ${a.name}`).join('\n');

const actorOf = (a: AdminRequest): Actor => ({ operatorId: a.signedIn.operatorId, label: a.signedIn.email });

/**
 * The member apps of the national switch a customer may pay from by transfer (docs/transfers.md):
 * data an operator changes here, each change audited (`gimtel_apps`, the list before and after).
 */
@AdminPages('gimtel-apps')
export class AdminGimtelAppsController {
  constructor(
    private readonly renderer: AdminRenderer,
    private readonly actions: OperatorActionsService,
  ) {}

  @Get()
  async show(@Adm() a: AdminRequest): Promise<void> {
    this.render(a, 200, appsText(await this.actions.gimtelApps()));
  }

  @Post()
  async save(@Adm() a: AdminRequest): Promise<void> {
    const text = a.field('apps');
    const parsed = parseAppsText(a.t, text);
    if ('error' in parsed) return this.render(a, 400, text, parsed.error);
    await this.actions.setGimtelApps(actorOf(a), parsed.apps);
    a.page.redirect('/admin/gimtel-apps?notice=gimtelAppsSaved');
  }

  private render(a: AdminRequest, status: number, text: string, error?: string): void {
    this.renderer.render(a, 'gimtel-apps', a.t.gimtelAppsTitle, { appsText: text, error }, status);
  }
}
