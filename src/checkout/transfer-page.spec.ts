import { CHECKOUT_TEXTS } from '../common/i18n/checkout-texts';
import { bankName, chosenApp, nouakchottTime, segments, transferLocals } from './transfer-page';

const APPS = [
  { code: 'bankily', name: 'Bankily' },
  { code: 'sedad', name: 'Sedad' },
  { code: 'click', name: 'Click' },
];

describe('the transfer instructions of the hosted pages', () => {
  it('cuts a sentence into words and values, each value whole, unknown placeholders left as text', () => {
    expect(segments('Envoyez {amount} au {phone}.', { amount: '1 500 MRU', phone: '22220000' })).toEqual([
      { text: 'Envoyez ' },
      { value: '1 500 MRU' },
      { text: ' au ' },
      { value: '22220000' },
      { text: '.' },
    ]);
    expect(segments('{app} {x}', { app: 'Click' })).toEqual([{ value: 'Click' }, { text: ' {x}' }]);
  });

  it("takes the app of ?app=, else the receiving bank's own app, else the first", () => {
    expect(chosenApp(APPS, 'click', 'BANKILY')?.code).toBe('click');
    expect(chosenApp(APPS, 'nope', 'SEDAD')?.code).toBe('sedad');
    expect(chosenApp(APPS, ['click'], 'BNM')?.code).toBe('bankily');
    expect(chosenApp([], undefined, 'BNM')).toBeUndefined();
  });

  it('names the receiving bank by its app, else by its code; the deadline in Nouakchott time (UTC)', () => {
    expect(bankName(APPS, 'BANKILY')).toBe('Bankily');
    expect(bankName(APPS, 'BMCI')).toBe('BMCI');
    expect(nouakchottTime(new Date('2026-11-28T21:05:59Z'))).toBe('21:05');
  });

  it('gives five steps with the values isolated, and app links back to the page', () => {
    const locals = transferLocals(
      CHECKOUT_TEXTS.ar,
      'ar',
      {
        receivingBank: 'BANKILY',
        receivingPhone: '22220000',
        amount: 4300,
        payerPhone: '46123456',
        claimExpiresAt: new Date('2026-11-28T21:20:00Z'),
      },
      APPS,
      'sedad',
      '/checkout/abc',
    ).transfer as Record<string, unknown>;
    expect(locals.amountText).toBe('٤٬٣٠٠ MRU');
    expect((locals.apps as { href: string; current: boolean }[]).map((a) => [a.href, a.current])).toEqual([
      ['/checkout/abc?app=bankily', false],
      ['/checkout/abc?app=sedad', true],
      ['/checkout/abc?app=click', false],
    ]);
    const steps = locals.steps as { value?: string }[][];
    expect(steps).toHaveLength(5);
    expect(
      steps
        .flat()
        .filter((s) => s.value !== undefined)
        .map((s) => s.value),
    ).toEqual(['Sedad', 'GIMTEL', 'Bankily', '22220000', '٤٬٣٠٠ MRU', '46123456']);
    expect(locals.deadlineIso).toBe('2026-11-28T21:20:00.000Z');
  });
});
