import type { CheckoutTexts } from '../common/i18n/checkout-texts';
import { formatMru, type Language } from '../common/i18n/languages';

/*
 * The hosted pages' view of a pending transfer payment (docs/transfers.md): what the customer needs
 * on a phone to send it from any app of the national switch. Pure: the renderers give it the
 * payment's instructions and the method's apps; the view is views/partials/transfer-instructions.hbs.
 */

/** The instructions of a pending transfer payment, as pay answers them (CONTRACT `GimtelInstructions`). */
export interface TransferInstructionsView {
  receivingBank: string;
  receivingPhone: string;
  amount: number;
  payerPhone: string;
  claimExpiresAt: Date;
}

/** A member app the customer may pay from (the gimtel method's `apps`). */
export interface TransferApp {
  code: string;
  name: string;
}

/** A piece of a sentence: words in the page's language, or a value kept in its own direction (`<bdi>`). */
export type Segment = { text: string } | { value: string };

/**
 * `template` with each `{name}` replaced by `values[name]` as a value segment (the view wraps it in
 * `<bdi>`); an unknown placeholder stays as text. The text around stays as written.
 */
export function segments(template: string, values: Record<string, string>): Segment[] {
  const out: Segment[] = [];
  let last = 0;
  for (const m of template.matchAll(/\{(\w+)\}/g)) {
    const value = values[m[1]];
    if (value === undefined) continue;
    if (m.index > last) out.push({ text: template.slice(last, m.index) });
    out.push({ value });
    last = m.index + m[0].length;
  }
  if (last < template.length) out.push({ text: template.slice(last) });
  return out;
}

/** `HH:MM` of a time in Nouakchott (UTC all year), Latin digits as the phone's clock shows them. */
export const nouakchottTime = (at: Date): string => at.toISOString().slice(11, 16);

/**
 * The app the steps are for: `?app=` when it is one of `apps`, else the app of the receiving bank
 * (a customer of the merchant's own bank), else the first.
 */
export function chosenApp(
  apps: TransferApp[],
  query: unknown,
  receivingBank: string,
): TransferApp | undefined {
  const byCode = (code: string) => apps.find((a) => a.code.toLowerCase() === code.toLowerCase());
  return (typeof query === 'string' && byCode(query)) || byCode(receivingBank) || apps[0];
}

/** The receiving bank as the customer finds it in the app's list: the member app's name, else its code. */
export const bankName = (apps: TransferApp[], receivingBank: string): string =>
  apps.find((a) => a.code.toLowerCase() === receivingBank.toLowerCase())?.name ?? receivingBank;

/**
 * The locals of the instructions: the amount, the merchant's wallet to copy, the apps as links to
 * the page (`?app=`, no JavaScript needed), the chosen app's steps, the deadline (its time for a
 * page without JavaScript, its ISO instant for the countdown).
 */
export function transferLocals(
  t: CheckoutTexts,
  lang: Language,
  instructions: TransferInstructionsView,
  apps: TransferApp[],
  appQuery: unknown,
  pagePath: string,
): Record<string, unknown> {
  const amountText = formatMru(instructions.amount, lang);
  const bank = bankName(apps, instructions.receivingBank);
  const app = chosenApp(apps, appQuery, instructions.receivingBank);
  const values = {
    app: app?.name ?? '',
    switch: 'GIMTEL',
    bank,
    phone: instructions.receivingPhone,
    amount: amountText,
    payerPhone: instructions.payerPhone,
  };
  const steps = [t.step1, t.step2, t.step3, t.step4, t.step5];
  return {
    transfer: {
      amountText,
      bank,
      phone: instructions.receivingPhone,
      payerPhone: instructions.payerPhone,
      apps: apps.map((a) => ({
        ...a,
        href: `${pagePath}?app=${encodeURIComponent(a.code)}`,
        current: a.code === app?.code,
      })),
      app,
      stepsTitle: app && segments(t.stepsTitle, values),
      steps: app ? steps.map((s) => segments(s, values)) : [],
      deadline: segments(t.transferDeadline, { time: nouakchottTime(instructions.claimExpiresAt) }),
      deadlineIso: instructions.claimExpiresAt.toISOString(),
      // The countdown's words around the time the script writes (mm:ss, in a <bdi>).
      timeLeft: {
        before: t.transferTimeLeft.split('{left}')[0],
        after: t.transferTimeLeft.split('{left}')[1] ?? '',
      },
    },
  };
}
