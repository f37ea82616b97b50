import { isStorableText, unstorablePaths } from './storable';

describe('storable text', () => {
  it('refuses a NUL character and a lone high or low surrogate', () => {
    expect(isStorableText('a\u0000b')).toBe(false);
    expect(isStorableText('a\ud800')).toBe(false);
    expect(isStorableText('\ud800b')).toBe(false);
    expect(isStorableText('\udc00')).toBe(false);
    expect(isStorableText('\udc00\ud800')).toBe(false);
  });

  it('accepts surrogate pairs, Arabic and other control characters PostgreSQL stores', () => {
    expect(isStorableText('🌴 تمر')).toBe(true);
    expect(isStorableText('\u0001\t\n')).toBe(true);
    expect(isStorableText('')).toBe(true);
  });

  it('names every unstorable string and key, however nested', () => {
    expect(unstorablePaths({ a: 'ok', b: 'x\u0000', c: { d: ['ok', '\ud800'] }, ['k\u0000']: 'v' })).toEqual([
      ['b'],
      ['c', 'd', '1'],
      ['k\u0000'],
    ]);
    expect(unstorablePaths('\u0000')).toEqual([[]]);
    expect(unstorablePaths({ n: 1, b: true, z: null })).toEqual([]);
  });
});
