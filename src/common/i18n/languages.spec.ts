import { CHECKOUT_TEXTS } from './checkout-texts';
import { chooseLanguage, direction, formatDate, formatMru, fromAcceptLanguage, LANGUAGES } from './languages';

describe('page languages', () => {
  it('defaults to French', () => {
    expect(chooseLanguage({})).toBe('fr');
    expect(chooseLanguage({ acceptLanguage: 'de-DE,de;q=0.9' })).toBe('fr');
  });

  it('prefers ?lang=, then the cookie, then Accept-Language', () => {
    expect(chooseLanguage({ query: 'en', cookie: 'ar', acceptLanguage: 'fr' })).toBe('en');
    expect(chooseLanguage({ query: 'xx', cookie: 'ar', acceptLanguage: 'en' })).toBe('ar');
    expect(chooseLanguage({ cookie: 'zz', acceptLanguage: 'en-GB,en;q=0.8' })).toBe('en');
  });

  it('ranks Accept-Language by quality and skips q=0', () => {
    expect(fromAcceptLanguage('en;q=0.5, ar-MR;q=0.9, fr;q=0.1')).toBe('ar');
    expect(fromAcceptLanguage('ar;q=0, en')).toBe('en');
    expect(fromAcceptLanguage('de, es')).toBeUndefined();
  });

  it('writes Arabic right to left', () => {
    expect(direction('ar')).toBe('rtl');
    expect(direction('fr')).toBe('ltr');
  });

  it('groups MRU amounts per language', () => {
    expect(formatMru(1234567, 'en')).toBe('1,234,567 MRU');
    expect(formatMru(1234567, 'fr').replace(/\s/g, ' ')).toBe('1 234 567 MRU');
    expect(formatMru(1500, 'ar')).toBe('١٬٥٠٠ MRU');
  });

  it('writes dates per language, on the UTC calendar day', () => {
    const date = new Date('2025-01-31T23:30:00.000Z');
    expect(formatDate(date, 'en')).toBe('January 31, 2025');
    expect(formatDate(date, 'fr')).toBe('31 janvier 2025');
    expect(formatDate(date, 'ar')).toMatch(/^٣١ يناير ٢٠٢٥$/);
  });

  it('keeps to the languages a surface offers', () => {
    expect(chooseLanguage({ query: 'ar', acceptLanguage: 'en' }, ['fr', 'en'])).toBe('en');
    expect(fromAcceptLanguage('ar, en;q=0.5', ['fr', 'en'])).toBe('en');
    expect(chooseLanguage({ cookie: 'ar' }, ['fr', 'en'])).toBe('fr');
  });

  it('has every checkout text in every language', () => {
    const keys = Object.keys(CHECKOUT_TEXTS.fr).sort();
    for (const l of LANGUAGES) {
      expect(Object.keys(CHECKOUT_TEXTS[l]).sort()).toEqual(keys);
      for (const value of Object.values(CHECKOUT_TEXTS[l])) expect(value.length).toBeGreaterThan(0);
    }
  });
});
