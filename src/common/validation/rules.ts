import type { AppError } from '../errors/app-error';
import { CommonError, commonError } from '../errors/common-errors';

/**
 * The validation rules of CONTRACT.md that are business rules (400) rather than shape (422),
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
