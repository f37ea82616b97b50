import type { AppError } from '../errors/app-error';
import { CommonError, commonError } from '../errors/common-errors';

/**
 * The validation rules that are business rules (400) rather than shape (422),
 * as plain functions shared by every module.
 */

export const MAX_AMOUNT = 100_000_000;

export type AmountProblem = 'not-positive' | 'too-large';

/** `amount` is already a JSON integer (the DTO checked that); this is the range rule. */
export function amountProblem(amount: number): AmountProblem | null {
  if (amount <= 0) return 'not-positive';
  if (amount > MAX_AMOUNT) return 'too-large';
  return null;
}

/**
 * A Mauritanian mobile number: 8 digits starting with 2, 3 or 4. Spaces and a leading
 * +222 / 00222 are stripped first. Returns the 8 digits, or null when it is not one.
 */
export function normalizePhone(raw: string): string | null {
  let digits = raw.replace(/\s+/g, '');
  if (digits.startsWith('+222')) digits = digits.slice(4);
  else if (digits.startsWith('00222')) digits = digits.slice(5);
  return /^[234]\d{7}$/.test(digits) ? digits : null;
}

/** An absolute http or https URL with a host. */
export function isHttpUrl(value: unknown): boolean {
  if (typeof value !== 'string' || value.length > 2048) return false;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname.length > 0;
}

/**
 * 400 for an amount out of range. `notPositive` raises the caller's own error for 0 or less
 * (prices have their own message).
 */
export function assertAmount(
  amount: number,
  notPositive: () => AppError = () => commonError(CommonError.AmountNotPositive),
): void {
  const problem = amountProblem(amount);
  if (problem === 'not-positive') throw notPositive();
  if (problem === 'too-large') throw commonError(CommonError.AmountTooLarge);
}

/** The normalised 8 digits, or 400 `Invalid phone number`. */
export function assertPhone(raw: string): string {
  const phone = normalizePhone(raw);
  if (!phone) throw commonError(CommonError.InvalidPhoneNumber);
  return phone;
}

const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/i;

/**
 * An ISO 8601 date-time as a Date, or null. All times are UTC unless they carry an offset: a
 * date-time without one is read as UTC (never as the server's local time), a date alone as its
 * midnight UTC. Impossible dates (February 30th) are refused rather than rolled over.
 */
export function parseDateTime(value: unknown): Date | null {
  if (typeof value !== 'string') return null;
  const m = DATE_TIME.exec(value.trim());
  if (!m) return null;
  const [, y, mo, d, h, mi, , zone] = m;
  if (Number(mo) < 1 || Number(mo) > 12 || Number(d) < 1 || Number(h ?? 0) > 23 || Number(mi ?? 0) > 59)
    return null;
  if (Number(d) > new Date(Date.UTC(Number(y), Number(mo), 0)).getUTCDate()) return null;
  let text = value.trim().replace(' ', 'T');
  if (zone && /^[+-]\d{4}$/.test(zone)) text = `${text.slice(0, -5)}${zone.slice(0, 3)}:${zone.slice(3)}`;
  const date = new Date(h === undefined ? `${text}T00:00:00Z` : zone ? text : `${text}Z`);
  return Number.isNaN(date.getTime()) ? null : date;
}
