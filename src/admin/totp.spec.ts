import { base32Encode, hotp, matchTotp, otpauthUri, totp } from './totp';

describe('TOTP (RFC 6238, HMAC-SHA-1)', () => {
  // RFC 6238 appendix B: the SHA-1 seed and its 8-digit codes.
  const seed = Buffer.from('12345678901234567890', 'ascii');
  it.each([
    [59, '94287082'],
    [1111111109, '07081804'],
    [1111111111, '14050471'],
    [1234567890, '89005924'],
    [2000000000, '69279037'],
    [20000000000, '65353130'],
  ])('at %i s the code is %s', (seconds, code) => {
    expect(totp(seed, seconds * 1000, 8)).toBe(code);
  });

  it("gives RFC 4226's HOTP test values (appendix D) with 6 digits", () => {
    const expected = [
      '755224',
      '287082',
      '359152',
      '969429',
      '338314',
      '254676',
      '287922',
      '162583',
      '399871',
      '520489',
    ];
    expect(expected.map((_, counter) => hotp(seed, counter))).toEqual(expected);
  });

  it('accepts the current code and one step either side, not two', () => {
    const now = 1_700_000_000_000;
    const step = Math.floor(now / 30_000);
    expect(matchTotp(seed, totp(seed, now), now, null)).toBe(step);
    expect(matchTotp(seed, totp(seed, now - 30_000), now, null)).toBe(step - 1);
    expect(matchTotp(seed, totp(seed, now + 30_000), now, null)).toBe(step + 1);
    expect(matchTotp(seed, totp(seed, now - 60_000), now, null)).toBeNull();
    expect(matchTotp(seed, totp(seed, now + 60_000), now, null)).toBeNull();
  });

  it('uses a code once: a step at or before the last one used is refused', () => {
    const now = 1_700_000_000_000;
    const step = Math.floor(now / 30_000);
    const code = totp(seed, now);
    expect(matchTotp(seed, code, now, step)).toBeNull();
    expect(matchTotp(seed, totp(seed, now + 30_000), now, step)).toBe(step + 1);
  });

  it('refuses anything but six digits', () => {
    expect(matchTotp(seed, '12345', Date.now(), null)).toBeNull();
    expect(matchTotp(seed, 'abcdef', Date.now(), null)).toBeNull();
  });

  it('writes the secret in base32 (RFC 4648) inside an otpauth URI', () => {
    expect(base32Encode(Buffer.from('foobar'))).toBe('MZXW6YTBOI');
    expect(base32Encode(seed)).toBe('GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ');
    expect(otpauthUri(seed, 'ops@khoums.mr')).toBe(
      'otpauth://totp/Khoums%3Aops%40khoums.mr?secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ&issuer=Khoums&algorithm=SHA1&digits=6&period=30',
    );
  });
});
