/*
 * The payout account's rules (docs/going-live.md): a bank of the configured list and a
 * Mauritanian IBAN, `MR` and 25 digits, valid by the ISO 13616 mod-97 check.
 */

/** The IBAN as typed, without spaces and in capitals; null when it is not a valid Mauritanian IBAN. */
export function normalizeIban(input: string): string | null {
  const iban = input.replace(/\s+/g, '').toUpperCase();
  if (!/^MR[0-9]{25}$/.test(iban)) return null;
  return ibanChecksumValid(iban) ? iban : null;
}

/** ISO 13616: the first four characters moved to the end, letters as 10..35, the number mod 97 is 1. */
export function ibanChecksumValid(iban: string): boolean {
  const rearranged = iban.slice(4) + iban.slice(0, 4);
  let remainder = 0;
  for (const ch of rearranged) {
    const digits = /[A-Z]/.test(ch) ? String(ch.charCodeAt(0) - 55) : ch;
    for (const d of digits) remainder = (remainder * 10 + Number(d)) % 97;
  }
  return remainder === 1;
}

/** The configured list of banks (PAYOUT_BANKS: comma-separated codes). */
export function payoutBanks(configured: string): string[] {
  return configured.split(',').map((code) => code.trim());
}
