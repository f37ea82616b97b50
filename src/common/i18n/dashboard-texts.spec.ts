import { DASHBOARD_TEXTS, DashboardTexts } from './dashboard-texts';
import { ar } from './dashboard/ar';
import { en } from './dashboard/en';
import { fr } from './dashboard/fr';
import { LANGUAGES } from './languages';

/** Every text, nested ones included, as `path: value`. */
const flatten = (o: object, prefix = ''): [string, unknown][] =>
  Object.entries(o).flatMap(([k, v]) =>
    v !== null && typeof v === 'object' ? flatten(v as object, `${prefix}${k}.`) : [[`${prefix}${k}`, v]],
  );

const placeholders = (s: unknown) => [...String(s).matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

// A dictionary that misses a text, or has one more, is not a DashboardTexts: `npm run lint` (tsc)
// fails on these lines if that ever stops being true.
// @ts-expect-error a language without one of the texts does not compile
const incomplete: DashboardTexts = { ...fr, signIn: undefined };
// @ts-expect-error nor with a text the others do not have
const extra: DashboardTexts = { ...en, onlyInThisLanguage: 'x' };
// @ts-expect-error nor with a notice missing
const noticeMissing: DashboardTexts = { ...ar, notices: { keyRevoked: 'x' } };

describe('dashboard texts', () => {
  it('is one typed dictionary per language: French, Arabic and English', () => {
    expect(Object.keys(DASHBOARD_TEXTS).sort()).toEqual([...LANGUAGES].sort());
    expect([incomplete, extra, noticeMissing].every((d) => typeof d === 'object')).toBe(true);
  });

  it('has every text in every language, none empty, with the same placeholders', () => {
    const reference = Object.fromEntries(flatten(DASHBOARD_TEXTS.fr));
    for (const lang of LANGUAGES) {
      const texts = Object.fromEntries(flatten(DASHBOARD_TEXTS[lang]));
      expect({ lang, keys: Object.keys(texts).sort() }).toEqual({
        lang,
        keys: Object.keys(reference).sort(),
      });
      for (const key of Object.keys(reference)) {
        expect({ lang, key, empty: String(texts[key]).trim().length === 0 }).toEqual({
          lang,
          key,
          empty: false,
        });
        expect({ lang, key, placeholders: placeholders(texts[key]) }).toEqual({
          lang,
          key,
          placeholders: placeholders(reference[key]),
        });
      }
    }
  });

  it('writes the Arabic texts in Arabic, not copied from another language', () => {
    const french = Object.fromEntries(flatten(fr));
    const english = Object.fromEntries(flatten(en));
    // Technical names the merchant types (transactionId, externalUserId), the brand, the dash and the PDF format stay as they are.
    const untranslated = flatten(ar)
      .filter(([key, value]) => value === french[key] || value === english[key])
      .map(([key]) => key);
    expect(untranslated.sort()).toEqual(['brand', 'externalUserId', 'invoicePdf', 'none', 'transactionId']);
    for (const [key, value] of flatten(ar)) {
      if (untranslated.includes(key)) continue;
      expect({ key, arabic: /[\u0600-\u06ff]/.test(String(value)) }).toEqual({ key, arabic: true });
    }
  });

  it('isolates every value filled into an Arabic text, so that it keeps its own direction', () => {
    for (const [key, value] of flatten(DASHBOARD_TEXTS.ar)) {
      const bare = String(value).replace(/\u2068\{\w+\}\u2069/g, '');
      expect({ key, bare: placeholders(bare) }).toEqual({ key, bare: [] });
    }
    expect(DASHBOARD_TEXTS.ar.paymentRequestTitle).toBe('طلب الدفع \u2068{transactionId}\u2069');
    // The other languages are left as written.
    expect(DASHBOARD_TEXTS.en.paymentRequestTitle).toBe('Payment request {transactionId}');
  });

  it("says a wrong sign-in in the API's exact words in English", () => {
    expect(DASHBOARD_TEXTS.en.invalidCredentials).toBe('Invalid email or password');
  });
});
