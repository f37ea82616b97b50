import { loadConfig } from '../config/config';
import { ibanChecksumValid, normalizeIban, payoutBanks } from './payout-account';

describe('payout account rules', () => {
  // The IBAN registry's example for Mauritania.
  const valid = 'MR1300020001010000123456753';

  it('accepts a Mauritanian IBAN whose mod-97 check holds, with spaces and in lower case', () => {
    expect(normalizeIban(valid)).toBe(valid);
    expect(normalizeIban('mr13 0002 0001 0100 0012 3456 753')).toBe(valid);
  });

  it('refuses an IBAN whose check digits do not match (one digit changed)', () => {
    expect(ibanChecksumValid('MR1300020001010000123456754')).toBe(false);
    expect(normalizeIban('MR1300020001010000123456754')).toBeNull();
    expect(normalizeIban('MR1400020001010000123456753')).toBeNull();
  });

  it('refuses another country, a wrong length and letters in the account number', () => {
    expect(normalizeIban('FR7630006000011234567890189')).toBeNull();
    expect(normalizeIban('MR130002000101000012345675')).toBeNull();
    expect(normalizeIban('MR13000200010100001234567530')).toBeNull();
    expect(normalizeIban('MR13000200010100001234567A3')).toBeNull();
  });

  it('offers the default banks unless PAYOUT_BANKS lists others', () => {
    expect(payoutBanks(loadConfig({}).PAYOUT_BANKS)).toEqual(
      expect.arrayContaining([
        'BNM',
        'BMCI',
        'BPM',
        'BCI',
        'CHINGUITTY',
        'SGM',
        'ATTIJARI',
        'BAMIS',
        'ORABANK',
        'GBM',
      ]),
    );
    expect(payoutBanks(loadConfig({ PAYOUT_BANKS: 'BNM,XYZ' }).PAYOUT_BANKS)).toEqual(['BNM', 'XYZ']);
    expect(() => loadConfig({ PAYOUT_BANKS: 'bnm;x' })).toThrow(/PAYOUT_BANKS/);
  });
});
