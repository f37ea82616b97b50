import { DASHBOARD_TEXTS } from './dashboard-texts';

/** Every text, nested ones included, as `path: value`. */
const flatten = (o: object, prefix = ''): [string, unknown][] =>
  Object.entries(o).flatMap(([k, v]) =>
    v !== null && typeof v === 'object' ? flatten(v as object, `${prefix}${k}.`) : [[`${prefix}${k}`, v]],
  );

describe('dashboard texts', () => {
  it('has every text in French and English, none empty, with the same placeholders', () => {
    const fr = Object.fromEntries(flatten(DASHBOARD_TEXTS.fr));
    const en = Object.fromEntries(flatten(DASHBOARD_TEXTS.en));
    expect(Object.keys(en).sort()).toEqual(Object.keys(fr).sort());
    const placeholders = (s: unknown) => [...String(s).matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
    for (const key of Object.keys(fr)) {
      expect(String(fr[key]).length).toBeGreaterThan(0);
      expect({ key, en: placeholders(en[key]) }).toEqual({ key, en: placeholders(fr[key]) });
    }
  });

  it("says a wrong sign-in in the API's exact words in English", () => {
    expect(DASHBOARD_TEXTS.en.invalidCredentials).toBe('Invalid email or password');
  });
});
