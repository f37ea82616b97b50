import { INVOICE_PREFIX_MAX } from '../billing/billing-settings';
import type { AppError } from '../common/errors/app-error';
import { DASHBOARD_TEXTS, DashboardTexts } from '../common/i18n/dashboard-texts';
import type { Language } from '../common/i18n/languages';
import { EXTERNAL_ID_MAX } from '../common/validation/fields';
import { MAX_AMOUNT } from '../common/validation/rules';
import { isStorableText } from '../common/validation/storable';
import { REFUND_REASON_MAX } from '../ledger/dto/refund.dto';
import { API_KEY_NAME_MAX } from '../organizations/api-keys.service';
import { PASSWORD_MIN } from '../organizations/users';
import { LINK_LIMITS } from '../payment-links/dto/payment-link.dto';
import { ORGANIZATION_NAME_MAX } from '../platforms/dto/account.dto';
import { PRODUCT_LIMITS } from '../products/dto/product.dto';
import { TEST_CLOCK_NAME_MAX } from '../test-clocks/dto/test-clock.dto';

/*
 * Reading the dashboard's forms and filter links: what the browser sent is only ever a string, and
 * a value that does not parse is left out (a filter) or reported (a form), never passed to SQL.
 */

/**
 * The limits the forms' fields carry (`maxlength="{{@root.limits.…}}"`, every page's locals), taken
 * from the API's DTOs and rules that check them, never restated: the browser stops at the length the
 * server accepts.
 */
export const FORM_LIMITS = {
  externalUserId: EXTERNAL_ID_MAX,
  manualPaymentReference: EXTERNAL_ID_MAX,
  productName: PRODUCT_LIMITS.name,
  productDescription: PRODUCT_LIMITS.description,
  linkName: LINK_LIMITS.name,
  linkDescription: LINK_LIMITS.description,
  linkSuccessMessage: LINK_LIMITS.successMessage,
  refundReason: REFUND_REASON_MAX,
  organizationName: ORGANIZATION_NAME_MAX,
  passwordMin: PASSWORD_MIN,
  keyName: API_KEY_NAME_MAX,
  invoicePrefix: INVOICE_PREFIX_MAX,
  testClockName: TEST_CLOCK_NAME_MAX,
} as const;

/** A path inside the dashboard to come back to, else `fallback` (never another site). */
export function safeReturn(value: unknown, fallback: string): string {
  return typeof value === 'string' && /^\/dashboard(\/[\w\-/]*)?(\?[\w\-=&%.]*)?$/.test(value)
    ? value
    : fallback;
}

/** `YYYY-MM-DD` as the start of that UTC day; `endOfDay` gives the start of the next one. */
export function parseDay(value: string | undefined, endOfDay = false): Date | undefined {
  if (!value || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return undefined;
  const at = new Date(`${value}T00:00:00Z`);
  if (Number.isNaN(at.getTime()) || at.toISOString().slice(0, 10) !== value) return undefined;
  if (endOfDay) at.setUTCDate(at.getUTCDate() + 1);
  return at;
}

/** Whole MRU from 0 to the maximum, or undefined. */
export function parseAmount(value: string | undefined): number | undefined {
  if (!value || !/^\d{1,9}$/.test(value.trim())) return undefined;
  const amount = Number(value.trim());
  return amount <= MAX_AMOUNT ? amount : undefined;
}

/** One of `options`, or undefined. */
export function parseChoice<T extends string>(
  value: string | undefined,
  options: readonly T[],
): T | undefined {
  return value !== undefined && (options as readonly string[]).includes(value) ? (value as T) : undefined;
}

/** A trimmed, non-empty search text of at most 128 characters that PostgreSQL can store, or undefined. */
export function parseText(value: string | undefined, max = 128): string | undefined {
  const text = value?.trim();
  return text && text.length <= max && isStorableText(text) ? text : undefined;
}

/** A query string of the non-empty values (links keep the filters). */
export function queryString(values: Record<string, string | undefined>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(values)) if (value) params.set(key, value);
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** A message shown on a form; `lang`: set when the message's language is not the page's. */
export interface FormMessage {
  text: string;
  lang?: Language;
}

/** The API's rules the dashboard words in the page's language (its texts' `apiRules`), by error code. */
export type ApiRule = keyof DashboardTexts['apiRules'];

/** The rule's text in the page's language; undefined for a code the texts do not name. */
export function apiRuleText(pageLang: Language, code: string): string | undefined {
  const rules = DASHBOARD_TEXTS[pageLang].apiRules;
  return Object.hasOwn(rules, code) ? rules[code as ApiRule] : undefined;
}

/**
 * A rule of the API a form broke, in the page's language. A form catches only rules of `ApiRule`
 * (its list is typed so), so the API's English words, marked as such, are only a safety net.
 */
export function apiFormMessage(pageLang: Language, err: AppError): FormMessage {
  const text = apiRuleText(pageLang, err.code);
  return text ? { text } : { text: err.message, lang: pageLang === 'en' ? undefined : 'en' };
}
