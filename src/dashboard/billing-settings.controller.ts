import { Get } from '@nestjs/common';
import { Post } from '../common/http/routes';
import {
  BillingSettings,
  DUNNING_ACTIONS,
  DUNNING_DAYS_MAX,
  INVOICE_PREFIX,
  REMINDER_DAYS_MAX,
} from '../billing/billing-settings';
import { BillingSettingsService } from '../billing/billing-settings.service';
import { DashboardRenderer } from './dashboard.renderer';
import { DashboardPages } from './dashboard-pages';
import { Dash, DashboardRequest } from './dashboard-request';
import { parseChoice } from './forms';

/** A list of whole days typed as "1, 3, 7" within 0..max, or null when it is not one. */
function parseDays(text: string, max: number): number[] | null {
  const parts = text.split(/[\s,]+/).filter(Boolean);
  if (!parts.every((p) => /^\d{1,3}$/.test(p) && Number(p) <= max)) return null;
  return parts.map(Number);
}

/**
 * The environment's billing settings (docs/billing.md "Reminders, SMS and dunning"), the form of
 * PATCH /billing-settings with the API's limits. Owners and developers change them.
 */
@DashboardPages('billing-settings')
export class DashboardBillingSettingsController {
  constructor(
    private readonly renderer: DashboardRenderer,
    private readonly settings: BillingSettingsService,
  ) {}

  @Get()
  async show(@Dash() d: DashboardRequest): Promise<void> {
    this.render(d, await this.settings.get(d.scope.environmentId), d.query('saved') === '1');
  }

  @Post()
  async save(@Dash() d: DashboardRequest): Promise<void> {
    const before = parseDays(d.field('beforeDueDays'), REMINDER_DAYS_MAX);
    const after = parseDays(d.field('afterDueDays'), REMINDER_DAYS_MAX);
    const dunningText = d.field('dunningAfterDaysOverdue').trim();
    const dunningDays = dunningText === '' ? null : /^\d{1,3}$/.test(dunningText) ? Number(dunningText) : NaN;
    // The prefix as typed, upper-cased (the API takes upper case only); empty: the default.
    const prefixText = d.field('invoicePrefix').trim().toUpperCase();
    const errors = {
      days: before === null || after === null,
      dunning: dunningDays !== null && (!(dunningDays >= 1) || dunningDays > DUNNING_DAYS_MAX),
      invoicePrefix: prefixText !== '' && !INVOICE_PREFIX.test(prefixText),
    };
    if (errors.days || errors.dunning || errors.invoicePrefix) {
      const current = await this.settings.get(d.scope.environmentId);
      return this.render(
        d,
        current,
        false,
        errors,
        errors.invoicePrefix ? d.field('invoicePrefix') : undefined,
      );
    }
    await this.settings.update(d.scope.environmentId, {
      reminders: { beforeDueDays: before!, afterDueDays: after! },
      sms: { enabled: d.field('smsEnabled') === 'true' },
      dunning: {
        afterDaysOverdue: dunningDays,
        action: parseChoice(d.field('dunningAction'), DUNNING_ACTIONS) ?? 'cancel',
      },
      portal: { allowCancel: d.field('portalAllowCancel') === 'true' },
      invoicePrefix: prefixText === '' ? null : prefixText,
    });
    d.page.redirect('/dashboard/billing-settings?saved=1');
  }

  private render(
    d: DashboardRequest,
    s: BillingSettings,
    saved: boolean,
    errors: { days: boolean; dunning: boolean; invoicePrefix: boolean } = {
      days: false,
      dunning: false,
      invoicePrefix: false,
    },
    /** What was typed in a refused prefix field, shown back. */
    typedPrefix?: string,
  ): void {
    const { t } = d;
    this.renderer.render(d, 'billing-settings', t.billingSettingsTitle, {
      saved,
      errors,
      beforeDueDays: s.reminders.beforeDueDays.join(', '),
      afterDueDays: s.reminders.afterDueDays.join(', '),
      smsEnabled: s.sms.enabled,
      dunningAfterDaysOverdue: s.dunning.afterDaysOverdue ?? '',
      dunningActions: DUNNING_ACTIONS.map((a) => ({
        value: a,
        label: t[`dunningAction_${a}`],
        selected: a === s.dunning.action,
      })),
      portalAllowCancel: s.portal.allowCancel,
      invoicePrefix: typedPrefix ?? s.invoicePrefix ?? '',
      reminderDaysMax: REMINDER_DAYS_MAX,
      dunningDaysMax: DUNNING_DAYS_MAX,
    });
  }
}
