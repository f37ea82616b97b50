import { Injectable } from '@nestjs/common';
import { Db } from '../database/db';
import { InvoicesRepository } from '../invoices/invoices.repository';
import { BillingSettings, normalizeDays, StoredBillingSettings } from './billing-settings';
import { BillingRepository } from './billing.repository';
import type { UpdateBillingSettingsDto } from './dto/billing-settings.dto';

/** An environment's billing settings: reminders, SMS, dunning, the portal and the invoice number prefix. */
@Injectable()
export class BillingSettingsService {
  constructor(
    private readonly db: Db,
    private readonly repo: BillingRepository,
    private readonly invoices: InvoicesRepository,
  ) {}

  async get(environmentId: string): Promise<BillingSettings> {
    const [stored, invoicePrefix] = await Promise.all([
      this.repo.settings(environmentId),
      this.invoices.numberPrefix(environmentId),
    ]);
    return { ...stored, invoicePrefix };
  }

  /** Each part given replaces the fields it names; under the row's lock, so concurrent changes compose. */
  update(environmentId: string, dto: UpdateBillingSettingsDto): Promise<BillingSettings> {
    return this.db.transaction(async () => {
      const s = await this.repo.lockSettings(environmentId);
      const next: StoredBillingSettings = {
        reminders: {
          beforeDueDays: normalizeDays(dto.reminders?.beforeDueDays ?? s.reminders.beforeDueDays),
          afterDueDays: normalizeDays(dto.reminders?.afterDueDays ?? s.reminders.afterDueDays),
        },
        sms: { enabled: dto.sms?.enabled ?? s.sms.enabled },
        dunning: {
          afterDaysOverdue:
            dto.dunning?.afterDaysOverdue === undefined
              ? s.dunning.afterDaysOverdue
              : dto.dunning.afterDaysOverdue,
          action: dto.dunning?.action ?? s.dunning.action,
        },
        portal: { allowCancel: dto.portal?.allowCancel ?? s.portal.allowCancel },
      };
      const saved = await this.repo.saveSettings(environmentId, next, new Date());
      const days = (x: StoredBillingSettings) => JSON.stringify(x.reminders);
      if (days(s) !== days(saved)) await this.repo.rescheduleReminders(environmentId);
      // The prefix lives beside the invoices' counter (invoices own it): set only when given.
      const invoicePrefix =
        dto.invoicePrefix === undefined
          ? await this.invoices.numberPrefix(environmentId)
          : await this.invoices.setNumberPrefix(environmentId, dto.invoicePrefix);
      return { ...saved, invoicePrefix };
    });
  }
}
