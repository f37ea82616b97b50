import type { ReminderDay } from './reminder-days';

export type MessageLanguage = 'fr' | 'ar' | 'en';

export interface ReminderMessages {
  fr: string;
  ar: string;
  en: string;
}

/** At most this much of the merchant's name goes into a reminder, so the text stays one SMS. */
export const MESSAGE_MERCHANT_NAME_MAX = 20;

const pad = (n: number) => String(n).padStart(2, '0');

/**
 * The ready-to-send texts of a reminder (docs/billing.md "Reminders, SMS and dunning"): the
 * merchant's name, the amount in MRU, the due date (UTC, Mauritania's time) and the invoice's
 * page. Short enough for an SMS: with a name of up to 20 characters (longer ones are cut), an
 * amount under 1,000,000 MRU and a checkoutUrl of up to 80 characters, French and English are one
 * GSM-7 SMS (160) and Arabic two UCS-2 parts (134): the Arabic date leaves out the year (a
 * reminder is at most 60 days from it).
 */
export function reminderMessages(r: {
  merchantName: string;
  amount: string;
  dueDate: Date;
  checkoutUrl: string;
  reminder: Pick<ReminderDay, 'kind'>;
}): ReminderMessages {
  const name = [...r.merchantName.trim()].slice(0, MESSAGE_MERCHANT_NAME_MAX).join('').trim();
  const amount = `${Number(r.amount)} MRU`;
  const d = r.dueDate;
  const dayMonth = `${pad(d.getUTCDate())}/${pad(d.getUTCMonth() + 1)}`;
  const date = `${dayMonth}/${d.getUTCFullYear()}`;
  const url = r.checkoutUrl;
  if (r.reminder.kind === 'upcoming') {
    return {
      fr: `${name}: facture ${amount} à régler avant le ${date}. Payer: ${url}`,
      ar: `${name}: فاتورة ${amount} تستحق ${dayMonth} ${url}`,
      en: `${name}: invoice of ${amount} due on ${date}. Pay: ${url}`,
    };
  }
  return {
    fr: `${name}: facture ${amount} impayée depuis le ${date}. Payer: ${url}`,
    ar: `${name}: فاتورة ${amount} استحقت ${dayMonth} ${url}`,
    en: `${name}: invoice of ${amount} overdue since ${date}. Pay: ${url}`,
  };
}
