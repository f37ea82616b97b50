import { ApiProperty } from '@nestjs/swagger';

export const DUNNING_ACTIONS = ['cancel', 'pause'] as const;
export type DunningAction = (typeof DUNNING_ACTIONS)[number];

/** An environment's billing settings as billing stores them (docs/billing.md "Reminders, SMS and dunning"). */
export interface StoredBillingSettings {
  reminders: { beforeDueDays: number[]; afterDueDays: number[] };
  sms: { enabled: boolean };
  dunning: { afterDaysOverdue: number | null; action: DunningAction };
  portal: { allowCancel: boolean };
}

/**
 * An environment's billing settings: billing's own, and the invoice number prefix, which invoices
 * keep beside their counter (null: the default, the organization's first four letters or digits).
 */
export interface BillingSettings extends StoredBillingSettings {
  invoicePrefix: string | null;
}

/** The longest invoice number prefix billing settings take. */
export const INVOICE_PREFIX_MAX = 10;
/** An invoice number prefix set in billing settings: 1 to 10 of A-Z 0-9 (upper case). */
export const INVOICE_PREFIX = new RegExp(`^[A-Z0-9]{1,${INVOICE_PREFIX_MAX}}$`);

/** What an environment whose settings were never changed has. */
export const DEFAULT_BILLING_SETTINGS: StoredBillingSettings = {
  reminders: { beforeDueDays: [3], afterDueDays: [1, 3, 7] },
  sms: { enabled: false },
  dunning: { afterDaysOverdue: null, action: 'cancel' },
  portal: { allowCancel: true },
};

/** A reminder day is 0 to 60 days from the due date; dunning 1 to 365 days after it. */
export const REMINDER_DAYS_MAX = 60;
export const DUNNING_DAYS_MAX = 365;

/** Reminder days as stored and shown: each once, in increasing order. */
export const normalizeDays = (days: number[]): number[] => [...new Set(days)].sort((a, b) => a - b);

class RemindersJson {
  @ApiProperty({ type: 'integer', isArray: true, minimum: 0, maximum: REMINDER_DAYS_MAX, example: [3] })
  beforeDueDays!: number[];
  @ApiProperty({ type: 'integer', isArray: true, minimum: 0, maximum: REMINDER_DAYS_MAX, example: [1, 3, 7] })
  afterDueDays!: number[];
}

class SmsJson {
  @ApiProperty({ description: 'Khoums sends the reminders by SMS itself (in Sandbox: logs them)' })
  enabled!: boolean;
}

class DunningJson {
  @ApiProperty({
    type: 'integer',
    nullable: true,
    minimum: 1,
    maximum: DUNNING_DAYS_MAX,
    description: 'Days after an unpaid due date; null: never',
  })
  afterDaysOverdue!: number | null;
  @ApiProperty({ enum: DUNNING_ACTIONS }) action!: DunningAction;
}

class PortalJson {
  @ApiProperty({ description: 'Customers may cancel at period end in the portal' }) allowCancel!: boolean;
}

export class BillingSettingsJson {
  @ApiProperty({ type: RemindersJson }) reminders!: RemindersJson;
  @ApiProperty({ type: SmsJson }) sms!: SmsJson;
  @ApiProperty({ type: DunningJson }) dunning!: DunningJson;
  @ApiProperty({ type: PortalJson }) portal!: PortalJson;
  @ApiProperty({
    type: String,
    nullable: true,
    pattern: INVOICE_PREFIX.source,
    example: 'ATAR',
    description:
      "The prefix of the invoice numbers given from now on (`<prefix>-000001`); null: the organization's first four letters or digits",
  })
  invoicePrefix!: string | null;
}

/** An environment's billing settings as the statements read them (`settingsOf`). */
export interface SettingsRow {
  beforeDueDays: number[];
  afterDueDays: number[];
  smsEnabled: boolean;
  dunningAfterDaysOverdue: number | null;
  dunningAction: DunningAction;
  portalAllowCancel: boolean;
}
