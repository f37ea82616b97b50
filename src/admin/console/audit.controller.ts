import { Get } from '@nestjs/common';
import { isUUID } from 'class-validator';
import type { AdminTexts } from '../../common/i18n/admin-texts';
import { GO_LIVE_TEXTS } from '../../common/i18n/go-live-texts';
import { fill, formatTime } from '../../dashboard/format';
import { parseChoice, parseDay } from '../../dashboard/forms';
import type { AuditEntry, AuditFilter } from '../audit-log.repository';
import {
  OPERATOR_ACTIONS,
  OperatorAction,
  OperatorActionsService,
  READ_ACTIONS,
} from '../operator-actions.service';
import { OperatorsService } from '../operators.service';
import { AdminPages } from './admin-pages';
import { Adm, AdminRequest } from './admin-request';
import { AdminRenderer } from './admin.renderer';

const actionText = (t: AdminTexts, action: string): string => {
  const key = `action_${action.replace(/^organization\./, '')}` as keyof AdminTexts;
  const text = t[key];
  return typeof text === 'string' ? text : action;
};

/** A record's fields as `a.b: value` lines, to compare before and after. */
function flatten(value: unknown, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    for (const [k, v] of Object.entries(value as Record<string, unknown>))
      for (const [fk, fv] of flatten(v, prefix ? `${prefix}.${k}` : k)) out.set(fk, fv);
  } else if (prefix) {
    out.set(prefix, JSON.stringify(value ?? null));
  }
  return out;
}

/** The fields an action changed, each with its value before and after. */
export function changesOf(
  before: unknown,
  after: unknown,
): { field: string; before: string; after: string }[] {
  const was = flatten(before);
  const is = flatten(after);
  const fields = [...new Set([...was.keys(), ...is.keys()])];
  return fields
    .filter((f) => was.get(f) !== is.get(f))
    .map((field) => ({ field, before: was.get(field) ?? 'null', after: is.get(field) ?? 'null' }));
}

/**
 * The audit log of operators' actions, newest first (at most 200 a page), filtered by operator
 * (or the command line), action, organization and date range (UTC days): who, what, when, and
 * what changed from before to after, with both records whole; for a read of personal data, what
 * was opened.
 */
@AdminPages('audit')
export class AdminAuditController {
  constructor(
    private readonly renderer: AdminRenderer,
    private readonly actions: OperatorActionsService,
    private readonly operators: OperatorsService,
  ) {}

  @Get()
  async list(@Adm() a: AdminRequest): Promise<void> {
    const { t } = a;
    const operatorIds = await this.operators.list();
    const operator = a.query('operator');
    const organization = a.query('organization')?.trim();
    const action = parseChoice<OperatorAction>(a.query('action'), OPERATOR_ACTIONS);
    const from = a.query('from');
    const to = a.query('to');
    const filter: AuditFilter = {
      operatorId: operator && isUUID(operator) ? operator : undefined,
      actor: operator === 'cli' ? 'cli' : undefined,
      organizationId: organization && isUUID(organization) ? organization.toLowerCase() : undefined,
      action,
      from: parseDay(from),
      to: parseDay(to, true),
    };
    const entries = await this.actions.auditLog(filter);
    this.renderer.render(a, 'audit', t.auditTitle, {
      filters: { organization: organization ?? '', from: filter.from ? from : '', to: filter.to ? to : '' },
      filtered: Boolean(
        filter.operatorId || filter.actor || filter.organizationId || action || filter.from || filter.to,
      ),
      operators: [
        { value: 'cli', label: t.cli, selected: operator === 'cli' },
        ...operatorIds.map((o) => ({ value: o.id, label: o.email, selected: o.id === operator })),
      ],
      actions: OPERATOR_ACTIONS.map((value) => ({
        value,
        label: actionText(t, value),
        selected: value === action,
      })),
      entries: entries.map((e) => entryRow(a, e)),
    });
  }
}

/** What a read (READ_ACTIONS) opened, as the go-live form names it: a document or the ID number. */
function readText(a: AdminRequest, e: AuditEntry): string | undefined {
  if (!READ_ACTIONS.includes(e.action as OperatorAction)) return undefined;
  const g = GO_LIVE_TEXTS[a.lang];
  const read = (e.after ?? {}) as { document?: string; field?: string };
  const label =
    read.document === 'rccm_extract'
      ? g.rccmExtract
      : read.document === 'representative_id'
        ? g.representativeIdDocument
        : read.field === 'representativeIdNumber'
          ? g.representativeIdNumber
          : (read.document ?? read.field ?? '');
  return fill(a.t.readWhat, { what: label });
}

function entryRow(a: AdminRequest, e: AuditEntry) {
  const read = readText(a, e);
  return {
    read,
    id: e.id,
    when: formatTime(e.createdAt, a.lang),
    who: e.operatorId ? e.actor : a.t.cli,
    action: e.action,
    what: actionText(a.t, e.action),
    organizationId: e.organizationId,
    organizationHref: e.organizationId && `/admin/organizations/${e.organizationId}`,
    // A field's path may break after each dot (`payoutAccount.<wbr>status`), never inside a name.
    changes: read
      ? []
      : changesOf(e.before, e.after).map((c) => ({ ...c, fieldParts: c.field.split(/(?<=\.)/) })),
    before: JSON.stringify(e.before, null, 2),
    after: JSON.stringify(e.after, null, 2),
  };
}
